//! Data: load a CSV or Parquet file (polars, in [`table`] only), parse the labels, split,
//! handle missing values, standardise and add the intercept.

mod chunks;
mod csv;
pub mod dense;
mod describe;
mod features;
mod files;
#[cfg(test)]
mod format_tests;
mod labels;
mod moments;
mod parquet_columns;
pub mod parquet_sink;
mod prepare;
mod stream;
#[cfg(test)]
mod stream_tests;
mod table;
#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};

use faer::Mat;
use serde::Serialize;

use crate::config::{DataPlan, DataSource, Missing};
use crate::error::{Error, Result};
pub use describe::{describe, ColumnDescription, ColumnStats, FileDescription};
pub use prepare::is_constant;
pub use stream::{DesignChunk, Part, PassStats, StreamedData};
pub use table::read_column;

/// Name of the intercept column in the design matrix.
pub const INTERCEPT: &str = "intercept";

/// One side of the split: the design matrix, class indices (0/1 for a binary target) and each row's 0-based data row in
/// its file.
#[derive(Debug, Clone)]
pub struct Design {
    pub x: Mat<f64>,
    pub y: Vec<f64>,
    pub source_rows: Vec<usize>,
}

impl Design {
    pub fn rows(&self) -> usize {
        self.y.len()
    }

    pub fn positives(&self) -> usize {
        self.y.iter().filter(|&&y| y == 1.0).count()
    }
}

/// Summary statistics of one raw (unstandardised) feature on the training rows.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FeatureSummary {
    pub name: String,
    pub mean: f64,
    pub sd: f64,
    pub min: f64,
    pub max: f64,
    pub missing: usize,
}

#[derive(Debug, Clone)]
pub struct Dataset {
    pub files: Vec<PathBuf>,
    pub target: String,
    /// Class names in index order (y holds the index); two for a binary target, where index 1
    /// is the positive class.
    pub classes: Vec<String>,
    /// The raw feature columns used, in order.
    pub features: Vec<String>,
    /// Design-matrix columns: the intercept first when present, then the features.
    pub columns: Vec<String>,
    pub train: Design,
    pub test: Design,
    pub summaries: Vec<FeatureSummary>,
    /// Things the user should know: dropped rows, ignored columns.
    pub notes: Vec<String>,
    /// The CSV field separator the files were read with.
    pub separator: u8,
}

/// The rows of one file after label parsing: features column-wise, labels, and missing flags.
struct Loaded {
    classes: Vec<String>,
    features: Vec<String>,
    cols: Vec<Vec<Option<f64>>>,
    y: Vec<Option<f64>>,
    skipped: Vec<String>,
}

/// Read one file; `known` are the training file's classes when this is the test file.
fn load_file(
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

/// A target needs two classes at least, and exactly two for binary methods.
fn check_classes(path: &Path, plan: &DataPlan, classes: &[String]) -> Result<()> {
    if classes.len() < 2 {
        return Err(Error::data(
            path,
            format!(
                "target column \"{}\" has a single class ({}): a classifier needs at least two; check [data] target",
                plan.target,
                classes.join(", ")
            ),
        ));
    }
    let inferred = plan.positive.is_none() && classes != ["0", "1"];
    if let (true, Some(method)) = (classes.len() == 2 && inferred, &plan.binary_method) {
        // Two arbitrary labels: which one is class 1 decides the sign of every weight and what
        // predictions.csv reports, so a binary method asks rather than guessing.
        return Err(Error::data(
            path,
            format!(
                "target column \"{}\" has the labels {}: say which is class 1 for method {method} with [data] positive = \"{}\"",
                plan.target,
                classes.join(", "),
                classes[1]
            ),
        ));
    }
    if let (true, Some(method)) = (classes.len() > 2, &plan.binary_method) {
        return Err(Error::data(
            path,
            format!(
                "target column \"{}\" has the labels {} ({} classes) but method {method} handles two: \
                 set [data] positive = \"{}\" to make that class 1 and the rest 0, or use a multiclass kind \
                 (softmax-laplace, gaussian-generative, gaussian-naive-bayes, bernoulli-naive-bayes, lda, qda)",
                plan.target,
                classes.join(", "),
                classes.len(),
                classes.last().cloned().unwrap_or_default()
            ),
        ));
    }
    Ok(())
}

/// Rows (in `keep` order) where the label and every feature are present; the rest are
/// missing. With `Missing::Error` any missing value is an error naming the column.
fn complete_rows(
    path: &Path,
    l: &Loaded,
    plan: &DataPlan,
    notes: &mut Vec<String>,
) -> Result<Vec<usize>> {
    let (missing, target, listed) = (plan.missing, &plan.target, plan.features.is_some());
    let n = l.y.len();
    let count = |c: &Vec<Option<f64>>| c.iter().filter(|v| v.is_none()).count();
    let per_feature: Vec<usize> = l.cols.iter().map(count).collect();
    let target_missing = l.y.iter().filter(|v| v.is_none()).count();
    prepare::check_not_all_missing(n, target, target_missing, &l.features, &per_feature, listed)
        .map_err(|m| Error::data(path, m))?;
    let ok: Vec<bool> = (0..n)
        .map(|i| l.y[i].is_some() && l.cols.iter().all(|c| c[i].is_some()))
        .collect();
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
        notes.push(format!(
            "{}: dropped {bad} of {n} rows with missing values",
            path.display()
        ));
    }
    Ok((0..n).filter(|&i| ok[i]).collect())
}

