//! Data loaded and prepared once for any number of runs (a sweep's points share it): the rows
//! in memory or a streamed file after its statistics pass, and the SHA-256 of every file read,
//! taken when it was read, for each run's provenance.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::event::Event;
use super::monitor::Events;
use super::source::Source;
use crate::config::{DataPlan, DataSource};
use bayeslab_core::error::Result;
use bayeslab_core::files::Scratch;
use bayeslab_data::{Dataset, StreamedData};

pub struct Loaded {
    rows: Rows,
    /// The hidden directory holding a streamed run's design cache, removed when the run ends
    /// (after `rows`, whose cache file goes first).
    _cache_dir: Option<Scratch>,
    /// Data file path -> lowercase hex SHA-256.
    pub digests: BTreeMap<String, String>,
}

enum Rows {
    Memory(Box<Dataset>),
    Streamed(Box<StreamedData>),
}

impl Loaded {
    /// Load or open the data of `data` for a run whose output goes to `out`, telling `events`
    /// the rows read as an in-memory read goes. The files' SHA-256 are taken on a thread of
    /// their own meanwhile (a second read of each file, mostly from the page cache).
    pub fn load(data: &DataPlan, out: Option<&Path>, events: Events<'_>) -> Result<Loaded> {
        let files = match &data.source {
            DataSource::Single { path, .. } => vec![path.clone()],
            DataSource::TrainTest { train, test } => vec![train.clone(), test.clone()],
        };
        let (rows, digests) = std::thread::scope(|scope| {
            let hashing = scope.spawn(|| digests(&files));
            let rows = read(data, out, events);
            let digests = hashing.join().expect("the hashing thread does not panic");
            (rows, digests)
        });
        let (rows, cache_dir) = rows?;
        Ok(Loaded {
            rows,
            _cache_dir: cache_dir,
            digests: digests?,
        })
    }

    pub fn source(&self) -> Source<'_> {
        match &self.rows {
            Rows::Memory(d) => Source::Memory(d),
            Rows::Streamed(d) => Source::Streamed(d),
        }
    }
}

/// The rows of `data`: read into memory, or a streamed file opened (its statistics pass done).
fn read(
    data: &DataPlan,
    out: Option<&Path>,
    events: Events<'_>,
) -> Result<(Rows, Option<Scratch>)> {
    Ok(match data.streaming {
        Some(streaming) => {
            let mut streamed = StreamedData::open(data)?;
            let mut cache_dir = None;
            if streaming.cache {
                let dir = cache_scratch(out)?;
                streamed.keep_cache_in(dir.path());
                cache_dir = Some(dir);
            }
            (Rows::Streamed(Box::new(streamed)), cache_dir)
        }
        None => {
            let mut probe = |file: &Path, rows, total| {
                let file = file.to_path_buf();
                events.send(Event::Reading { file, rows, total });
            };
            let dataset = bayeslab_data::load_with(data, &mut probe)?;
            (Rows::Memory(Box::new(dataset)), None)
        }
    })
}

/// Data file path -> lowercase hex SHA-256 of each file.
fn digests(files: &[PathBuf]) -> Result<BTreeMap<String, String>> {
    files
        .iter()
        .map(|f| Ok((f.display().to_string(), super::provenance::sha256_file(f)?)))
        .collect()
}

/// Where the design cache goes: a hidden sibling of the output directory, on the disk the user
/// chose for results (the system's temporary directory is often in memory, and a cache is the
/// size of the design), found and removed by the next run there if this one is killed; beside a
/// `bayeslab-cache` name in the temporary directory for a run with no output directory.
fn cache_scratch(out: Option<&Path>) -> Result<Scratch> {
    match out {
        Some(out) => Scratch::beside(out),
        None => Scratch::beside(&std::env::temp_dir().join("bayeslab-cache")),
    }
}
