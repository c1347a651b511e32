//! The predictions table: every test row's label and every run's predictions under each of its
//! predictives, the rows of predictions.csv. The CSV writer, `compare` and the gold comparison
//! read it; the run record's JSON does not carry it (it grows with the test rows).
//!
//! A streamed run writes its rows to a file chunk by chunk while it predicts, so its table holds
//! the file instead of the values. Either way the text comes from the one writer below,
//! [`csv_header`] and [`csv_rows`]: floats in Rust's shortest round-trip form, no quoting (every
//! value is a number or a validated id).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One predictive's predictions: p(y = 1) per row, or for more than two classes the probability
/// of every class per row.
#[derive(Debug, Clone, PartialEq)]
pub enum Scores {
    Binary(Vec<f64>),
    Classes(Vec<Vec<f64>>),
}

impl Scores {
    pub fn rows(&self) -> usize {
        match self {
            Scores::Binary(p) => p.len(),
            Scores::Classes(rows) => rows.len(),
        }
    }

    /// "two classes (one column)" or "K classes", for messages about mismatched columns.
    pub fn kind(&self) -> String {
        match self {
            Scores::Binary(_) => "two classes (one column)".into(),
            Scores::Classes(rows) => {
                format!("{} classes", rows.first().map_or(0, Vec::len))
            }
        }
    }
}

/// One run's predictive over the test rows: one column of predictions.csv (K columns
/// `<run>/<predictive>/p<k>` for K classes), followed by its Monte-Carlo standard error
/// `<run>/<predictive>_mcse` for a sampling method.
#[derive(Debug, Clone, PartialEq)]
pub struct PredictionColumn {
    pub run: String,
    pub predictive: String,
    pub scores: Scores,
    /// Monte-Carlo standard error of each row's p(y = 1); empty when the method has none.
    pub mcse: Vec<f64>,
}

impl PredictionColumn {
    /// `<run>/<predictive>`, the key of the column in predictions.csv and comparison.json.
    pub fn name(&self) -> String {
        format!("{}/{}", self.run, self.predictive)
    }
}

/// A file removed when the last handle to it goes, together with whatever keeps it company
/// (the scratch directory it sits in, which the output writer provides).
#[derive(Debug, Clone)]
pub struct PredictionsFile(Arc<TempFile>);

#[derive(Debug)]
struct TempFile {
    path: PathBuf,
    _keep: Option<Box<dyn std::fmt::Debug + Send + Sync>>,
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

impl PredictionsFile {
    /// Own `path`, and `keep` (dropped after the file is removed).
    pub fn new(path: PathBuf, keep: Option<Box<dyn std::fmt::Debug + Send + Sync>>) -> Self {
        PredictionsFile(Arc::new(TempFile { path, _keep: keep }))
    }

    pub fn path(&self) -> &Path {
        &self.0.path
    }
}

/// The rows of predictions.csv.
#[derive(Debug, Clone, Default)]
pub struct PredictionTable {
    /// The label of each test row: 0/1, or the class index for more than two classes.
    pub y: Vec<f64>,
    pub columns: Vec<PredictionColumn>,
    /// A streamed run's predictions.csv, already written; `y` and `columns` are then empty.
    pub file: Option<PredictionsFile>,
}

impl PredictionTable {
    pub fn column(&self, run: &str, predictive: &str) -> Option<&PredictionColumn> {
        self.columns
            .iter()
            .find(|c| c.run == run && c.predictive == predictive)
    }

    /// predictions.csv as text (for a table held in memory).
    pub fn csv(&self) -> String {
        let mut out = csv_header(&self.columns);
        csv_rows(&mut out, 0, &self.y, &self.columns);
        out
    }
}

/// `row,y,<run>/<predictive>...` and a newline: the header line for `columns`.
pub fn csv_header(columns: &[PredictionColumn]) -> String {
    let mut out = String::from("row,y");
    for c in columns {
        match &c.scores {
            Scores::Binary(_) => {
                let _ = write!(out, ",{}", c.name());
                if !c.mcse.is_empty() {
                    let _ = write!(out, ",{}_mcse", c.name());
                }
            }
            Scores::Classes(rows) => {
                for k in 0..rows.first().map_or(0, Vec::len) {
                    let _ = write!(out, ",{}/p{k}", c.name());
                }
            }
        }
    }
    out.push('\n');
    out
}

/// Append the lines of rows `first_row..` to `out`: `y` holds their labels and each column
/// their predictions (a chunk of the test rows, or all of them).
pub fn csv_rows(out: &mut String, first_row: usize, y: &[f64], columns: &[PredictionColumn]) {
    for (i, y) in y.iter().enumerate() {
        let _ = write!(out, "{},{y}", first_row + i);
        for c in columns {
            match &c.scores {
                Scores::Binary(p) => {
                    let _ = write!(out, ",{}", p[i]);
                    if let Some(e) = c.mcse.get(i) {
                        let _ = write!(out, ",{e}");
                    }
                }
                Scores::Classes(rows) => {
                    for p in &rows[i] {
                        let _ = write!(out, ",{p}");
                    }
                }
            }
        }
        out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_written_in_chunks_equal_the_whole_table() {
        let column = |p: Vec<f64>, mcse: Vec<f64>| PredictionColumn {
            run: "a".into(),
            predictive: "mc".into(),
            scores: Scores::Binary(p),
            mcse,
        };
        let whole = PredictionTable {
            y: vec![0.0, 1.0, 1.0],
            columns: vec![column(vec![0.25, 0.5, 0.75], vec![0.01, 0.02, 0.03])],
            file: None,
        };
        let mut chunked = csv_header(&whole.columns);
        csv_rows(
            &mut chunked,
            0,
            &[0.0, 1.0],
            &[column(vec![0.25, 0.5], vec![0.01, 0.02])],
        );
        csv_rows(&mut chunked, 2, &[1.0], &[column(vec![0.75], vec![0.03])]);
        assert_eq!(chunked, whole.csv());
        assert_eq!(
            whole.csv(),
            "row,y,a/mc,a/mc_mcse\n0,0,0.25,0.01\n1,1,0.5,0.02\n2,1,0.75,0.03\n"
        );
    }
}
