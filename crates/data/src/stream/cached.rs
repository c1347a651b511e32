//! A pass through the design cache: the training rows' first pass decodes the data file and
//! writes the cache, every later one replays it (see [`super::cache`]). The test rows are read
//! once, by the one prediction pass, so they are never cached.

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use super::cache::PassCache;
use super::{DesignRows, Part, PassStats, StreamedData};
use bayeslab_core::error::Result;
use bayeslab_core::record::ReadFrom;

/// The cache file's name inside the directory the runner gives.
const FILE_NAME: &str = "train.design-cache";

impl StreamedData {
    /// Keep the training rows' design cache in `dir` (a directory the caller owns and removes),
    /// unless `[data] cache = false` or the target is not little-endian 64-bit (see
    /// `cache::NATIVE`). Without this call every pass reads the data file.
    pub fn keep_cache_in(&mut self, dir: &Path) {
        if !self.streaming.cache || !super::cache::NATIVE {
            return;
        }
        // Everything that shapes the design rows: the data plan (split, encodings, chunk size,
        // feature map settings, seed) and what the statistics pass learnt from the rows.
        let settings = format!(
            "{:?}",
            (
                &self.plan,
                &self.features,
                &self.categorical,
                &self.encoder,
                &self.stats,
                &self.map,
                &self.columns,
            )
        );
        self.cache = Some(Arc::new(PassCache::new(
            dir.join(FILE_NAME),
            &self.files[0],
            &settings,
        )));
    }

    /// The cache file, while the cache is on (for tests and messages).
    pub fn cache_path(&self) -> Option<&Path> {
        self.cache.as_deref().map(PassCache::path)
    }

    /// One pass over the rows of `part`, handing `f` each chunk's design rows, exactly as the
    /// in-memory loader would have made them: from the design cache when a trusted one exists,
    /// else from the data file (writing the cache on the way, for the training rows).
    pub fn pass(
        &self,
        part: Part,
        f: &mut dyn FnMut(DesignRows<'_>) -> Result<()>,
    ) -> Result<PassStats> {
        let Some(cache) = self.cache.as_deref().filter(|_| part == Part::Train) else {
            return self.decode_pass(part, &mut |c| f(c.rows()));
        };
        let start = Instant::now();
        let mut rows = 0;
        let replayed = cache.replay(self.columns.len(), self.streaming.chunk_rows, &mut |c| {
            rows += c.y.len();
            f(c)
        })?;
        if let Some((chunks, replay)) = replayed {
            return Ok(PassStats {
                chunks,
                rows,
                seconds: start.elapsed().as_secs_f64(),
                read_seconds: replay.waited,
                read_from: ReadFrom::Cache,
                reader_cpu_seconds: replay.checking_cpu,
            });
        }
        let mut writer = cache.writer();
        let mut writing = 0.0;
        let mut stats = self.decode_pass(part, &mut |c| {
            if let Some(w) = writer.as_mut() {
                let t = Instant::now();
                w.block(c);
                writing += t.elapsed().as_secs_f64();
            }
            f(c.rows())
        })?;
        if let Some(w) = writer {
            let t = Instant::now();
            w.finish(stats.chunks);
            writing += t.elapsed().as_secs_f64();
        }
        // Writing the cache is part of reading the data, not of the model's work.
        stats.read_seconds += writing;
        stats.seconds = start.elapsed().as_secs_f64();
        Ok(stats)
    }
}
