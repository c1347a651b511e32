//! What the streaming tests share: running an experiment file (in memory or streamed, as its
//! name says), the field-by-field comparison of two records to 1e-10, and a CSV as Parquet.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use bayeslab_core::record::ExperimentRecord;
use bayeslab_core::record::Scores;
use bayeslab_engine::run::{self as experiment, Silent};
use polars::prelude::*;

const TOL: f64 = 1e-10;

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

pub fn run(file: &Path) -> ExperimentRecord {
    let plan = bayeslab_engine::config::load(file).unwrap();
    assert_eq!(
        plan.data.as_ref().unwrap().streaming.is_some(),
        file.to_string_lossy().contains("streamed"),
        "{}",
        file.display()
    );
    experiment::run(&plan, &mut Silent, None).unwrap()
}

fn close(a: f64, b: f64, what: &str) {
    assert!(
        (a - b).abs() <= TOL * b.abs().max(1.0),
        "{what}: streamed {a} vs in memory {b}"
    );
}

fn close_all(a: &[f64], b: &[f64], what: &str) {
    assert_eq!(a.len(), b.len(), "{what}: lengths");
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        close(*x, *y, &format!("{what}[{i}]"));
    }
}

/// Every number of the two records, and the streamed predictions.csv against the in-memory
/// record's predictions.
pub fn assert_equal(streamed: &ExperimentRecord, memory: &ExperimentRecord) {
    assert_eq!(streamed.dataset.columns, memory.dataset.columns);
    assert_eq!(streamed.dataset.rows_train, memory.dataset.rows_train);
    assert_eq!(streamed.dataset.rows_test, memory.dataset.rows_test);
    assert_eq!(streamed.runs.len(), memory.runs.len());
    let mut columns: Vec<(String, &[f64])> = Vec::new();
    for (s, m) in streamed.runs.iter().zip(&memory.runs) {
        let id = &m.id;
        // Not the iteration count: where E is flat to rounding at the optimum, Newton's last
        // step can be accepted whole in one summation order and halved in the other; both end
        // at the same weights to rounding.
        assert_eq!((&s.id, &s.error), (id, &m.error));
        assert!(m.error.is_none(), "{id}: {:?}", m.error);
        close_all(&s.weights, &m.weights, &format!("{id} weights"));
        close(s.objective.unwrap_or(0.0), m.objective.unwrap_or(0.0), id);
        match (&s.posterior, &m.posterior) {
            (Some(a), Some(b)) => {
                close_all(&a.mean, &b.mean, &format!("{id} posterior mean"));
                close_all(&a.cov_diag, &b.cov_diag, &format!("{id} cov diag"));
                close(
                    a.log_evidence.unwrap(),
                    b.log_evidence.unwrap(),
                    &format!("{id} log evidence"),
                );
            }
            (None, None) => {}
            _ => panic!("{id}: one posterior missing"),
        }
        // k-hat from the same draws; the streamed log posteriors are summed in another order
        match (s.khat, m.khat) {
            (Some(a), Some(b)) => close(a, b, &format!("{id} k-hat")),
            (None, None) => assert!(m.posterior.is_none(), "{id}: no k-hat"),
            other => panic!("{id}: k-hat {other:?}"),
        }
        assert_eq!(s.predictives.len(), m.predictives.len());
        for (a, b) in s.predictives.iter().zip(&m.predictives) {
            let what = format!("{id}/{}", b.name);
            let (x, y) = (&a.metrics, &b.metrics);
            for (u, v, k) in [
                (x.log_loss, y.log_loss, "log_loss"),
                (x.brier, y.brier, "brier"),
                (x.accuracy, y.accuracy, "accuracy"),
                (x.ece, y.ece, "ece"),
                (x.mce, y.mce, "mce"),
                (x.auc.unwrap(), y.auc.unwrap(), "auc"),
            ] {
                close(u, v, &format!("{what} {k}"));
            }
            close_all(
                &a.ece_ci.unwrap(),
                &b.ece_ci.unwrap(),
                &format!("{what} ece_ci"),
            );
            assert_eq!(a.calibration.len(), b.calibration.len());
            for (p, q) in a.calibration.iter().zip(&b.calibration) {
                assert_eq!(p.count, q.count, "{what} bin counts");
                close(
                    p.mean_predicted.unwrap_or(0.0),
                    q.mean_predicted.unwrap_or(0.0),
                    &what,
                );
            }
            let Scores::Binary(p) = &memory.predictions.column(id, b.name.name()).unwrap().scores
            else {
                panic!("{what}: a binary column")
            };
            columns.push((what, p));
        }
    }
    let path = streamed.predictions.file.as_ref().unwrap().path();
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let names: Vec<&str> = columns.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(header[2], "data_row");
    assert_eq!(header[3..], names[..]);
    let rows: Vec<Vec<f64>> = lines
        .map(|l| l.split(',').map(|v| v.parse().unwrap()).collect())
        .collect();
    assert_eq!(rows.len(), memory.predictions.y.len());
    for (i, row) in rows.iter().enumerate() {
        assert_eq!((row[0], row[1]), (i as f64, memory.predictions.y[i]));
        // The streamed chunks name the same data rows as the rows held in memory.
        assert_eq!(row[2], memory.predictions.data_rows[i] as f64);
        for (c, (name, p)) in columns.iter().enumerate() {
            close(row[3 + c], p[i], &format!("{name} row {i}"));
        }
    }
}

pub fn write_parquet(csv: &Path, to: &Path) {
    let mut df = CsvReadOptions::default()
        .with_has_header(true)
        .try_into_reader_with_file_path(Some(csv.to_path_buf()))
        .unwrap()
        .finish()
        .unwrap();
    ParquetWriter::new(std::fs::File::create(to).unwrap())
        .with_row_group_size(Some(50))
        .finish(&mut df)
        .unwrap();
}
