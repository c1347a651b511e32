//! The dataset's tables and the lines that say what they are over, shared by report.md,
//! report.html and the workbench's Dataset screen so the three use one definition: every
//! number is over the rows used after missing-value handling (training rows for the feature
//! statistics), and `dropped` counts the rows of the (training) file without the value, which
//! `missing = "drop"` removed before the split (`missing` when some gaps were imputed instead).

use super::table::Table;
use bayeslab_core::record::{DatasetInfo, ExperimentRecord};

/// The features that enter the design: mean, sd, min and max over the training rows used, and
/// the rows dropped for a missing value.
pub fn features(d: &DatasetInfo) -> Table {
    let rows = d
        .summaries
        .iter()
        .map(|f| {
            vec![
                f.name.as_str().into(),
                format!("{:.4}", f.mean).into(),
                format!("{:.4}", f.sd).into(),
                f.min.to_string().into(),
                f.max.to_string().into(),
                f.missing.to_string().into(),
            ]
        })
        .collect();
    Table {
        headers: ["feature", "mean", "sd", "min", "max", missing_header(d)]
            .iter()
            .map(|h| h.to_string())
            .collect(),
        numeric: vec![false, true, true, true, true, true],
        rows,
    }
}

/// The last column counts the file's cells without a value in the feature's column: rows that
/// were all dropped, unless some were filled by imputation, when they are only "missing".
fn missing_header(d: &DatasetInfo) -> &'static str {
    if d.encoding.imputed.is_empty() {
        "dropped"
    } else {
        "missing"
    }
}

/// What [`features`] is over, with the file name given to `code` (backticks in Markdown).
pub fn features_caption(d: &DatasetInfo, code: impl Fn(&str) -> String) -> String {
    let file = d.files.first().map(|f| code(f)).unwrap_or_default();
    let missing = if d.encoding.imputed.is_empty() {
        format!("dropped: rows of {file} without the value, removed before the split")
    } else {
        format!(
            "missing: cells of {file} without a value in the feature's column, either imputed \
             (listed below) or in rows dropped before the split"
        )
    };
    format!(
        "mean, sd, min and max over the {} training rows used (after missing-value handling); \
         {missing}",
        d.rows_train
    )
}

/// The split and the rows of each class by name, over the rows used: `train 425 rows, test 107
/// rows; per class (train / test): No: 283 / 71, Yes: 142 / 36`.
pub fn split_and_classes(d: &DatasetInfo) -> String {
    let per_class: Vec<String> = d
        .classes
        .iter()
        .enumerate()
        .map(|(k, name)| {
            let count = |c: &[usize]| c.get(k).map_or("?".to_string(), |n| n.to_string());
            format!(
                "{name}: {} / {}",
                count(&d.class_counts_train),
                count(&d.class_counts_test)
            )
        })
        .collect();
    format!(
        "train {} rows, test {} rows (after missing-value handling); per class (train / test): {}",
        d.rows_train,
        d.rows_test,
        per_class.join(", ")
    )
}

pub fn data_files(r: &ExperimentRecord) -> Table {
    Table {
        headers: vec!["data file".into(), "SHA-256".into()],
        numeric: vec![false, false],
        rows: r
            .provenance
            .data_sha256
            .iter()
            .map(|(f, h)| vec![f.as_str().into(), h.as_str().into()])
            .collect(),
    }
}
