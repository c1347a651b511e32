//! Reading CSV and Parquet files with polars into plain columns: the file into a frame
//! ([`frame`]), each column into values ([`column`]), the selected columns into a [`Table`].
//! With `describe.rs` (the workbench's file summary) this module is the only place in
//! bayeslab that touches polars' types.

mod cells;
mod column;
pub(crate) mod frame;
pub(crate) mod number;
mod numbers;

use std::path::Path;

use polars::prelude::*;

pub use cells::{not_a_number, Cells};
pub use column::{feature_cells, read_column, read_key, Labels};
pub(crate) use frame::{read_frame, read_frame_with};
#[cfg(feature = "parquet-in-place")]
pub use numbers::missing_and_infinite;
pub use numbers::{Numbers, Placed};

use crate::read::files::no_column;
use crate::read::roles;
use bayeslab_core::error::{Error, Result};
use column::{labels, numeric_values};

/// The raw values of the selected columns of one file, in file order.
#[derive(Debug, Clone)]
pub struct Table {
    /// (name, cells) per feature; `None` is a missing value (null or NaN).
    pub features: Vec<(String, Cells)>,
    pub target: Labels,
    /// Columns present in the file but not used (text ones when features are defaulted).
    pub skipped: Vec<String>,
    /// What reading the columns noticed, for the run's notes (levels written with spaces).
    pub notes: Vec<String>,
}

/// The columns of one frame of `path` (the whole file, or a chunk of it whose first row is data
/// row `first_row`, so that errors name the row in the file). Text and boolean features, and
/// those listed in `categorical`, are read as levels; a text column that is mostly numbers is
/// an error even when the features are defaulted (it would otherwise be skipped unseen).
/// A number column keeps polars' own memory where it can ([`Numbers`]).
pub(crate) fn frame_table(
    path: &Path,
    df: &DataFrame,
    target: &str,
    features: Option<&[String]>,
    categorical: &[String],
    sequences: &[String],
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
        None => default_features(path, df, target, categorical, sequences, first_row)?,
    };
    let mut out = Vec::with_capacity(feature_names.len());
    let mut notes = Vec::new();
    for name in feature_names {
        let col = column(&name, "feature")?;
        let levels = categorical.contains(&name) || col.dtype().is_bool();
        let cells = if levels || (cells::is_text(col) && !cells::reads_as_numbers(col)) {
            let values = cells::level_cells(path, col)?;
            if !levels {
                cells::check_stray_text(path, &name, &values, first_row)?;
            }
            notes.extend(cells::padded_levels(&name, col));
            Cells::Levels(values)
        } else {
            Cells::Numbers(numeric_values(path, col, first_row)?)
        };
        out.push((name, cells));
    }
    Ok(Table {
        features: out,
        target: labels(path, target_col)?,
        skipped,
        notes,
    })
}

/// Whether a column of this type is numbers (or booleans) to the default features: such a
/// column is a feature unless its name or its first rows leave it out ([`roles::left_out`]).
pub(crate) fn number_type(dtype: &DataType) -> bool {
    dtype.is_primitive_numeric() || dtype.is_bool()
}

/// The features when `[data] features` is not set: every numeric and boolean column (a text
/// column whose cells all read as numbers is numeric) and those listed in `categorical`, but
/// not the target nor a column [`roles::left_out`] names (an index, an identifier, a date;
/// `sequences` are the row-number columns of the file's first rows, [`roles::sequences`]).
/// The columns not taken come back as notes' entries, each with its reason.
fn default_features(
    path: &Path,
    df: &DataFrame,
    target: &str,
    categorical: &[String],
    sequences: &[String],
    first_row: usize,
) -> Result<(Vec<String>, Vec<String>)> {
    let mut use_ = Vec::new();
    let mut skip = Vec::new();
    for c in df.columns() {
        let name = c.name().to_string();
        if name == target {
            continue;
        }
        let numbers = number_type(c.dtype());
        if categorical.contains(&name) {
            use_.push(name);
        } else if numbers || (cells::is_text(c) && cells::reads_as_numbers(c)) {
            match roles::left_out(c, sequences) {
                Some(role) => skip.push(roles::left_out_entry(&name, &role)),
                None => use_.push(name),
            }
        } else if !cells::is_text(c) {
            skip.push(format!("\"{name}\" (type {}: not numbers)", c.dtype()));
        } else {
            let values = cells::level_cells(path, c)?;
            cells::check_stray_text(path, &name, &values, first_row)?;
            skip.push(
                match roles::all_dates(values.iter().map(Option::as_deref)) {
                    true => roles::left_out_entry(&name, &roles::Role::Date),
                    false => format!(
                        "\"{name}\" (text: listed in [data] features, it is read as categorical)"
                    ),
                },
            );
        }
    }
    if use_.is_empty() {
        return Err(Error::data(
            path,
            format!(
                "no numeric feature columns besides the target \"{target}\"{}; list them in [data] features",
                match skip.is_empty() {
                    true => String::new(),
                    false => format!(" (not taken: {})", skip.join(", ")),
                }
            ),
        ));
    }
    Ok((use_, skip))
}
