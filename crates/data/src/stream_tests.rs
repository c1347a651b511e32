//! The streamed data against the in-memory loader: the same design rows, labels, statistics and
//! messages, whatever the chunk size.

use std::path::{Path, PathBuf};

use polars::prelude::*;

use crate::plan::{Centres, DataPlan, DataSource, FeatureMap, Missing, Split, Streaming};
use crate::read::chunks::ChunkReader;
use crate::*;

fn pima() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("datasets/pima.csv")
}

fn plan(source: DataSource, chunk_rows: usize) -> DataPlan {
    DataPlan {
        seed: 3,
        streaming: Some(Streaming {
            chunk_rows,
            max_memory: None,
            cache: true,
        }),
        ..DataPlan::defaults(source, "y")
    }
}

fn streamed(data: &StreamedData, part: Part) -> (Vec<Vec<f64>>, Vec<f64>, Vec<usize>, usize) {
    let (mut rows, mut y, mut src, mut chunks) = (Vec::new(), Vec::new(), Vec::new(), 0);
    data.pass(part, &mut |c| {
        chunks += 1;
        for i in 0..c.x.nrows() {
            rows.push((0..c.x.ncols()).map(|j| c.x[(i, j)]).collect());
        }
        y.extend_from_slice(c.y);
        src.extend_from_slice(c.source_rows);
        Ok(())
    })
    .unwrap();
    (rows, y, src, chunks)
}

pub(super) fn assert_same(plan: &DataPlan) {
    let memory = load(plan).unwrap();
    let data = StreamedData::open(plan).unwrap();
    assert_eq!(data.columns, memory.columns);
    assert_eq!(data.classes, memory.classes);
    assert_eq!(data.notes, memory.notes);
    assert_eq!(
        (
            data.rows_train,
            data.rows_test,
            data.positives_train,
            data.positives_test
        ),
        (
            memory.train.rows(),
            memory.test.rows(),
            memory.train.positives(),
            memory.test.positives()
        )
    );
    for (a, b) in data.summaries.iter().zip(&memory.summaries) {
        assert_eq!(
            (&a.name, a.mean, a.min, a.max, a.missing),
            (&b.name, b.mean, b.min, b.max, b.missing)
        );
        assert!((a.sd - b.sd).abs() <= 1e-14 * b.sd, "{} {}", a.sd, b.sd);
    }
    for (part, design) in [(Part::Train, &memory.train), (Part::Test, &memory.test)] {
        let (rows, y, src, _) = streamed(&data, part);
        assert_eq!(y, design.y);
        assert_eq!(src, design.source_rows);
        assert_eq!(rows.len(), design.x.nrows());
        for (i, row) in rows.iter().enumerate() {
            for (j, v) in row.iter().enumerate() {
                let want = design.x[(i, j)];
                assert!(
                    (v - want).abs() <= 1e-13 * want.abs().max(1.0),
                    "({i},{j}) {v} {want}"
                );
            }
        }
    }
}

fn write_parquet(csv: &Path, to: &Path) {
    let mut df = crate::read::table::read_frame(csv).unwrap();
    ParquetWriter::new(std::fs::File::create(to).unwrap())
        .with_row_group_size(Some(100))
        .finish(&mut df)
        .unwrap();
}

#[test]
fn streamed_design_rows_equal_the_loaded_ones_for_csv_and_parquet() {
    let dir = tempfile::tempdir().unwrap();
    let pq = dir.path().join("pima.parquet");
    write_parquet(&pima(), &pq);
    let every = Split::Every {
        every: 5,
        offset: 4,
    };
    let hash = Split::Hash {
        test_fraction: 0.3,
        seed: 9,
    };
    for path in [pima(), pq] {
        for (split, chunk) in [(every, 37), (hash, 1), (hash, 1000)] {
            assert_same(&plan(
                DataSource::Single {
                    path: path.clone(),
                    split,
                },
                chunk,
            ));
        }
    }
    let mut p = plan(
        DataSource::Single {
            path: pima(),
            split: every,
        },
        50,
    );
    p.standardize = false;
    p.intercept = false;
    assert_same(&p);
}

#[test]
fn feature_maps_and_separate_files_stream_as_in_memory() {
    let every = Split::Every {
        every: 4,
        offset: 1,
    };
    for map in [
        FeatureMap::Poly { degree: 2 },
        FeatureMap::Rbf {
            centres: Centres::Sample { k: 7 },
            width: 1.5,
        },
        FeatureMap::Rbf {
            centres: Centres::Grid { points: 2 },
            width: 2.0,
        },
    ] {
        let mut p = plan(
            DataSource::Single {
                path: pima(),
                split: every,
            },
            41,
        );
        p.feature_map = map;
        assert_same(&p);
    }
    let dir = tempfile::tempdir().unwrap();
    let df = crate::read::table::read_frame(&pima()).unwrap();
    let (train, test) = (dir.path().join("train.csv"), dir.path().join("test.csv"));
    for (path, offset, len) in [(&train, 0, 200), (&test, 200, 332)] {
        let mut part = df.slice(offset, len);
        CsvWriter::new(std::fs::File::create(path).unwrap())
            .finish(&mut part)
            .unwrap();
    }
    assert_same(&plan(DataSource::TrainTest { train, test }, 33));
}

