//! A polars summary of a whole data file for the workbench's Dataset screen: the schema
//! (every column and its type) and, for numeric columns, mean, sd, min, max and missing
//! count. Unlike [`super::FeatureSummary`] (training rows only, as the model sees them) this
//! describes the file as it is on disk, so a user can spot a bad column before choosing
//! features.

use std::path::Path;

use polars::prelude::*;

use crate::error::{Error, Result};

/// One column of a data file.
#[derive(Debug, Clone, PartialEq)]
pub struct ColumnDescription {
    pub name: String,
    /// The polars type name, e.g. `i64`, `f64`, `str`.
    pub dtype: String,
    /// `None` for non-numeric columns.
    pub stats: Option<ColumnStats>,
    /// Null cells plus NaN values.
    pub missing: usize,
}

/// Statistics over the non-missing values; `None` when every value is missing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ColumnStats {
    pub mean: Option<f64>,
    /// Sample standard deviation (ddof = 1).
    pub sd: Option<f64>,
    pub min: Option<f64>,
    pub max: Option<f64>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct FileDescription {
    pub rows: usize,
    pub columns: Vec<ColumnDescription>,
}

/// Describe every column of the CSV (fields separated by `separator`) or Parquet file at
/// `path`. A Parquet column of a type polars cannot read here is listed with its type only.
pub fn describe(path: &Path, separator: u8) -> Result<FileDescription> {
    let (df, unread) = super::table::read_frame_with(path, separator, None, None)?;
    let mut columns = df
        .columns()
        .iter()
        .map(|c| describe_column(path, c.as_materialized_series()))
        .collect::<Result<Vec<_>>>()?;
    columns.extend(unread.into_iter().map(|(name, dtype)| ColumnDescription {
        name,
        dtype: format!("{dtype} (not readable)"),
        stats: None,
        missing: 0,
    }));
    Ok(FileDescription {
        rows: df.height(),
        columns,
    })
}

fn describe_column(path: &Path, s: &Series) -> Result<ColumnDescription> {
    let dtype = s.dtype().to_string();
    let name = s.name().to_string();
    if !(s.dtype().is_primitive_numeric() || s.dtype().is_bool()) {
        return Ok(ColumnDescription {
            name,
            dtype,
            stats: None,
            missing: s.null_count(),
        });
    }
    let f = s
        .cast(&DataType::Float64)
        .and_then(|c| c.f64().cloned())
        .map_err(|e| Error::data(path, format!("column \"{name}\": {e}")))?;
    // NaN counts as missing, as in the loader; drop it so the aggregates stay finite.
    let clean: Float64Chunked = f.iter().map(|v| v.filter(|x| !x.is_nan())).collect();
    Ok(ColumnDescription {
        name,
        dtype,
        missing: clean.null_count(),
        stats: Some(ColumnStats {
            mean: clean.mean(),
            sd: clean.std(1),
            min: clean.min(),
            max: clean.max(),
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn describes_numeric_and_missing_values() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.csv");
        std::fs::write(&path, "a,b,name\n1,NA,x\n2,4,y\n3,NaN,z\n").unwrap();
        let d = describe(&path, b',').unwrap();
        assert_eq!(d.rows, 3);
        let a = d.columns[0].stats.unwrap();
        assert_eq!(
            (a.mean, a.sd, a.min, a.max),
            (Some(2.0), Some(1.0), Some(1.0), Some(3.0))
        );
        assert_eq!(d.columns[1].missing, 2);
        assert_eq!(d.columns[1].stats.unwrap().mean, Some(4.0));
        assert!(d.columns[2].stats.is_none());
        assert_eq!(d.columns[2].dtype, "str");
    }

    #[test]
    fn unreadable_parquet_columns_are_listed_with_their_type() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/odd_types.parquet");
        let d = describe(&path, b',').unwrap();
        let names: Vec<(&str, &str)> = d
            .columns
            .iter()
            .map(|c| (c.name.as_str(), c.dtype.as_str()))
            .collect();
        assert_eq!(d.rows, 12);
        assert_eq!(names[..2], [("x", "f64"), ("y", "i64")]);
        assert!(
            names.contains(&("dec", "decimal128(10, 2) (not readable)")),
            "{names:?}"
        );
        assert_eq!(d.columns.len(), 8);
    }
}
