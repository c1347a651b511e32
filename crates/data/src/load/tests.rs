//! The loader's design against the pipeline it replaced (issue 19): every encoded column at
//! once, the standardised matrix, the mapped one and its intercept copy, built here from the
//! same pieces (`Encoder::encode`, `prepare::design`, `features::apply`,
//! `prepare::with_intercept`). Equal bit for bit, CSV and Parquet.

use std::path::{Path, PathBuf};

use faer::Mat;
use polars::prelude::*;

use super::*;
use crate::plan::{EncodingPlan, Split, Unseen};
use crate::read::table::{read_frame, Cells};

fn fixture() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("tests/fixtures/categorical.csv")
}

fn plan(path: &Path, missing: Missing, map: FeatureMap, standardise_indicators: bool) -> DataPlan {
    let names = ["grp", "code", "rare", "colour", "num"];
    DataPlan {
        source: DataSource::Single {
            path: path.to_path_buf(),
            split: Split::Every {
                every: 5,
                offset: 4,
            },
        },
        target: "y".into(),
        features: Some(names.iter().map(|s| s.to_string()).collect()),
        id: None,
        positive: None,
        standardize: true,
        intercept: true,
        missing,
        encoding: EncodingPlan {
            categorical: vec!["code".into()],
            unseen: Unseen::Zero,
            missing_indicator: true,
            standardise_indicators,
            ..Default::default()
        },
        feature_map: map,
        seed: 3,
        binary_method: None,
        streaming: None,
        separator: b',',
    }
}

/// The designs as `load` made them before issue 19.
fn before(plan: &DataPlan) -> (Mat<f64>, Mat<f64>, Vec<(f64, f64)>) {
    let DataSource::Single { path, split } = &plan.source else {
        unreachable!("a single file")
    };
    let categorical = &plan.encoding.categorical;
    let l = load_file(
        path,
        plan,
        plan.features.as_deref(),
        categorical,
        None,
        None,
        &mut |_, _, _| {},
    )
    .unwrap();
    let rows = complete_rows(path, &l, plan, &mut Vec::new()).unwrap();
    let is_test = prepare::test_rows(l.y.len(), *split);
    let train: Vec<usize> = rows.iter().copied().filter(|&i| !is_test[i]).collect();
    let test: Vec<usize> = rows.iter().copied().filter(|&i| is_test[i]).collect();
    let encoder = learn_encoding(plan, path, &l, None, &train, &test).unwrap();
    let cells: Vec<&Cells> = l.cols.iter().collect();
    let (train_cols, test_cols) = (
        encoder.encode(&cells, &train),
        encoder.encode(&cells, &test),
    );
    let stats = prepare::column_stats(&train_cols);
    let scaling = encoder.standardisation(&stats, plan.encoding.standardise_indicators);
    let mapped = features::apply(
        &plan.feature_map,
        prepare::design(&train_cols, Some(&scaling), false).as_ref(),
        prepare::design(&test_cols, Some(&scaling), false).as_ref(),
        &encoder.names,
        plan.seed,
    )
    .unwrap();
    let x = |m| prepare::with_intercept(m, plan.intercept);
    (x(mapped.train), x(mapped.test), stats)
}

fn bits(x: &Mat<f64>) -> Vec<Vec<u64>> {
    (0..x.ncols())
        .map(|j| x.col_as_slice(j).iter().map(|v| v.to_bits()).collect())
        .collect()
}

fn parquet_copy(csv: &Path, to: &Path) {
    let mut df = read_frame(csv).unwrap();
    ParquetWriter::new(std::fs::File::create(to).unwrap())
        .with_row_group_size(Some(16))
        .finish(&mut df)
        .unwrap();
}

#[test]
fn the_design_is_the_one_the_replaced_pipeline_made_bit_for_bit() {
    let dir = tempfile::tempdir().unwrap();
    let parquet = dir.path().join("categorical.parquet");
    parquet_copy(&fixture(), &parquet);
    let maps = [
        FeatureMap::Identity,
        FeatureMap::Poly { degree: 2 },
        FeatureMap::Rbf {
            centres: crate::plan::Centres::Sample { k: 5 },
            width: 1.5,
        },
    ];
    for file in [fixture(), parquet] {
        for missing in [Missing::Mean, Missing::Median, Missing::Drop] {
            for map in &maps {
                for si in [false, true] {
                    let p = plan(&file, missing, map.clone(), si);
                    let what = format!("{}, {missing:?}, {map:?}, indicators {si}", file.display());
                    let d = load(&p).unwrap();
                    let (train, test, stats) = before(&p);
                    assert_eq!(bits(&d.train.x), bits(&train), "train, {what}");
                    assert_eq!(bits(&d.test.x), bits(&test), "test, {what}");
                    let got: Vec<(f64, f64)> = d.summaries.iter().map(|s| (s.mean, s.sd)).collect();
                    assert_eq!(got, stats, "{what}");
                    assert!(d.summaries.len() > 5, "{what}: a column per level");
                }
            }
        }
    }
}

