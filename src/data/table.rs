//! Reading CSV and Parquet files with polars into plain columns. With `describe.rs` (the
//! workbench's file summary) this is the only place in bayeslab that touches polars' types.

use std::path::Path;

use polars::prelude::*;

use super::files::{is_parquet, no_column};
use super::{csv, parquet_columns};
use crate::error::{Error, Result};

/// The raw values of the selected columns of one file, in file order.
#[derive(Debug, Clone)]
pub struct Table {
    /// (name, values) per feature; `None` is a missing value (null or NaN).
    pub features: Vec<(String, Vec<Option<f64>>)>,
    pub target: Labels,
    /// Columns present in the file but not used (non-numeric ones when features are defaulted).
    pub skipped: Vec<String>,
}

/// The target column's values, kept in their own type so that label parsing can be exact.
#[derive(Debug, Clone, PartialEq)]
pub enum Labels {
    Numeric(Vec<Option<f64>>),
    Text(Vec<Option<String>>),
    Bool(Vec<Option<bool>>),
}

/// Every (readable) column of a comma-separated CSV or a Parquet file.
pub(super) fn read_frame(path: &Path) -> Result<DataFrame> {
    read_frame_with(path, b',', None, None).map(|(df, _)| df)
}

/// Read a CSV with fields separated by `separator`, or the columns of a Parquet file that
/// [`parquet_columns::select`] picks for `target` and `features` (with the unreadable columns
/// left out, as (name, type)).
pub(super) fn read_frame_with(
    path: &Path,
    separator: u8,
    target: Option<&str>,
    features: Option<&[String]>,
) -> Result<(DataFrame, super::parquet_columns::Unread)> {
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

/// Read `target` and the feature columns (`features`, or every other numeric column).
pub fn read(
    path: &Path,
    separator: u8,
    target: &str,
    features: Option<&[String]>,
) -> Result<Table> {
    let (df, unread) = read_frame_with(path, separator, Some(target), features)?;
    let mut table = frame_table(path, &df, target, features, 0)?;
    table
        .skipped
        .extend(unread.into_iter().map(|(n, t)| format!("{n} ({t})")));
    Ok(table)
}

/// The columns of one frame of `path` (the whole file, or a chunk of it whose first row is data
/// row `first_row`, so that errors name the row in the file).
pub(super) fn frame_table(
    path: &Path,
    df: &DataFrame,
    target: &str,
    features: Option<&[String]>,
    first_row: usize,
) -> Result<Table> {
    let names: Vec<String> = df
        .get_column_names()
        .iter()
        .map(|s| s.to_string())
        .collect();
    let column = |name: &str, role: &str| -> Result<&Column> {
        df.column(name)
            .map_err(|_| no_column(path, role, name, &names))
    };
    let target_col = column(target, "the target")?;
    let (feature_names, skipped) = match features {
        Some(list) => (list.to_vec(), Vec::new()),
        None => {
            let mut use_ = Vec::new();
            let mut skip = Vec::new();
            for c in df.columns() {
                let name = c.name().to_string();
                if name == target {
                    continue;
                }
                if c.dtype().is_primitive_numeric() || c.dtype().is_bool() {
                    use_.push(name);
                } else {
                    skip.push(name);
                }
            }
            if use_.is_empty() {
                return Err(Error::data(
                    path,
                    format!("no numeric feature columns besides the target \"{target}\"; list them in [data] features"),
                ));
            }
            (use_, skip)
        }
    };
    let mut out = Vec::with_capacity(feature_names.len());
    for name in feature_names {
        let values = numeric_values(path, column(&name, "feature")?, first_row)?;
        out.push((name, values));
    }
    Ok(Table {
        features: out,
        target: labels(path, target_col)?,
        skipped,
    })
}

/// One numeric column in file order (the approximation lab's data). Missing values are an
/// error naming the row: the lab has no row-dropping policy to apply.
pub fn read_column(path: &Path, name: &str) -> Result<Vec<f64>> {
    let (df, _) = read_frame_with(path, b',', None, Some(&[name.to_string()]))?;
    let col = df.column(name).map_err(|_| {
        let names: Vec<String> = df
            .get_column_names()
            .iter()
            .map(|s| s.to_string())
            .collect();
        no_column(path, "the", name, &names)
    })?;
    let values = numeric_values(path, col, 0)?;
    values
        .iter()
        .enumerate()
        .map(|(i, v)| {
            v.ok_or_else(|| {
                Error::data(
                    path,
                    format!(
                        "column \"{name}\", {}: the value is missing; fill it in or remove the row",
                        csv::row_at(path, i)
                    ),
                )
            })
        })
        .collect()
}

/// A feature column as f64 values with nulls and NaN as `None`. A value that is not a
/// number is an error naming the column, the row and the value.
fn numeric_values(path: &Path, col: &Column, first_row: usize) -> Result<Vec<Option<f64>>> {
    let name = col.name().to_string();
    let dtype = col.dtype().clone();
    if dtype.is_nested() {
        return Err(Error::data(
            path,
            format!("feature column \"{name}\" has the nested type {dtype}; only numeric columns can be features"),
        ));
    }
    let cast = col.cast(&DataType::Float64).map_err(|e| {
        Error::data(
            path,
            format!("feature column \"{name}\" ({dtype}) is not numeric: {e}"),
        )
    })?;
    let ca = cast
        .f64()
        .map_err(|e| Error::data(path, format!("feature column \"{name}\": {e}")))?;
    if cast.null_count() > col.null_count() {
        // Some non-null value failed to parse as a number: find the first one.
        if let Ok(text) = col.cast(&DataType::String) {
            if let Ok(s) = text.str() {
                for (i, (orig, num)) in s.iter().zip(ca.iter()).enumerate() {
                    let i = first_row + i;
                    if let (Some(orig), None) = (orig, num) {
                        return Err(Error::data(
                            path,
                            format!(
                                "feature column \"{name}\", {}: \"{orig}\" is not a number; \
                                 fix the value or leave it out of [data] features",
                                csv::row_at(path, i)
                            ),
                        ));
                    }
                }
            }
        }
        return Err(Error::data(
            path,
            format!("feature column \"{name}\" ({dtype}) is not numeric"),
        ));
    }
    let mut values = Vec::with_capacity(ca.len());
    for (i, v) in ca.iter().enumerate() {
        let i = first_row + i;
        match v {
            Some(x) if x.is_infinite() => {
                return Err(Error::data(
                    path,
                    format!(
                        "feature column \"{name}\", {}: the value is infinite; fix or remove it",
                        csv::row_at(path, i)
                    ),
                ))
            }
            Some(x) if x.is_nan() => values.push(None),
            other => values.push(other),
        }
    }
    Ok(values)
}

fn labels(path: &Path, col: &Column) -> Result<Labels> {
    let dtype = col.dtype();
    let name = col.name();
    let bad = |e: PolarsError| Error::data(path, format!("target column \"{name}\": {e}"));
    if dtype.is_bool() {
        Ok(Labels::Bool(col.bool().map_err(bad)?.iter().collect()))
    } else if dtype.is_primitive_numeric() {
        let c = col.cast(&DataType::Float64).map_err(bad)?;
        let vals = c
            .f64()
            .map_err(bad)?
            .iter()
            .map(|v| v.filter(|x| !x.is_nan()))
            .collect();
        Ok(Labels::Numeric(vals))
    } else if dtype.is_string() {
        Ok(Labels::Text(
            col.str()
                .map_err(bad)?
                .iter()
                .map(|s| s.map(|s| s.trim().to_string()))
                .collect(),
        ))
    } else {
        Err(Error::data(
            path,
            format!("target column \"{name}\" has type {dtype}; use a column of numbers, booleans or strings"),
        ))
    }
}
