//! Reading CSV and Parquet files with polars into plain columns: the file into a frame
//! ([`frame`]), each column into values ([`column`]), the selected columns into a [`Table`].
//! With `describe.rs` (the workbench's file summary) this module is the only place in
//! bayeslab that touches polars' types.

mod cells;
mod column;
mod frame;

use std::path::Path;

use polars::prelude::*;

pub use cells::{not_a_number, Cells};
pub use column::{feature_cells, read_column, read_key, Labels};
pub(super) use frame::{read_frame, read_frame_with};

use crate::data::files::no_column;
use crate::error::{Error, Result};
use column::{labels, numeric_values};

/// The raw values of the selected columns of one file, in file order.
#[derive(Debug, Clone)]
pub struct Table {
    /// (name, cells) per feature; `None` is a missing value (null or NaN).
    pub features: Vec<(String, Cells)>,
    pub target: Labels,
    /// Columns present in the file but not used (text ones when features are defaulted).
    pub skipped: Vec<String>,
}

/// The columns of one frame of `path` (the whole file, or a chunk of it whose first row is data
/// row `first_row`, so that errors name the row in the file). Text and boolean features, and
/// those listed in `categorical`, are read as levels; a text column that is mostly numbers is
/// an error even when the features are defaulted (it would otherwise be skipped unseen).
pub(super) fn frame_table(
    path: &Path,
    df: &DataFrame,
    target: &str,
    features: Option<&[String]>,
    categorical: &[String],
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
                if c.dtype().is_primitive_numeric()
                    || c.dtype().is_bool()
                    || categorical.contains(&name)
                {
                    use_.push(name);
                } else {
                    if cells::is_text(c) {
                        let values = cells::level_cells(path, c)?;
                        cells::check_stray_text(path, &name, &values, first_row)?;
                    }
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
        let col = column(&name, "feature")?;
        let cells = if categorical.contains(&name) || col.dtype().is_bool() {
            Cells::Levels(cells::level_cells(path, col)?)
        } else if cells::is_text(col) {
            let values = cells::level_cells(path, col)?;
            cells::check_stray_text(path, &name, &values, first_row)?;
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
    })
}
