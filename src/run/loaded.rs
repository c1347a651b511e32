//! Data loaded and prepared once for any number of runs (a sweep's points share it): the rows
//! in memory or a streamed file after its statistics pass, and the SHA-256 of every file read,
//! taken when it was read, for each run's provenance.

use std::collections::BTreeMap;
use std::path::Path;

use super::source::Source;
use crate::config::DataPlan;
use crate::data::{Dataset, StreamedData};
use crate::error::Result;
use crate::files::Scratch;

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
    /// Load or open the data of `data` for a run whose output goes to `out`.
    pub fn load(data: &DataPlan, out: Option<&Path>) -> Result<Loaded> {
        let mut cache_dir = None;
        let rows = match data.streaming {
            Some(streaming) => {
                let mut streamed = StreamedData::open(data)?;
                if streaming.cache {
                    let dir = cache_scratch(out)?;
                    streamed.keep_cache_in(dir.path());
                    cache_dir = Some(dir);
                }
                Rows::Streamed(Box::new(streamed))
            }
            None => Rows::Memory(Box::new(crate::data::load(data)?)),
        };
        let mut loaded = Loaded {
            rows,
            _cache_dir: cache_dir,
            digests: BTreeMap::new(),
        };
        let files = loaded.source().files().to_vec();
        for f in files {
            let digest = super::provenance::sha256_file(&f)?;
            loaded.digests.insert(f.display().to_string(), digest);
        }
        Ok(loaded)
    }

    pub fn source(&self) -> Source<'_> {
        match &self.rows {
            Rows::Memory(d) => Source::Memory(d),
            Rows::Streamed(d) => Source::Streamed(d),
        }
    }
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
