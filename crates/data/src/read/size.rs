//! How the in-memory read cuts a file: rows per chunk and, when the file says, the rows in all.
//!
//! A chunk costs its polars frame and its gathered table at once, `ahead()` chunks at a time,
//! beside the whole columns gathered so far. At 65,536 rows that is 262 MB of f64 per copy for
//! 500 columns, a third of the design of a 100,000 × 500 train and test pair; so Parquet
//! chunks are cut to [`IN_FLIGHT_BYTES`] of f64 for all those decoded at once instead. Parquet column types come from the
//! schema, never from the rows, so the cut cannot change what is read. A CSV keeps its
//! 65,536-row chunks (polars infers each chunk's types from that chunk's rows, so another cut
//! could read a column differently), but a chunk is parsed in parts of the same rows a Parquet
//! chunk would have, whenever the parts read what the chunk reads ([`ChunkReader::in_parts`]).
//! Either way the cut only counts a chunk's records: their bytes are read back by the thread
//! that parses them, so the one thread that cuts copies nothing (issue 32: copying each chunk's
//! bytes while cutting was a sixth of the read of a 1,000,000 × 50 CSV).
//!
//! The row count of a Parquet file is in its metadata: the whole columns are reserved at that
//! length when the first chunk arrives, so they never grow by doubling (a copy of each column
//! beside the old one, and up to twice the bytes kept).

use std::path::Path;

use crate::read::chunks::tables::ahead;
use crate::read::chunks::ChunkReader;
use crate::read::files::is_parquet;
use bayeslab_core::error::Result;

/// Bytes of f64 (one per selected column and row) the chunks decoded at once aim at
/// together: `ahead()` chunks share them, so the read's peak does not grow with the cores.
/// Measured at 100,000 × 500 on 2 cores (two 32 MiB chunks): peak / X 1.17; 16 MiB chunks
/// gave 1.14 but read slower (a slice decodes every page it touches whole), 64 MiB 1.24.
const IN_FLIGHT_BYTES: usize = 64 << 20;

/// Fewer rows than this per chunk and the per-chunk cost (opening the file, a Parquet slice's
/// pages decoded whole) would show in the read time.
const MIN_ROWS: usize = 1024;

pub(crate) struct ReadSize {
    /// Rows per chunk.
    pub(crate) chunk_rows: usize,
    /// Records per part of a CSV chunk (a chunk's at most): the in-memory read of a CSV cuts
    /// a chunk by counting its records, and each part is read back and parsed on the thread
    /// that decodes it ([`ChunkReader::in_parts`]).
    pub(crate) csv_part_rows: Option<usize>,
    /// Rows in the file, when its metadata says.
    pub(crate) rows: Option<usize>,
    /// Rows to reserve the whole columns for: the file's rows, or for a CSV an estimate from
    /// its size and its first records' (a little over: room never used is never touched, while
    /// a column that grows by doubling copies itself and faults in fresh pages each time).
    pub(crate) reserve: Option<usize>,
}

/// The read size of `path` for chunks of at most `max_rows` rows reading `target` and
/// `features` (every readable column when `None`).
pub(crate) fn read_size(
    path: &Path,
    separator: u8,
    target: &str,
    features: Option<&[String]>,
    max_rows: usize,
) -> Result<ReadSize> {
    let reader = ChunkReader::open(path, max_rows, separator, Some(target), features)?;
    // A CSV read without a list of features reads every column of its header.
    let width = match reader.width() {
        Some(width) => width,
        None => reader.column_names()?.len(),
    };
    let rows = chunk_rows(width.max(1), ahead(), max_rows);
    Ok(if is_parquet(path) {
        ReadSize {
            chunk_rows: rows,
            csv_part_rows: None,
            rows: reader.rows(),
            reserve: reader.rows(),
        }
    } else {
        ReadSize {
            chunk_rows: max_rows,
            // At least one part per thread: the first chunk, decoded alone, is then parsed on
            // every thread (issue 32: a tenth of a 1,000,000 x 50 read, and two thirds of its
            // 100,000-row test file, were its first chunk on one thread).
            csv_part_rows: Some(rows.min(max_rows.div_ceil(ahead()))),
            rows: None,
            reserve: csv_rows_estimate(path),
        }
    })
}

/// Records of the CSV at `path` to sample for [`csv_rows_estimate`].
const SAMPLE_RECORDS: usize = 4096;

/// About 5 % more rows than the CSV at `path` holds if its records are as long as its first
/// [`SAMPLE_RECORDS`]; `None` when it cannot be read (the read itself then says why).
fn csv_rows_estimate(path: &Path) -> Option<usize> {
    use std::io::{BufReader, Seek};
    let file = std::fs::File::open(path).ok()?;
    let bytes = file.metadata().ok()?.len();
    let mut reader = BufReader::new(file);
    let mut in_quotes = false;
    crate::read::csv::skip_records(&mut reader, 1, &mut in_quotes).ok()?;
    let start = reader.stream_position().ok()?;
    let rows = crate::read::csv::skip_records(&mut reader, SAMPLE_RECORDS, &mut in_quotes).ok()?;
    let sampled = reader.stream_position().ok()? - start;
    if rows == 0 || sampled == 0 {
        return None;
    }
    let per_row = sampled as f64 / rows as f64;
    Some(((bytes - start) as f64 / per_row * 1.05) as usize + 16)
}

/// Rows of a chunk (a CSV chunk's part) of `width` columns, `ahead` chunks decoded at once:
/// their share of [`IN_FLIGHT_BYTES`] of f64, at least [`MIN_ROWS`], never more than `max_rows`.
fn chunk_rows(width: usize, ahead: usize, max_rows: usize) -> usize {
    (IN_FLIGHT_BYTES / ahead.max(1) / (8 * width))
        .max(MIN_ROWS)
        .min(max_rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chunks_decoded_at_once_hold_about_64_mebibytes_of_f64() {
        // 64 MiB / 2 chunks / (8 bytes × 501 columns) = 8,371.97; / 4 chunks: 4,185.99.
        assert_eq!(chunk_rows(501, 2, 65_536), 8_371);
        assert_eq!(chunk_rows(501, 4, 65_536), 4_185);
        // 32 MiB / (8 × 51) = 82,241.3 rows: the 65,536-row limit; 16 MiB: 41,120.6.
        assert_eq!(chunk_rows(51, 2, 65_536), 65_536);
        assert_eq!(chunk_rows(51, 4, 65_536), 41_120);
        // Very wide files keep the floor, a smaller limit wins.
        assert_eq!(chunk_rows(100_000, 2, 65_536), 1_024);
        assert_eq!(chunk_rows(501, 2, 7), 7);
    }
}
