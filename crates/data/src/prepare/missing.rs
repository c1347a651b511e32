//! Rows with missing values (empty, NA or NaN): dropped with a note, or refused with an error
//! that counts them per column. Under `missing = "mean" | "median" | "level"` only a missing
//! target drops a row (the target is never imputed); the features' cells are filled later.

use std::path::Path;

use crate::load::loaded::Loaded;
use crate::plan::{DataPlan, Missing};
use crate::prepare;
use bayeslab_core::error::{Error, Result};

/// Rows (in file order) where the label and every feature are present (only the label when
/// `missing` fills cells); the rest are missing. With `Missing::Error` any missing value is an
/// error naming the column.
pub(crate) fn complete_rows(
    path: &Path,
    l: &Loaded,
    plan: &DataPlan,
    notes: &mut Vec<String>,
) -> Result<Vec<usize>> {
    let (missing, target, listed) = (plan.missing, &plan.target, plan.features.is_some());
    let n = l.y.len();
    let per_feature: Vec<usize> = l.cols.iter().map(|c| c.missing()).collect();
    let target_missing = l.y.iter().filter(|v| v.is_none()).count();
    prepare::check_not_all_missing(n, target, target_missing, &l.features, &per_feature, listed)
        .map_err(|m| Error::data(path, m))?;
    // Column by column (the columns are stored so), and only those with a missing cell.
    let mut ok: Vec<bool> = l.y.iter().map(Option::is_some).collect();
    if !missing.fills() {
        for (c, _) in l.cols.iter().zip(&per_feature).filter(|(_, &m)| m > 0) {
            for (i, o) in ok.iter_mut().enumerate() {
                *o &= !c.is_missing(i);
            }
        }
    }
    let bad = ok.iter().filter(|&&o| !o).count();
    if bad > 0 {
        if missing == Missing::Error {
            let first = ok.iter().position(|o| !o).unwrap_or(0);
            return Err(Error::data(
                path,
                missing_message(
                    bad,
                    target,
                    target_missing,
                    &l.features,
                    &per_feature,
                    first,
                ),
            ));
        }
        notes.push(drop_note(path, missing, bad, n));
    }
    Ok((0..n).filter(|&i| ok[i]).collect())
}

/// The error for rows with missing values under `missing = "error"`: how many, per column, and
/// the first data row.
pub(crate) fn missing_message(
    bad: usize,
    target: &str,
    target_missing: usize,
    features: &[String],
    per_feature: &[usize],
    first: usize,
) -> String {
    let mut per_col: Vec<String> = Vec::new();
    if target_missing > 0 {
        per_col.push(format!("\"{target}\" (target) {target_missing}"));
    }
    for (name, &m) in features.iter().zip(per_feature) {
        if m > 0 {
            per_col.push(format!("\"{name}\" {m}"));
        }
    }
    format!(
        "{bad} rows have missing values (empty, NA or NaN) — per column: {}; first at data row {first}. \
         Set [data] missing = \"drop\" to drop those rows",
        per_col.join(", ")
    )
}

/// The note for rows dropped: for missing values, or (when cells are filled) for a missing target.
pub(crate) fn drop_note(path: &Path, missing: Missing, bad: usize, n: usize) -> String {
    if missing.fills() {
        format!(
            "{}: dropped {bad} of {n} rows whose target is missing (the target is never imputed)",
            path.display()
        )
    } else {
        format!(
            "{}: dropped {bad} of {n} rows with missing values",
            path.display()
        )
    }
}
