//! One file read and its labels parsed, before the split: the in-memory loader's raw rows.

use std::path::Path;

use super::classes::check_classes;
use super::table::Cells;
use super::{labels, table};
use crate::config::DataPlan;
use crate::error::{Error, Result};

/// The rows of one file after label parsing: features column-wise, labels, and missing flags.
pub(super) struct Loaded {
    pub(super) classes: Vec<String>,
    pub(super) features: Vec<String>,
    pub(super) cols: Vec<Cells>,
    pub(super) y: Vec<Option<f64>>,
    pub(super) skipped: Vec<String>,
}

/// Read one file; `known` are the training file's classes when this is the test file, and
/// `categorical` the columns read as levels (the training file's, for the test file).
pub(super) fn load_file(
    path: &Path,
    plan: &DataPlan,
    features: Option<&[String]>,
    categorical: &[String],
    known: Option<&[String]>,
) -> Result<Loaded> {
    let t = table::read(path, plan.separator, &plan.target, features, categorical)?;
    let (y, classes) = match known {
        Some(names) if names.len() > 2 => (
            labels::by_name(&t.target, names, &plan.target).map_err(|m| Error::data(path, m))?,
            names.to_vec(),
        ),
        _ => labels::classes(&t.target, plan.positive.as_deref(), &plan.target)
            .map_err(|m| Error::data(path, m))?,
    };
    check_classes(path, plan, &classes)?;
    let (features, cols) = t.features.into_iter().unzip();
    Ok(Loaded {
        classes,
        features,
        cols,
        y,
        skipped: t.skipped,
    })
}

impl Loaded {
    /// The columns read as levels (the test file is read with these).
    pub(super) fn categorical(&self) -> Vec<String> {
        self.features
            .iter()
            .zip(&self.cols)
            .filter(|(_, c)| matches!(c, Cells::Levels(_)))
            .map(|(n, _)| n.clone())
            .collect()
    }

    /// The class indices of `rows`.
    pub(super) fn labels_of(&self, rows: &[usize]) -> Vec<f64> {
        rows.iter()
            .map(|&i| self.y[i].unwrap_or(f64::NAN))
            .collect()
    }
}

pub(super) fn note_skipped(notes: &mut Vec<String>, path: &Path, skipped: &[String]) {
    if !skipped.is_empty() {
        notes.push(format!(
            "{}: non-numeric columns not used as features: {} (list a text column in [data] features to use it as categorical)",
            path.display(),
            skipped.join(", ")
        ));
    }
}
