use std::path::{Path, PathBuf};

use faer::Mat;

use super::PassCache;
use crate::stream::DesignChunk;

/// Three chunks of 2 columns with values whose bits a text round trip would not keep
/// (a subnormal, -0.0, a NaN with a payload).
fn chunks() -> Vec<DesignChunk> {
    (0..3)
        .map(|k| {
            let rows = 5 + k;
            DesignChunk {
                x: Mat::from_fn(rows, 2, |i, j| match (i, j) {
                    (0, 1) => f64::from_bits(1),
                    (1, 1) => -0.0,
                    (2, 1) => f64::from_bits(0x7FF8_0000_DEAD_BEEF),
                    _ => (i * 3 + j) as f64 / 7.0 + k as f64,
                }),
                y: (0..rows).map(|i| (i % 2) as f64).collect(),
                source_rows: (0..rows).map(|i| 100 * k + i).collect(),
            }
        })
        .collect()
}

fn bits(c: &DesignChunk) -> (Vec<u64>, Vec<u64>, Vec<usize>) {
    let x = (0..c.x.ncols())
        .flat_map(|j| c.x.col_as_slice(j).iter().map(|v| v.to_bits()))
        .collect();
    (
        x,
        c.y.iter().map(|v| v.to_bits()).collect(),
        c.source_rows.clone(),
    )
}

/// A data file and a complete cache of [`chunks`] made with `settings`.
fn written(dir: &Path, settings: &str) -> (PathBuf, PassCache) {
    let data = dir.join("data.csv");
    if !data.exists() {
        std::fs::write(&data, "a,y\n1,0\n2,1\n").unwrap();
    }
    let cache = PassCache::new(dir.join("train.design-cache"), &data, settings);
    let mut writer = cache.writer().expect("a writer");
    for c in chunks() {
        writer.block(&c);
    }
    writer.finish(4);
    (data, cache)
}

/// The blocks a replay handed over, or `None` when the cache was not trusted.
fn replayed(cache: &PassCache) -> bayeslab_core::error::Result<Option<(usize, Vec<DesignChunk>)>> {
    let mut seen = Vec::new();
    let out = cache.replay(2, 8, &mut |c| {
        seen.push(c.to_chunk());
        Ok(())
    })?;
    Ok(out.map(|(chunks, _)| (chunks, seen)))
}

#[test]
fn a_complete_cache_replays_every_block_bit_for_bit() {
    let dir = tempfile::tempdir().unwrap();
    let (_, cache) = written(dir.path(), "s");
    let (chunks_read, seen) = replayed(&cache).unwrap().expect("trusted");
    assert_eq!(
        chunks_read, 4,
        "the footer keeps the first pass's chunk count"
    );
    let want: Vec<_> = chunks().iter().map(bits).collect();
    let got: Vec<_> = seen.iter().map(bits).collect();
    assert_eq!(got, want);
}

#[test]
fn a_truncated_cache_is_not_trusted() {
    let dir = tempfile::tempdir().unwrap();
    let (_, cache) = written(dir.path(), "s");
    let full = std::fs::metadata(cache.path()).unwrap().len();
    // Cut anywhere (inside the footer, inside a block, after the header): never trusted, so
    // no block reaches the pass.
    for keep in [full - 1, full - 48, full / 2, 80] {
        let bytes = std::fs::read(cache.path()).unwrap();
        std::fs::write(cache.path(), &bytes[..keep as usize]).unwrap();
        assert!(replayed(&cache).unwrap().is_none(), "cut to {keep} bytes");
        let (_, again) = written(dir.path(), "s");
        std::mem::forget(again); // keep the rewritten file for the next cut
    }
}

#[test]
fn a_cache_made_with_other_settings_is_not_trusted() {
    let dir = tempfile::tempdir().unwrap();
    let (data, cache) = written(dir.path(), "standardize = true");
    let other = PassCache::new(cache.path().to_path_buf(), &data, "standardize = false");
    assert!(replayed(&other).unwrap().is_none());
    assert!(replayed(&cache).unwrap().is_some());
    std::mem::forget(other); // its drop would remove the shared file first
}

#[test]
fn a_cache_of_a_changed_data_file_is_not_trusted() {
    let dir = tempfile::tempdir().unwrap();
    let (data, cache) = written(dir.path(), "s");
    assert!(replayed(&cache).unwrap().is_some());
    // Same length, same modification time, one value changed: the bytes give it away.
    let modified = std::fs::metadata(&data).unwrap().modified().unwrap();
    std::fs::write(&data, "a,y\n1,0\n3,1\n").unwrap();
    std::fs::File::options()
        .write(true)
        .open(&data)
        .unwrap()
        .set_modified(modified)
        .unwrap();
    assert!(replayed(&cache).unwrap().is_none());
}

#[test]
fn a_damaged_block_stops_the_pass_before_it_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let (_, cache) = written(dir.path(), "s");
    let mut bytes = std::fs::read(cache.path()).unwrap();
    // One bit of the second block's first value: header 80 bytes, block 0 is 16 + 8 * (5 * 4 + 1).
    let at = 80 + 16 + 8 * 21 + 16;
    bytes[at] ^= 1;
    std::fs::write(cache.path(), &bytes).unwrap();
    let mut seen = 0;
    let err = cache
        .replay(2, 8, &mut |_| {
            seen += 1;
            Ok(())
        })
        .unwrap_err()
        .to_string();
    assert_eq!(
        seen, 1,
        "only the block before the damaged one was handed over"
    );
    assert!(
        err.contains("design cache") && err.contains("block 1"),
        "{err}"
    );
    assert!(err.contains("cache = false"), "{err}");
}

#[test]
fn an_unfinished_cache_leaves_nothing_and_a_dropped_one_is_removed() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data.csv");
    std::fs::write(&data, "a,y\n1,0\n").unwrap();
    let cache = PassCache::new(dir.path().join("c"), &data, "s");
    let mut writer = cache.writer().unwrap();
    writer.block(&chunks()[0]);
    drop(writer); // a pass that failed or was cancelled
    assert!(replayed(&cache).unwrap().is_none());
    let names = |d: &Path| std::fs::read_dir(d).unwrap().count();
    assert_eq!(names(dir.path()), 1, "only the data file is left");
    let (_, complete) = written(dir.path(), "s");
    assert!(complete.path().exists());
    drop(complete);
    assert_eq!(names(dir.path()), 1);
}
