//! The predictions table: every test row's label and every run's predictions under each of its
//! predictives, the rows of predictions.csv. The CSV writer, `compare` and the gold comparison
//! read it; the run record's JSON does not carry it (it grows with the test rows).
//!
//! A streamed run writes its rows to a file chunk by chunk while it predicts, so its table holds
//! the file instead of the values. Either way the text comes from the one writer below,
//! [`csv_header`] and [`csv_rows`]: floats in Rust's shortest round-trip form; only the
//! `[data] id` key's values are quoted, when they hold a comma, a quote or a line break.

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
    /// Each test row's 0-based position among the data rows of its file (the header not
    /// counted): `data_row` in predictions.csv, pandas' default index of the file.
    pub data_rows: Vec<usize>,
    /// `[data] id`: the key column's name and each test row's value of it.
    pub key: Option<(String, Vec<String>)>,
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
        let key = self.key.as_ref();
        let mut out = csv_header(key.map(|k| k.0.as_str()), &self.columns);
        let rows = Rows {
            first: 0,
            y: &self.y,
            data_rows: &self.data_rows,
            keys: key.map(|k| &k.1[..]),
        };
        csv_rows(&mut out, &rows, &self.columns);
        out
    }
}

/// The test rows of one chunk (or all of them): where they start in the test set, their labels,
/// their positions in the data file and their keys.
pub struct Rows<'a> {
    pub first: usize,
    pub y: &'a [f64],
    pub data_rows: &'a [usize],
    pub keys: Option<&'a [String]>,
}

/// `row,y,data_row[,<key>],<run>/<predictive>...` and a newline: the header line for
/// `columns`, with the `[data] id` column `key` when there is one.
pub fn csv_header(key: Option<&str>, columns: &[PredictionColumn]) -> String {
    let mut out = String::from("row,y,data_row");
    if let Some(k) = key {
        let _ = write!(out, ",{}", quoted(k));
    }
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

/// A CSV field, quoted (RFC 4180) when it holds a comma, a quote or a line break.
fn quoted(v: &str) -> String {
    if v.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", v.replace('"', "\"\""))
    } else {
        v.to_string()
    }
}

/// Append the lines of `rows` to `out`, each column giving their predictions (a chunk of the
/// test rows, or all of them).
pub fn csv_rows(out: &mut String, rows: &Rows<'_>, columns: &[PredictionColumn]) {
    for (i, y) in rows.y.iter().enumerate() {
        let _ = write!(out, "{},{y},{}", rows.first + i, rows.data_rows[i]);
        if let Some(k) = rows.keys {
            let _ = write!(out, ",{}", quoted(&k[i]));
        }
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
            data_rows: vec![3, 7, 11],
            key: None,
            columns: vec![column(vec![0.25, 0.5, 0.75], vec![0.01, 0.02, 0.03])],
            file: None,
        };
        let mut chunked = csv_header(None, &whole.columns);
        let part = |first: usize, y: &'static [f64], data_rows: &'static [usize]| Rows {
            first,
            y,
            data_rows,
            keys: None,
        };
        csv_rows(
            &mut chunked,
            &part(0, &[0.0, 1.0], &[3, 7]),
            &[column(vec![0.25, 0.5], vec![0.01, 0.02])],
        );
        csv_rows(
            &mut chunked,
            &part(2, &[1.0], &[11]),
            &[column(vec![0.75], vec![0.03])],
        );
        assert_eq!(chunked, whole.csv());
        assert_eq!(
            whole.csv(),
            "row,y,data_row,a/mc,a/mc_mcse\n0,0,3,0.25,0.01\n1,1,7,0.5,0.02\n2,1,11,0.75,0.03\n"
        );
    }

    #[test]
    fn a_key_column_is_written_and_quoted_when_it_must_be() {
        let table = PredictionTable {
            y: vec![1.0, 0.0],
            data_rows: vec![0, 2],
            key: Some(("id".into(), vec!["a,1".into(), "b\"2".into()])),
            columns: Vec::new(),
            file: None,
        };
        assert_eq!(
            table.csv(),
            "row,y,data_row,id\n0,1,0,\"a,1\"\n1,0,2,\"b\"\"2\"\n"
        );
    }
}
