//! The memory budget of a streamed run: the estimated working set of one chunk in flight,
//! and the refusal of a `max_memory` below it.

use std::path::Path;

use crate::config::Streaming;
use crate::error::{Error, Result};

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
/// cache (`cache`), the larger of that pass (which also holds one column's bytes for the cache
/// and a 64 KiB write buffer) and a pass over the cache ([`cached_pass_per_row`]).
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
    let (per_row, buffers) = match cache {
        false => (decoded, 0),
        true => (
            (decoded + 8).max(cached_pass_per_row(design)),
            cache_buffer(true),
        ),
    };
    // Saturating: a user's chunk_rows times a wide row must not wrap below the budget.
    (chunk_rows as u64)
        .saturating_mul(per_row)
        .saturating_add(fixed_bytes(design) + buffers)
}

/// The design cache's write buffer, when the cache is on.
fn cache_buffer(cache: bool) -> u64 {
    if cache {
        1 << 16
    } else {
        0
    }
}

/// Bytes per row of a pass over the design cache: the block the fit consumes, the blocks
/// queued for it and the one the reading thread fills (each 8 per design column plus the
/// label and the data row), the thread's one column of raw bytes (8), Newton's
/// square-root-weighted copy (8 per design column) and the per-row vectors (48).
pub fn cached_pass_per_row(design: usize) -> u64 {
    let block = 8 * (design as u64 + 2);
    (2 + super::cache::QUEUED_BLOCKS as u64) * block + 8 + 8 * design as u64 + 48
}

/// The mean length of the first lines of a CSV file (its first 64 KiB), for the estimate; `None`
/// for Parquet.
pub(super) fn csv_bytes_per_row(path: &Path) -> Result<Option<u64>> {
    use std::io::Read;
    if path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| matches!(e.to_ascii_lowercase().as_str(), "parquet" | "pq"))
    {
        return Ok(None);
    }
    let mut head = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(1 << 16).read_to_end(&mut head))
        .map_err(|e| Error::data(path, format!("cannot read: {e}")))?;
    let lines = head.iter().filter(|&&b| b == b'\n').count().max(1) as u64;
    Ok(Some(head.len() as u64 / lines + 1))
}

#[cfg(test)]
mod tests {
    use super::{cached_pass_per_row, working_set};

    #[test]
    fn the_cache_adds_its_blocks_where_they_outweigh_the_decoding() {
        // 10 raw features, 11 design columns: decoding a chunk needs more than its cache blocks.
        let plain = working_set(1000, 10, 11, None, false);
        assert_eq!(
            working_set(1000, 10, 11, None, true),
            plain + 8 * 1000 + (1 << 16)
        );
        // 2 raw categorical features of 200 levels each, 399 design columns: three blocks of the
        // wide design outweigh the decoding, so the estimate (and the budget check) grows.
        let wide = working_set(1000, 2, 399, None, true);
        assert_eq!(
            wide,
            1000 * cached_pass_per_row(399) + super::fixed_bytes(399) + (1 << 16)
        );
        assert!(wide > working_set(1000, 2, 399, None, false));
        assert_eq!(cached_pass_per_row(399), 3 * 8 * 401 + 8 + 8 * 399 + 48);
    }
}