/// Every column's bits (NaN, a missing cell, included) and the labels.
fn table_bits(t: &crate::read::table::Table) -> (Vec<Vec<u64>>, String) {
    let cols = t
        .features
        .iter()
        .map(|(_, c)| match c {
            Cells::Numbers(v) => v.iter().map(|x| x.to_bits()).collect(),
            Cells::Levels(v) => v
                .iter()
                .map(|s| s.as_ref().map_or(0, |s| s.len() as u64 + 1))
                .collect(),
        })
        .collect();
    let levels = format!("{:?} {:?}", t.features, t.target);
    (cols, levels)
}

/// Where the in-memory read's chunks of `path` (of `rows` rows) end: every `chunk_rows` rows
/// of a CSV; within each row group of a Parquet file, slices of `chunk_rows` rows until the
/// rest of the group is at most twice that, then the rest.
fn slice_ends(path: &Path, rows: usize, chunk_rows: usize) -> Vec<usize> {
    if !crate::read::files::is_parquet(path) {
        return (1..=rows.div_ceil(chunk_rows))
            .map(|k| (k * chunk_rows).min(rows))
            .collect();
    }
    let file = std::fs::File::open(path).unwrap();
    let mut reader = polars::prelude::ParquetReader::new(file);
    let groups: Vec<usize> = reader
        .get_metadata()
        .unwrap()
        .row_groups
        .iter()
        .map(|g| g.num_rows())
        .collect();
    let (mut ends, mut start) = (Vec::new(), 0);
    for n in groups {
        let (end, mut at) = (start + n, start);
        while at < end {
            at += if end - at <= 2 * chunk_rows {
                end - at
            } else {
                chunk_rows
            };
            ends.push(at);
        }
        start = end;
    }
    ends
}

#[test]
fn chunks_decoded_in_parallel_gather_the_columns_of_a_sequential_read() {
    // 60 rows in chunks of 7: nine chunks, decoded two at a time on two threads and one at a
    // time on one; and the file as one chunk.
    let dir = tempfile::tempdir().unwrap();
    let parquet = dir.path().join("categorical.parquet");
    parquet_copy(&fixture(), &parquet);
    for file in [fixture(), parquet] {
        let p = plan(&file, Missing::Mean, FeatureMap::Identity, false);
        let read = |threads: usize, chunk_rows: usize| {
            bayeslab_core::threads::on_threads(threads, || {
                let mut told = Vec::new();
                let t = crate::load::loaded::read_whole(
                    &file,
                    &p,
                    p.features.as_deref(),
                    &p.encoding.categorical,
                    chunk_rows,
                    None,
                    &mut |_, rows, _| told.push(rows),
                )
                .unwrap()
                .0;
                // the probe hears every chunk, in order, ending at the file's rows: a CSV's
                // chunks of chunk_rows rows, a Parquet file's slices within its row groups
                assert_eq!(told, slice_ends(&file, t.target.rows(), chunk_rows));
                table_bits(&t)
            })
        };
        let whole = read(1, 1000);
        assert_eq!(whole.0[4].len(), 60, "{}", file.display());
        for (threads, chunk_rows) in [(1, 7), (2, 7), (2, 13), (2, 1000)] {
            assert_eq!(
                read(threads, chunk_rows),
                whole,
                "{threads} threads, {chunk_rows} rows"
            );
        }
        let design =
            |threads: usize| bayeslab_core::threads::on_threads(threads, || load(&p).unwrap());
        let (one, two) = (design(1), design(2));
        assert_eq!(bits(&one.train.x), bits(&two.train.x));
        assert_eq!(bits(&one.test.x), bits(&two.test.x));
    }
}

