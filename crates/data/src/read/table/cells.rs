//! A feature column's cells as read: numbers, or the level names of a categorical column (text,
//! boolean, or numeric codes listed in `[data] categorical`). A text column that is mostly
//! numbers is neither: it holds a stray value to fix, and is refused naming its line.

use std::path::Path;

use polars::prelude::*;

use super::number::{read_cell, TextCell};
use super::Numbers;
use crate::read::csv;
use bayeslab_core::error::{Error, Result};

/// One feature column's values in file order.
#[derive(Debug, Clone, PartialEq)]
pub enum Cells {
    /// NaN is a missing cell ([`Numbers`]). Eight bytes a value, as the design's own column
    /// (`Option<f64>` took sixteen), and most often polars' own memory, not a copy.
    Numbers(Numbers),
    /// `None` is a missing cell.
    /// Level names: text trimmed, `false`/`true`, or a code's shortest decimal form (`1`, `2.5`).
    Levels(Vec<Option<String>>),
}

impl Cells {
    pub fn len(&self) -> usize {
        match self {
            Cells::Numbers(v) => v.len(),
            Cells::Levels(v) => v.len(),
        }
    }

    pub fn is_missing(&self, i: usize) -> bool {
        match self {
            Cells::Numbers(v) => v.get(i).is_nan(),
            Cells::Levels(v) => v[i].is_none(),
        }
    }

    pub fn missing(&self) -> usize {
        match self {
            Cells::Numbers(v) => v.missing(),
            Cells::Levels(v) => v.iter().filter(|x| x.is_none()).count(),
        }
    }

    /// The bytes the cells hold (a level's text counted at its length).
    pub fn bytes(&self) -> usize {
        match self {
            Cells::Numbers(v) => v.bytes(),
            Cells::Levels(v) => {
                let text: usize = v.iter().flatten().map(String::capacity).sum();
                std::mem::size_of::<Option<String>>() * v.capacity() + text
            }
        }
    }

    /// The cells of a released column: empty, so that its memory is returned while the
    /// columns after it are still in use.
    pub fn released() -> Self {
        Cells::Numbers(Numbers::default())
    }
}

/// A level's name for a numeric code: +0.0 and -0.0 are one level, `0`; the shortest text that
/// reads back as the number, so distinct codes have distinct names.
fn code_name(x: f64) -> String {
    (x + 0.0).to_string()
}

/// Whether every present cell of the text column `col` reads as a number or a missing value by
/// [`super::number::read_cell`] (then it is a numeric column polars read as text: one `INF`,
/// a padded number, or a chunk with every cell empty).
pub(super) fn reads_as_numbers(col: &Column) -> bool {
    col.str()
        .is_ok_and(|s| super::number::all_numbers(s.iter()))
}

/// The note for a text column `name` with a level written with spaces around it (`" b"`,
/// quoted or not): levels are read trimmed, so it joins the level written without them.
pub(super) fn padded_levels(name: &str, col: &Column) -> Option<String> {
    let s = col.str().ok()?;
    let raw = s
        .iter()
        .flatten()
        .find(|v| v.trim() != *v && !v.trim().is_empty())?;
    Some(format!(
        "column \"{name}\": levels are read without the spaces around them, so \"{raw}\" is level \"{}\" \
         (one level with any other spelling of it that differs only in those spaces)",
        raw.trim()
    ))
}

/// Whether `col` is a text column (the type a categorical column has unless it is listed).
pub(super) fn is_text(col: &Column) -> bool {
    col.dtype().is_string()
}

/// The level names of any column: text (trimmed), boolean or numeric codes. NaN is missing.
pub(super) fn level_cells(path: &Path, col: &Column) -> Result<Vec<Option<String>>> {
    let name = col.name().to_string();
    let bad = |e: PolarsError| Error::data(path, format!("categorical column \"{name}\": {e}"));
    let dtype = col.dtype();
    if dtype.is_string() {
        Ok(col
            .str()
            .map_err(bad)?
            .iter()
            .map(|s| s.map(str::trim).filter(|s| !s.is_empty()).map(String::from))
            .collect())
    } else if dtype.is_bool() {
        Ok(col
            .bool()
            .map_err(bad)?
            .iter()
            .map(|b| b.map(|b| b.to_string()))
            .collect())
    } else if dtype.is_primitive_numeric() {
        let c = col.cast(&DataType::Float64).map_err(bad)?;
        Ok(c.f64()
            .map_err(bad)?
            .iter()
            .map(|v| v.filter(|x| !x.is_nan()).map(code_name))
            .collect())
    } else {
        Err(Error::data(
            path,
            format!(
                "categorical column \"{name}\" has type {dtype}; a categorical column holds text, booleans or whole-number codes"
            ),
        ))
    }
}

/// Refuse a text column whose present values are at least half numbers: one stray value
/// (`3.2, 4.1, x, 5.0`) made polars read a numeric column as text. Names the file, the
/// column, the line and the value.
pub(super) fn check_stray_text(
    path: &Path,
    name: &str,
    cells: &[Option<String>],
    first_row: usize,
) -> Result<()> {
    let is_number = |s: &str| matches!(read_cell(s), TextCell::Number(_));
    let present = cells.iter().flatten().count();
    let numbers = cells.iter().flatten().filter(|s| is_number(s)).count();
    if numbers == 0 || 2 * numbers < present {
        return Ok(());
    }
    let Some((i, value)) = cells.iter().enumerate().find_map(|(i, c)| {
        c.as_deref()
            .filter(|s| read_cell(s) == TextCell::Text)
            .map(|s| (i, s))
    }) else {
        return Ok(());
    };
    Err(Error::data(
        path,
        format!(
            "feature column \"{name}\", {}: \"{value}\" is not a number, though {numbers} of the column's {present} values are; \
             fix the value (leave the cell empty if it is missing), or list \"{name}\" in [data] categorical if its values are levels",
            csv::row_at(path, first_row + i)
        ),
    ))
}

/// The error for a column of numbers (in an earlier chunk) whose `cells` here are text: the
/// first value that is not a number, with its line.
pub fn not_a_number(path: &Path, name: &str, cells: &[Option<String>], first_row: usize) -> Error {
    let bad = cells.iter().enumerate().find_map(|(i, c)| {
        c.as_deref()
            .filter(|s| read_cell(s) == TextCell::Text)
            .map(|s| (i, s))
    });
    match bad {
        Some((i, value)) => Error::data(
            path,
            format!(
                "feature column \"{name}\", {}: \"{value}\" is not a number; fix the value (leave the cell empty if it is missing), \
                 or list \"{name}\" in [data] categorical if its values are levels",
                csv::row_at(path, first_row + i)
            ),
        ),
        None => Error::data(
            path,
            format!("feature column \"{name}\" is numbers in the file's first rows and text from data row {first_row} on; \
                     list it in [data] categorical if its values are levels"),
        ),
    }
}
