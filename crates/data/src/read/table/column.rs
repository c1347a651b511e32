//! One polars column turned into plain values: a feature's numbers, or the target's labels
//! in their own type.

use std::path::Path;

use polars::prelude::*;

use super::cells::Cells;
use super::frame::read_frame_with;
use super::number::{read_cell, TextCell};
use super::numbers::Numbers;
use crate::read::csv;
use crate::read::files::no_column;
use bayeslab_core::error::{Error, Result};

/// The target column's values, kept in their own type so that label parsing can be exact.
#[derive(Debug, Clone, PartialEq)]
pub enum Labels {
    Numeric(Vec<Option<f64>>),
    Text(Vec<Option<String>>),
    Bool(Vec<Option<bool>>),
}

impl Labels {
    /// Whether no row has a label (a chunk of the file where every label is missing).
    pub fn all_missing(&self) -> bool {
        match self {
            Labels::Numeric(v) => v.iter().all(Option::is_none),
            Labels::Text(v) => v.iter().all(Option::is_none),
            Labels::Bool(v) => v.iter().all(Option::is_none),
        }
    }

    /// `n` missing labels of this kind.
    pub fn missing_like(&self, n: usize) -> Labels {
        match self {
            Labels::Numeric(_) => Labels::Numeric(vec![None; n]),
            Labels::Text(_) => Labels::Text(vec![None; n]),
            Labels::Bool(_) => Labels::Bool(vec![None; n]),
        }
    }

    /// The rows.
    pub fn rows(&self) -> usize {
        match self {
            Labels::Numeric(v) => v.len(),
            Labels::Text(v) => v.len(),
            Labels::Bool(v) => v.len(),
        }
    }
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
            (!v.is_nan()).then_some(v).ok_or_else(|| {
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

/// A feature column as f64 values with nulls and NaN as NaN (missing), written into `values`
/// (emptied first: a buffer kept from an earlier chunk, or a new one). A text column is read
/// cell by cell by [`read_cell`] (surrounding spaces removed, NaN spellings missing). A value
/// that is not a number, or an infinite one, is an error naming the column, the row and the
/// value.
pub(super) fn numeric_values(path: &Path, col: &Column, first_row: usize) -> Result<Numbers> {
    let name = col.name().to_string();
    let dtype = col.dtype().clone();
    if dtype.is_nested() {
        return Err(Error::data(
            path,
            format!("feature column \"{name}\" has the nested type {dtype}; only numeric columns can be features"),
        ));
    }
    let values = if dtype.is_string() {
        let mut values = Vec::new();
        text_numbers(path, col, first_row, &mut values)?;
        Numbers::from(values)
    } else {
        let cast = col.cast(&DataType::Float64).map_err(|e| {
            Error::data(
                path,
                format!("feature column \"{name}\" ({dtype}) is not numeric: {e}"),
            )
        })?;
        let ca = cast
            .f64()
            .map_err(|e| Error::data(path, format!("feature column \"{name}\": {e}")))?;
        Numbers::read(ca)
    };
    if let Some(i) = values.first_infinite() {
        let shown = match col.str() {
            Ok(s) => s.get(i).unwrap_or_default().trim().to_string(),
            // Parsed by polars: the cell as the file has it (`1e999`), when it can be found.
            Err(_) => csv::raw_cell(path, first_row + i, &name)
                .unwrap_or_else(|| values.get(i).to_string()),
        };
        return Err(Error::data(
            path,
            format!(
                "feature column \"{name}\", {}: the value is infinite (\"{shown}\"); fix or remove it",
                csv::row_at(path, first_row + i)
            ),
        ));
    }
    Ok(values)
}

/// The numbers of a text column by [`read_cell`], added to `values`; the first cell that is
/// text is an error.
fn text_numbers(path: &Path, col: &Column, first_row: usize, values: &mut Vec<f64>) -> Result<()> {
    let name = col.name();
    let s = col
        .str()
        .map_err(|e| Error::data(path, format!("feature column \"{name}\": {e}")))?;
    values.reserve(s.len());
    for (i, v) in s.iter().enumerate() {
        let x = match v.map(read_cell).unwrap_or(TextCell::Missing) {
            TextCell::Missing => f64::NAN,
            TextCell::Number(x) => x,
            TextCell::Text => {
                return Err(Error::data(
                    path,
                    format!(
                        "feature column \"{name}\", {}: \"{}\" is not a number; \
                     fix the value or leave it out of [data] features",
                        csv::row_at(path, first_row + i),
                        v.unwrap_or_default()
                    ),
                ))
            }
        };
        values.push(x);
    }
    Ok(())
}

/// The values of `ca` with NaN for a null, added to `values`: each arrow chunk's buffer copied
/// whole, and its null bitmap consulted once per chunk (a chunk without nulls, the usual case,
/// is one `memcpy`).
pub(super) fn labels(path: &Path, col: &Column) -> Result<Labels> {
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

/// The `[data] id` column `name` of the file as text, one value per data row; a missing value
/// is an error naming the row (a key that is missing joins nothing).
pub fn read_key(path: &Path, separator: u8, name: &str) -> Result<Vec<String>> {
    let (df, _) = read_frame_with(path, separator, None, Some(&[name.to_string()]))?;
    let col = df.column(name).map_err(|_| {
        let names: Vec<String> = df
            .get_column_names()
            .iter()
            .map(|s| s.to_string())
            .collect();
        no_column(path, "the [data] id", name, &names)
    })?;
    let bad = |e: PolarsError| Error::data(path, format!("[data] id column \"{name}\": {e}"));
    let text = col.cast(&DataType::String).map_err(bad)?;
    let values = text.str().map_err(bad)?;
    values
        .iter()
        .enumerate()
        .map(|(i, v)| {
            v.map(str::to_string).ok_or_else(|| {
                Error::data(
                    path,
                    format!(
                        "[data] id column \"{name}\", {}: the key is missing; fill it in, or name a column with a key in every row",
                        csv::row_at(path, i)
                    ),
                )
            })
        })
        .collect()
}

/// The columns `wanted` of `path`, each as levels (`true`) or numbers, every row: a new table
/// read with a run's feature columns (`bayeslab predict`).
pub fn feature_cells(path: &Path, separator: u8, wanted: &[(String, bool)]) -> Result<Vec<Cells>> {
    let names: Vec<String> = wanted.iter().map(|(n, _)| n.clone()).collect();
    let (df, _) = read_frame_with(path, separator, None, Some(&names))?;
    let present: Vec<String> = df
        .get_column_names()
        .iter()
        .map(|s| s.to_string())
        .collect();
    wanted
        .iter()
        .map(|(name, levels)| {
            let col = df
                .column(name)
                .map_err(|_| no_column(path, "the run's feature", name, &present))?;
            Ok(if *levels {
                Cells::Levels(super::cells::level_cells(path, col)?)
            } else {
                Cells::Numbers(numeric_values(path, col, 0)?)
            })
        })
        .collect()
}
