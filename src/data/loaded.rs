//! One file read and its labels parsed, before the split: the in-memory loader's raw rows.

use std::path::Path;

use super::classes::check_classes;
use super::{labels, table};
use crate::config::DataPlan;
use crate::error::{Error, Result};

/// The rows of one file after label parsing: features column-wise, labels, and missing flags.
pub(super) struct Loaded {
    pub(super) classes: Vec<String>,
    pub(super) features: Vec<String>,
    pub(super) cols: Vec<Vec<Option<f64>>>,
    pub(super) y: Vec<Option<f64>>,
    pub(super) skipped: Vec<String>,
}

/// Read one file; `known` are the training file's classes when this is the test file.
pub(super) fn load_file(
    path: &Path,
    plan: &DataPlan,
    features: Option<&[String]>,
    known: Option<&[String]>,
) -> Result<Loaded> {
    let t = table::read(path, plan.separator, &plan.target, features)?;
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

pub(super) fn gather(l: &Loaded, rows: &[usize]) -> (Vec<Vec<f64>>, Vec<f64>) {
    let cols = l
        .cols
        .iter()
        .map(|c| rows.iter().map(|&i| c[i].unwrap_or(f64::NAN)).collect())
        .collect();
    let y = rows.iter().map(|&i| l.y[i].unwrap_or(f64::NAN)).collect();
    (cols, y)
}

pub(super) fn note_skipped(notes: &mut Vec<String>, path: &Path, skipped: &[String]) {
    if !skipped.is_empty() {
        notes.push(format!(
            "{}: non-numeric columns not used as features: {}",
            path.display(),
            skipped.join(", ")
        ));
    }
}
