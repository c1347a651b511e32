//! The memory budget of a streamed run: the estimated working set of one chunk in flight,
//! and the refusal of a `max_memory` below it.

use std::path::Path;

use crate::plan::Streaming;
use bayeslab_core::error::{Error, Result};

/// Refuse a `max_memory` below the estimated working set (`features` raw and `design` design
/// columns), naming the key and the largest `chunk_rows` that fits.
pub(super) fn check_budget(
    path: &Path,
    streaming: &Streaming,
    estimate: u64,
    features: usize,
    design: usize,
) -> Result<()> {
    let Some(budget) = streaming.max_memory else {
        return Ok(());
    };
    if estimate <= budget {
        return Ok(());
    }
    let fixed = fixed_bytes(design) + cache_buffer(streaming.cache);
    let per_row = (estimate - fixed) / streaming.chunk_rows.max(1) as u64;
    let fit = budget.saturating_sub(fixed) / per_row.max(1);
    let fixed_what = if streaming.cache {
        format!("the {design} x {design} matrices and the design cache's write buffer")
    } else {
        format!("the {design} x {design} matrices")
    };
    let fix = if fit == 0 {
        format!(
            "even one row does not fit beside the {} of {fixed_what}: raise max_memory or select fewer [data] features",
            mib(fixed)
        )
    } else {
        format!("lower [data] chunk_rows to at most {fit} or raise max_memory")
    };
    Err(Error::data(
        path,
        format!(
            "[data] max_memory = {} is too small for chunk_rows = {}: a chunk of up to {features} feature and {design} design \
             columns needs about {} of working memory (about {per_row} bytes per row plus {} for {fixed_what}); {fix}",
            mib(budget),
            streaming.chunk_rows,
            mib(estimate),
            mib(fixed)
        ),
    ))
}

pub(super) fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / (1u64 << 20) as f64)
}

/// Bytes of the D x D matrices a Laplace fit holds at once (Hessian sum, chunk Hessian, factor,
/// a copy, L^-1 for the covariance diagonal) and the predictive's 4096-row block of solves.
pub(super) fn fixed_bytes(design: usize) -> u64 {
    let d = design as u64;
    8 * (5 * d * d + 4096 * d)
}

/// Estimated peak bytes of one chunk in flight with `features` raw features and `design` design
/// columns, per row: polars' columns (8 per column read, twice for CSV, plus the text), the
/// feature columns as options (16), plain (8) and standardised (8), the mapped design and its
/// intercept copy (16 per design column), Newton's square-root-weighted copy in X^T S X (8 per
/// design column) and about six per-row vectors (48); plus [`fixed_bytes`]. With the design
/// cache (`cache`), plus the bytes of one column being written (8) and the blocks of a pass
/// over the cache ([`cache_blocks_per_row`]) and a 64 KiB write buffer: added, not the larger of
/// the two kinds of pass, because the allocator keeps what the decoding pass freed (measured on
/// 1,000,000 x 50: 188 MiB peak decoding every pass, 293 MiB with the cache).
pub fn working_set(
    chunk_rows: usize,
    features: usize,
    design: usize,
    csv_line: Option<u64>,
    cache: bool,
) -> u64 {
    let (f, d) = (features as u64, design as u64);
    let read = 8 * (f + 1) + csv_line.map_or(0, |line| line + 8 * (f + 1));
    let decoded = read + 16 * (f + 1) + 16 * f + 24 * d + 48;
    let per_row = match cache {
        false => decoded,
        true => decoded + 8 + cache_blocks_per_row(design),
    };
    // Saturating: a user's chunk_rows times a wide row must not wrap below the budget.
    (chunk_rows as u64)
        .saturating_mul(per_row)
        .saturating_add(fixed_bytes(design) + cache_buffer(cache))
}

/// The design cache's write buffer, when the cache is on.
fn cache_buffer(cache: bool) -> u64 {
    if cache {
        1 << 16
    } else {
        0
    }
}

/// Bytes per row of the blocks of a pass over the design cache: the one the fit consumes, those
/// queued for it and the one the checking thread reads (each 8 per design column plus the label
/// and the data row). The blocks are pages of the mapped cache file: page cache, which the
/// kernel may drop at will, but counted here because a mapped page is part of the process's
/// resident set from its first read until the fit releases it after its block (the reader's
/// `MADV_DONTNEED`); the rest of the file's page cache is the kernel's, as for any file read.
pub fn cache_blocks_per_row(design: usize) -> u64 {
    (2 + super::cache::QUEUED_BLOCKS as u64) * 8 * (design as u64 + 2)
}

