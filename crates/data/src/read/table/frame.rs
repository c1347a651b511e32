//! A CSV or Parquet file read into a polars frame, with errors that name the file's problem.

use std::path::Path;

use polars::prelude::*;

use crate::read::files::is_parquet;
use crate::read::{csv, parquet_columns};
use bayeslab_core::error::{Error, Result};

/// Every (readable) column of a comma-separated CSV or a Parquet file.
pub(crate) fn read_frame(path: &Path) -> Result<DataFrame> {
    read_frame_with(path, b',', None, None).map(|(df, _)| df)
}

/// Read a CSV with fields separated by `separator`, or the columns of a Parquet file that
/// [`parquet_columns::select`] picks for `target` and `features` (with the unreadable columns
/// left out, as (name, type)).
pub(crate) fn read_frame_with(
    path: &Path,
    separator: u8,
    target: Option<&str>,
    features: Option<&[String]>,
) -> Result<(DataFrame, crate::read::parquet_columns::Unread)> {
    let (df, unread) = if is_parquet(path) {
        let open = || {
            std::fs::File::open(path).map_err(|e| Error::data(path, format!("cannot open: {e}")))
        };
        let bad = |e: PolarsError| Error::data(path, format!("cannot read as Parquet: {e}"));
        let schema = ParquetReader::new(open()?).schema().map_err(bad)?;
        let (columns, unread) = parquet_columns::select(path, &schema, target, features)?;
        let df = ParquetReader::new(open()?)
            .with_columns(Some(columns))
            .finish()
            .map_err(bad)?;
        (df, unread)
    } else {
        if std::fs::metadata(path)
            .map(|m| m.len() == 0)
            .unwrap_or(false)
        {
            return Err(Error::data(
                path,
                "the file is empty: a CSV needs a header row and data rows",
            ));
        }
        csv::check_header(path, separator)?;
        (read_csv(path, separator)?, Vec::new())
    };
    if df.height() == 0 {
        return Err(Error::data(path, "the file has a header but no data rows"));
    }
    Ok((df, unread))
}

/// Rows whose values decide the column types on the first reading of a CSV.
const INFER_ROWS: usize = 1000;

/// Read a CSV with its column types inferred from the first [`INFER_ROWS`] rows: one pass over
/// the file instead of two. When that guess could be wrong — a later value that does not parse
/// as its column's type (an error), or a text column (which may be a numeric column whose
/// first rows are all missing) — the file is read again with types inferred from every row, so
/// the result is always what full inference gives.
fn read_csv(path: &Path, separator: u8) -> Result<DataFrame> {
    let read = |options: CsvReadOptions| {
        options
            .try_into_reader_with_file_path(Some(path.to_path_buf()))
            .and_then(|r| r.finish())
    };
    if let Ok(df) = read(csv::options(separator).with_infer_schema_length(Some(INFER_ROWS))) {
        if !df.dtypes().iter().any(|t| matches!(t, DataType::String)) {
            return Ok(df);
        }
    }
    read(csv::options(separator)).map_err(|e| csv::read_error(path, separator, &e))
}