#[test]
fn missing_values_are_dropped_or_reported_as_in_memory() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.csv");
    let mut text = String::from("a,b,y\n");
    for i in 0..40 {
        let a = if i % 7 == 3 {
            "NA".to_string()
        } else {
            format!("{}", i as f64 * 0.5)
        };
        let b = if i % 11 == 5 {
            String::new()
        } else {
            format!("{}", (i * i) % 13)
        };
        text.push_str(&format!("{a},{b},{}\n", i % 3 % 2));
    }
    std::fs::write(&path, text).unwrap();
    let mut p = plan(
        DataSource::Single {
            path,
            split: Split::Every {
                every: 3,
                offset: 0,
            },
        },
        6,
    );
    let memory = load(&p).unwrap_err().to_string();
    let streamed = StreamedData::open(&p).unwrap_err().to_string();
    assert_eq!(streamed, memory);
    p.missing = Missing::Drop;
    assert_same(&p);
}

#[test]
fn csv_chunks_end_at_record_ends() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("odd.csv");
    std::fs::write(
        &path,
        "x,label,y\r\n1,\"a\nb\",0\r\n\r\n2,\"say \"\"hi\"\"\",1\n3,c,0\n\n4,\"d,e\",1",
    )
    .unwrap();
    let whole = crate::read::table::read_frame(&path).unwrap();
    for chunk_rows in [1, 2, 3, 10] {
        let mut reader = ChunkReader::open(&path, chunk_rows, b',', None, None).unwrap();
        let mut parts: Vec<DataFrame> = Vec::new();
        let mut next = 0;
        while let Some(piece) = reader.next_piece().unwrap() {
            let df = piece.decode().unwrap();
            if df.height() == 0 {
                break;
            }
            next += df.height();
            parts.push(df);
        }
        assert_eq!(next, whole.height(), "chunk_rows = {chunk_rows}");
        for name in ["x", "label", "y"] {
            let got: Vec<String> = parts
                .iter()
                .flat_map(|p| {
                    let c = p.column(name).unwrap().cast(&DataType::String).unwrap();
                    c.str()
                        .unwrap()
                        .iter()
                        .map(|v| v.unwrap_or("").to_string())
                        .collect::<Vec<_>>()
                })
                .collect();
            let want: Vec<String> = whole
                .column(name)
                .unwrap()
                .cast(&DataType::String)
                .unwrap()
                .str()
                .unwrap()
                .iter()
                .map(|v| v.unwrap_or("").to_string())
                .collect();
            assert_eq!(got, want, "{name}, chunk_rows = {chunk_rows}");
        }
    }
}

#[test]
fn categorical_columns_and_imputation_stream_as_in_memory() {
    // tests/fixtures/categorical.csv: text columns (one with gaps, one with a level only in a
    // test row), integer codes read as levels, a numeric column with gaps.
    use crate::plan::{EncodingPlan, Unseen};
    let file = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .join("tests/fixtures/categorical.csv");
    let names = |n: &[&str]| Some(n.iter().map(|s| s.to_string()).collect());
    for (missing, features) in [
        (
            Missing::Mean,
            names(&["grp", "code", "rare", "colour", "num"]),
        ),
        (Missing::Level, names(&["colour", "code", "rare"])),
    ] {
        for chunk_rows in [7, 60] {
            let mut p = plan(
                DataSource::Single {
                    path: file.clone(),
                    split: Split::Every {
                        every: 5,
                        offset: 4,
                    },
                },
                chunk_rows,
            );
            p.features = features.clone();
            p.missing = missing;
            p.encoding = EncodingPlan {
                categorical: vec!["code".into()],
                unseen: Unseen::Zero,
                missing_indicator: missing == Missing::Mean,
                ..Default::default()
            };
            assert_same(&p);
            let (memory, data) = (load(&p).unwrap(), StreamedData::open(&p).unwrap());
            assert_eq!(data.encoding, memory.encoding);
            assert!(memory
                .notes
                .iter()
                .any(|n| n.contains("\"z\"") || n.contains("z appear")));
        }
    }
}

#[test]
fn streamed_passes_decoded_in_parallel_equal_one_thread_bit_for_bit() {
    // Pima in 37-row chunks (15 of them), two decoded at once on two threads.
    let dir = tempfile::tempdir().unwrap();
    let pq = dir.path().join("pima.parquet");
    write_parquet(&pima(), &pq);
    let split = Split::Every {
        every: 5,
        offset: 4,
    };
    for path in [pima(), pq] {
        let p = plan(DataSource::Single { path, split }, 37);
        let run = |threads: usize| {
            bayeslab_core::threads::on_threads(threads, || {
                let data = StreamedData::open(&p).unwrap();
                let (x, y, src, chunks) = streamed(&data, Part::Train);
                let bits: Vec<Vec<u64>> = x
                    .iter()
                    .map(|r| r.iter().map(|v| v.to_bits()).collect())
                    .collect();
                (bits, y, src, chunks, data.ahead)
            })
        };
        let (one, two) = (run(1), run(2));
        assert_eq!((one.4, two.4), (1, 2), "chunks decoded at once");
        assert!(one.3 >= 10, "{} chunks: several batches of two", one.3);
        assert_eq!(one.0, two.0);
        assert_eq!((one.1, one.2), (two.1, two.2));
    }
}

#[test]
fn a_training_set_of_one_class_is_refused_as_in_memory() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("one.csv");
    let mut text = String::from("a,y\n");
    // Every odd row is a test row and the only rows of class 1.
    for i in 0..30 {
        text.push_str(&format!("{},{}\n", i as f64 * 0.25, i % 2));
    }
    std::fs::write(&path, text).unwrap();
    let split = Split::Every {
        every: 2,
        offset: 1,
    };
    let p = plan(DataSource::Single { path, split }, 4);
    let memory = load(&p).unwrap_err().to_string();
    let streamed = StreamedData::open(&p).unwrap_err().to_string();
    assert_eq!(streamed, memory);
    assert!(
        memory.contains("the training set has only class 0 (15 rows of target \"y\")"),
        "{memory}"
    );
}