/// The bytes of a CSV row for the estimate, `None` for Parquet: the largest mean line length of
/// three 64 KiB windows, at the start, the middle and the end of the file (the whole file when
/// it is smaller), so that rows that grow down the file (a long text column filled in later, a
/// file sorted by a column's length) are not estimated from its first lines alone. The middle
/// and end windows count only the lines they hold whole.
pub(super) fn csv_bytes_per_row(path: &Path) -> Result<Option<u64>> {
    use std::io::{Read, Seek, SeekFrom};
    if crate::read::files::is_parquet(path) {
        return Ok(None);
    }
    const WINDOW: u64 = 1 << 16;
    let cannot = |e: std::io::Error| Error::data(path, format!("cannot read: {e}"));
    let mut file = std::fs::File::open(path).map_err(cannot)?;
    let len = file.metadata().map_err(cannot)?.len();
    let mut widest = 0;
    let starts = [
        0,
        len.saturating_sub(WINDOW) / 2,
        len.saturating_sub(WINDOW),
    ];
    for (i, &start) in starts.iter().enumerate() {
        if i > 0 && start == 0 {
            break;
        }
        let mut window = Vec::new();
        file.seek(SeekFrom::Start(start)).map_err(cannot)?;
        (&mut file)
            .take(WINDOW)
            .read_to_end(&mut window)
            .map_err(cannot)?;
        widest = widest.max(mean_line(&window, start > 0));
    }
    Ok(Some(widest + 1))
}

/// The mean length of the lines in `window` (from its first newline on when `cut`: a window
/// starting inside the file starts inside a line).
fn mean_line(window: &[u8], cut: bool) -> u64 {
    let from = match cut {
        true => memchr::memchr(b'\n', window).map_or(window.len(), |i| i + 1),
        false => 0,
    };
    let whole = match cut {
        true => memchr::memrchr(b'\n', window).map_or(from, |i| (i + 1).max(from)),
        false => window.len(),
    };
    let lines = window[from..whole]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        .max(1) as u64;
    (whole - from) as u64 / lines
}

/// Chunks a streamed pass decodes at once ([`crate::read::chunks::tables::each_table`]): one per
/// thread (at most four), and no more than fit in `max_memory` beside the D x D matrices when
/// each costs the one-chunk `working_set` (counted whole, though a chunk waiting to be used
/// holds only its frame and columns); at least one, which [`check_budget`] has made fit.
pub(super) fn chunks_in_flight(streaming: &Streaming, working_set: u64, design: usize) -> usize {
    let most = crate::read::chunks::tables::ahead();
    let Some(budget) = streaming.max_memory else {
        return most;
    };
    let fixed = fixed_bytes(design);
    let chunk = working_set.saturating_sub(fixed).max(1);
    let fit = budget.saturating_sub(fixed) / chunk;
    usize::try_from(fit).unwrap_or(usize::MAX).clamp(1, most)
}

#[cfg(test)]
mod tests {
    use super::{cache_blocks_per_row, csv_bytes_per_row, fixed_bytes, working_set};

    #[test]
    fn the_row_estimate_sees_rows_that_grow_down_the_file() {
        // 2,000 rows of 10 bytes, then 2,000 of 1,000: the first 64 KiB alone said 11 bytes.
        let mut text = String::from("a,y\n");
        for _ in 0..2000 {
            text.push_str("123456,0\n");
        }
        for _ in 0..2000 {
            text.push_str(&format!("{},1\n", "9".repeat(997)));
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("grow.csv");
        std::fs::write(&path, &text).unwrap();
        let est = csv_bytes_per_row(&path).unwrap().unwrap();
        assert!((1000..=1002).contains(&est), "{est}");
        // A small file is read whole: its exact mean line.
        std::fs::write(&path, "a,y\n1,0\n22,1\n").unwrap();
        assert_eq!(csv_bytes_per_row(&path).unwrap(), Some(13 / 3 + 1));
    }

    #[test]
    fn the_cache_adds_its_blocks_to_the_working_set() {
        // Three blocks of 11 design columns, the label and the data row.
        assert_eq!(cache_blocks_per_row(11), 3 * 8 * 13);
        let plain = working_set(1000, 10, 11, None, false);
        assert_eq!(
            working_set(1000, 10, 11, None, true),
            plain + 1000 * (8 + cache_blocks_per_row(11)) + (1 << 16)
        );
        // And the budget check refuses on that sum: a budget between the two is too small.
        let streaming = |max_memory| crate::plan::Streaming {
            chunk_rows: 1000,
            max_memory: Some(max_memory),
            cache: true,
        };
        let with_cache = working_set(1000, 10, 11, None, true);
        let path = std::path::Path::new("x.csv");
        assert!(super::check_budget(path, &streaming(plain + 1), with_cache, 10, 11).is_err());
        assert!(super::check_budget(path, &streaming(with_cache), with_cache, 10, 11).is_ok());
        assert!(fixed_bytes(11) < plain);
    }
}