/// A CSV's later chunks are parsed with the types its first chunk fixed (chunks::Typed): they
/// must read what a parse inferring every cell reads. Each file's first chunk (two rows) is
/// plain numbers; its later rows hold what might read otherwise. Read in chunks of 2 rows (the
/// types fixed) and as one chunk (inferred), the tables must be equal; where the later rows
/// are refused, both reads refuse them. A test file is parsed with the training file's types
/// from its first chunk on: the same rows alone, read so, must equal them inferred too.
#[test]
fn chunks_read_with_fixed_types_equal_chunks_whose_types_are_inferred() {
    use polars::prelude::DataType;
    let dir = tempfile::tempdir().unwrap();
    let head = "a,b,y\n1.5,2,0\n-0.5,3,1\n";
    let same = [
        (
            "integers after floats, floats after integers",
            "4,5.25,1\n7,8,0\n",
        ),
        ("spaces around numbers", " 2.5,9,1\n3.5 , 1,0\n"),
        ("missing spellings", "N/A,,1\nnan,NA,0\nNaN,NULL,1\n"),
        ("a column of missing cells", "NA,1,1\n,2,0\n"),
        ("a quoted number", "\"2.5\",4,1\n"),
        ("an integer beyond i64", "12345678901234567890,1,0\n"),
        ("exponents and signs", "+1e3,-2E-2,1\n"),
    ];
    let refused = [
        ("a word in a number column", "2,abc,1\n", "abc"),
        ("an infinite value", "1e999,1,0\n", "infinite"),
    ];
    let read = |text: &str, chunk_rows: usize, fixed: Option<DataType>| {
        let file = dir.path().join("typed.csv");
        std::fs::write(&file, text).unwrap();
        let mut p = plan(&file, Missing::Mean, FeatureMap::Identity, false);
        p.features = Some(vec!["a".into(), "b".into()]);
        p.encoding.categorical.clear();
        let t = crate::load::loaded::read_whole(
            &file,
            &p,
            p.features.as_deref(),
            &[],
            chunk_rows,
            fixed.as_ref(),
            &mut |_, _, _| {},
        );
        t.map(|(t, _, _)| table_bits(&t)).map_err(|e| e.to_string())
    };
    let labels = [
        DataType::Int64,
        DataType::Float64,
        DataType::Boolean,
        DataType::String,
    ];
    for (what, rows) in same {
        let text = format!("{head}{rows}");
        let inferred = read(&text, 1000, None);
        assert_eq!(
            read(&text, 2, None).unwrap(),
            inferred.clone().unwrap(),
            "{what}"
        );
        let alone = format!("a,b,y\n{rows}");
        for t in &labels {
            let fixed = read(&alone, 1000, Some(t.clone()));
            if what == "an integer beyond i64" && t.is_primitive_numeric() {
                // Alone, inference makes the column i64 and refuses the value; with the
                // training file's (numeric labels) it is the float the training file reads.
                let big = 12_345_678_901_234_567_890_f64.to_bits();
                assert_eq!(fixed.unwrap().0[0], vec![big], "{t}");
                continue;
            }
            assert_eq!(fixed, read(&alone, 1000, None), "{what}, {t}");
        }
    }
    for (what, rows, says) in refused {
        let text = format!("{head}{rows}");
        for chunk_rows in [2, 1000] {
            let e = read(&text, chunk_rows, None).unwrap_err();
            assert!(e.contains(says), "{what}, {chunk_rows} rows: {e}");
        }
        let alone = format!("a,b,y\n{rows}");
        let fixed = read(&alone, 1000, Some(DataType::Int64));
        assert_eq!(fixed, read(&alone, 1000, None), "{what}, alone");
    }
    // Text labels: a later chunk of words keeps them; a later chunk of numbers alone is a
    // change of kind, refused as before the types were fixed.
    let words = "a,b,y\n1,2,yes\n3,4,no\n5,6,no\n7,8,yes\n";
    assert_eq!(
        read(words, 2, None).unwrap(),
        read(words, 1000, None).unwrap()
    );
    let numbers = "a,b,y\n1,2,yes\n3,4,no\n5,6,1\n7,8,0\n";
    let e = read(numbers, 2, None).unwrap_err();
    assert!(e.contains("one kind of value"), "{e}");
    // A test file whose labels are of another kind than the training file's reads as alone.
    for (file, t) in [
        ("a,b,y\n5,6,1\n7,8,0\n", DataType::String),
        ("a,b,y\n5,6,yes\n7,8,no\n", DataType::Int64),
        ("a,b,y\n5,6,true\n7,8,false\n", DataType::String),
    ] {
        assert_eq!(
            read(file, 1000, Some(t.clone())),
            read(file, 1000, None),
            "{file}, {t}"
        );
    }
}