/// The error for rows with missing values under `missing = "error"`: how many, per column, and
/// the first data row.
fn missing_message(
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

fn gather(l: &Loaded, rows: &[usize]) -> (Vec<Vec<f64>>, Vec<f64>) {
    let cols = l
        .cols
        .iter()
        .map(|c| rows.iter().map(|&i| c[i].unwrap_or(f64::NAN)).collect())
        .collect();
    let y = rows.iter().map(|&i| l.y[i].unwrap_or(f64::NAN)).collect();
    (cols, y)
}

/// Load and prepare the data described by `plan`.
pub fn load(plan: &DataPlan) -> Result<Dataset> {
    let mut notes = Vec::new();
    let (files, train_part, test_part, features, summary_src) = match &plan.source {
        DataSource::Single { path, split } => {
            let l = load_file(path, plan, plan.features.as_deref(), None)?;
            let rows = complete_rows(path, &l, plan, &mut notes)?;
            let is_test = prepare::test_rows(l.y.len(), *split);
            let train: Vec<usize> = rows.iter().copied().filter(|&i| !is_test[i]).collect();
            let test: Vec<usize> = rows.iter().copied().filter(|&i| is_test[i]).collect();
            note_skipped(&mut notes, path, &l.skipped);
            let tr = (gather(&l, &train), train);
            let te = (gather(&l, &test), test);
            (
                vec![path.clone()],
                tr,
                te,
                l.features.clone(),
                (l, path.clone()),
            )
        }
        DataSource::TrainTest { train, test } => {
            let lt = load_file(train, plan, plan.features.as_deref(), None)?;
            let le = load_file(test, plan, Some(&lt.features), Some(&lt.classes))?;
            let rt = complete_rows(train, &lt, plan, &mut notes)?;
            let re = complete_rows(test, &le, plan, &mut notes)?;
            note_skipped(&mut notes, train, &lt.skipped);
            let tr = (gather(&lt, &rt), rt);
            let te = (gather(&le, &re), re);
            (
                vec![train.clone(), test.clone()],
                tr,
                te,
                lt.features.clone(),
                (lt, train.clone()),
            )
        }
    };
    let (((train_cols, train_y), train_rows), ((test_cols, test_y), test_rows)) =
        (train_part, test_part);
    let train_file = &summary_src.1;
    if train_y.is_empty() {
        return Err(Error::data(
            train_file,
            "no training rows are left after the split; change [data] split",
        ));
    }
    if test_y.is_empty() {
        return Err(Error::data(
            train_file,
            "no test rows are left after the split; change [data] split",
        ));
    }
    let classes = summary_src.0.classes.clone();
    let first = train_y[0];
    if train_y.iter().all(|&y| y == first) {
        return Err(Error::data(
            train_file,
            format!(
                "the training set has only class {} ({} rows of target \"{}\"): a classifier needs at least two; \
                 check [data] target, positive and split",
                classes.get(first as usize).cloned().unwrap_or_default(),
                train_y.len(),
                plan.target
            ),
        ));
    }
    let stats = prepare::column_stats(&train_cols);
    let summaries = features
        .iter()
        .zip(&train_cols)
        .zip(&stats)
        .map(|((name, col), &(mean, sd))| {
            let idx = summary_src
                .0
                .features
                .iter()
                .position(|f| f == name)
                .unwrap_or(0);
            FeatureSummary {
                name: name.clone(),
                mean,
                sd,
                min: col.iter().copied().fold(f64::INFINITY, f64::min),
                max: col.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                missing: summary_src.0.cols[idx]
                    .iter()
                    .filter(|v| v.is_none())
                    .count(),
            }
        })
        .collect();
    features::check_names(&plan.feature_map, &features, plan.intercept)
        .map_err(|m| Error::data(train_file, m))?;
    let s = plan.standardize.then_some(stats.as_slice());
    let mapped = features::apply(
        &plan.feature_map,
        prepare::design(&train_cols, s, false).as_ref(),
        prepare::design(&test_cols, s, false).as_ref(),
        &features,
        plan.seed,
    )
    .map_err(|m| Error::data(train_file, m))?;
    let mut columns: Vec<String> = Vec::new();
    if plan.intercept {
        columns.push(INTERCEPT.to_string());
    }
    columns.extend(mapped.names);
    Ok(Dataset {
        files,
        target: plan.target.clone(),
        classes,
        train: Design {
            x: prepare::with_intercept(mapped.train, plan.intercept),
            y: train_y,
            source_rows: train_rows,
        },
        test: Design {
            x: prepare::with_intercept(mapped.test, plan.intercept),
            y: test_y,
            source_rows: test_rows,
        },
        features,
        columns,
        summaries,
        notes,
        separator: plan.separator,
    })
}

fn note_skipped(notes: &mut Vec<String>, path: &Path, skipped: &[String]) {
    if !skipped.is_empty() {
        notes.push(format!(
            "{}: non-numeric columns not used as features: {}",
            path.display(),
            skipped.join(", ")
        ));
    }
}
