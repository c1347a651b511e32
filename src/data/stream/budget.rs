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
    let fixed = fixed_bytes(design);
    let per_row = (estimate - fixed) / streaming.chunk_rows.max(1) as u64;
    let fit = budget.saturating_sub(fixed) / per_row.max(1);
    let fix = if fit == 0 {
        format!(
            "even one row does not fit beside the {} of the {design} x {design} matrices: raise max_memory or select fewer [data] features",
            mib(fixed)
        )
    } else {
        format!("lower [data] chunk_rows to at most {fit} or raise max_memory")
    };
    Err(Error::data(
        path,
        format!(
            "[data] max_memory = {} is too small for chunk_rows = {}: a chunk of up to {features} feature and {design} design \
             columns needs about {} of working memory (about {per_row} bytes per row plus {} for the {design} x {design} \
             matrices); {fix}",
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
/// design column) and about six per-row vectors (48); plus [`fixed_bytes`].
pub fn working_set(
    chunk_rows: usize,
    features: usize,
    design: usize,
    csv_line: Option<u64>,
) -> u64 {
    let (f, d) = (features as u64, design as u64);
    let read = 8 * (f + 1) + csv_line.map_or(0, |line| line + 8 * (f + 1));
    let per_row = read + 16 * (f + 1) + 16 * f + 24 * d + 48;
    // Saturating: a user's chunk_rows times a wide row must not wrap below the budget.
    (chunk_rows as u64)
        .saturating_mul(per_row)
        .saturating_add(fixed_bytes(design))
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

/// Chunks a streamed pass decodes at once ([`crate::data::chunk_tables::each_table`]): one per
/// thread (at most four), and no more than fit in `max_memory` beside the D x D matrices when
/// each costs the one-chunk `working_set` (counted whole, though a chunk waiting to be used
/// holds only its frame and columns); at least one, which [`check_budget`] has made fit.
pub(super) fn chunks_in_flight(streaming: &Streaming, working_set: u64, design: usize) -> usize {
    let most = crate::data::chunk_tables::ahead();
    let Some(budget) = streaming.max_memory else {
        return most;
    };
    let fixed = fixed_bytes(design);
    let chunk = working_set.saturating_sub(fixed).max(1);
    let fit = budget.saturating_sub(fixed) / chunk;
    usize::try_from(fit).unwrap_or(usize::MAX).clamp(1, most)
}
