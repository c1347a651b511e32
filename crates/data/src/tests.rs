//! Loader tests that need to write files: Parquet against CSV, separate train/test files.

use std::path::Path;

use polars::prelude::*;

use crate::plan::{DataPlan, DataSource, Split};
use crate::*;

fn pima() -> std::path::PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("datasets/pima.csv")
}

fn plan(source: DataSource) -> DataPlan {
    DataPlan::defaults(source, "y")
}

fn read_csv(path: &Path) -> DataFrame {
    CsvReadOptions::default()
        .with_has_header(true)
        .try_into_reader_with_file_path(Some(path.to_path_buf()))
        .unwrap()
        .finish()
        .unwrap()
}

fn same(a: &Design, b: &Design) {
    assert_eq!(a.y, b.y);
    assert_eq!((a.x.nrows(), a.x.ncols()), (b.x.nrows(), b.x.ncols()));
    for i in 0..a.x.nrows() {
        for j in 0..a.x.ncols() {
            assert_eq!(a.x[(i, j)], b.x[(i, j)]);
        }
    }
}

#[test]
fn parquet_loads_the_same_numbers_as_csv() {
    let dir = tempfile::tempdir().unwrap();
    let pq = dir.path().join("pima.parquet");
    let mut df = read_csv(&pima());
    ParquetWriter::new(std::fs::File::create(&pq).unwrap())
        .finish(&mut df)
        .unwrap();
    let split = Split::Every {
        every: 5,
        offset: 4,
    };
    let from_csv = load(&plan(DataSource::Single {
        path: pima(),
        split,
    }))
    .unwrap();
    let from_pq = load(&plan(DataSource::Single { path: pq, split })).unwrap();
    same(&from_csv.train, &from_pq.train);
    same(&from_csv.test, &from_pq.test);
    assert_eq!(from_csv.columns, from_pq.columns);
}

#[test]
fn separate_train_and_test_files_use_training_statistics() {
    let dir = tempfile::tempdir().unwrap();
    let df = read_csv(&pima());
    let (train_path, test_path) = (dir.path().join("train.csv"), dir.path().join("test.csv"));
    for (path, offset, len) in [(&train_path, 0, 200), (&test_path, 200, 332)] {
        let mut part = df.slice(offset, len);
        CsvWriter::new(std::fs::File::create(path).unwrap())
            .finish(&mut part)
            .unwrap();
    }
    let d = load(&plan(DataSource::TrainTest {
        train: train_path,
        test: test_path,
    }))
    .unwrap();
    assert_eq!((d.train.rows(), d.test.rows()), (200, 332));
    // standardised with the training rows' statistics: training columns have mean 0, sd 1;
    // the test columns generally do not.
    for j in 1..d.train.x.ncols() {
        let col: Vec<f64> = (0..200).map(|i| d.train.x[(i, j)]).collect();
        let mean = col.iter().sum::<f64>() / 200.0;
        let var = col.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / 200.0;
        assert!(mean.abs() < 1e-12 && (var - 1.0).abs() < 1e-12);
    }
    // the raw value of glu in the first test row is the file's row 200
    let glu = d.summaries.iter().find(|s| s.name == "glu").unwrap();
    let raw = df
        .column("glu")
        .unwrap()
        .cast(&DataType::Float64)
        .unwrap()
        .f64()
        .unwrap()
        .get(200)
        .unwrap();
    assert!((d.test.x[(0, 2)] * glu.sd + glu.mean - raw).abs() < 1e-9);
    assert_eq!(d.test.source_rows[0], 0);
}

#[test]
fn parquet_with_a_nested_column_names_it() {
    let dir = tempfile::tempdir().unwrap();
    let pq = dir.path().join("nested.parquet");
    let inner = Series::new("v".into(), &[1.0f64, 2.0]);
    let list = Series::new("nested".into(), &[inner.clone(), inner]);
    let mut df = DataFrame::new_infer_height(vec![
        list.into(),
        Series::new("y".into(), &[0i64, 1]).into(),
    ])
    .unwrap();
    ParquetWriter::new(std::fs::File::create(&pq).unwrap())
        .finish(&mut df)
        .unwrap();
    let mut p = plan(DataSource::Single {
        path: pq,
        split: Split::Every {
            every: 2,
            offset: 1,
        },
    });
    p.features = Some(vec!["nested".into()]);
    let err = load(&p).unwrap_err().to_string();
    assert!(
        err.contains("\"nested\"") && err.contains("nested type"),
        "{err}"
    );
}
