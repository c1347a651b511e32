//! File formats both readers must handle alike: Parquet columns of types polars cannot read
//! here (tests/fixtures/odd_types.parquet, written by tests/fixtures/odd_types.py), other
//! separators, quoted header names. Each case is checked in memory and streamed.

use std::path::{Path, PathBuf};

use crate::plan::{DataPlan, DataSource, Split, Streaming};
use crate::stream_tests::assert_same;
use crate::*;

fn fixture(name: &str) -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .join("tests/fixtures")
        .join(name)
}

fn plan(path: PathBuf, features: Option<&[&str]>, separator: u8) -> DataPlan {
    let source = DataSource::Single {
        path,
        split: Split::Every {
            every: 3,
            offset: 2,
        },
    };
    DataPlan {
        features: features.map(|f| f.iter().map(|s| s.to_string()).collect()),
        seed: 1,
        streaming: Some(Streaming {
            chunk_rows: 5,
            max_memory: None,
            cache: true,
        }),
        separator,
        ..DataPlan::defaults(source, "y")
    }
}

fn same_design(a: &Design, b: &Design) {
    assert_eq!((&a.y, &a.source_rows), (&b.y, &b.source_rows));
    assert_eq!((a.x.nrows(), a.x.ncols()), (b.x.nrows(), b.x.ncols()));
    for i in 0..a.x.nrows() {
        for j in 0..a.x.ncols() {
            assert_eq!(a.x[(i, j)], b.x[(i, j)], "({i}, {j})");
        }
    }
}

/// The same data as a plain comma-separated file: x = i/2 - 2 and y = i mod 2 for i < 12, as
/// odd_types.py writes them.
fn plain_csv(dir: &Path) -> PathBuf {
    let path = dir.join("plain.csv");
    let rows: String = (0..12)
        .map(|i| format!("{},{}\n", i as f64 * 0.5 - 2.0, i % 2))
        .collect();
    std::fs::write(&path, format!("x,y\n{rows}")).unwrap();
    path
}

#[test]
fn unreadable_parquet_columns_that_are_not_selected_do_not_matter() {
    let dir = tempfile::tempdir().unwrap();
    let want = load(&plan(plain_csv(dir.path()), None, b',')).unwrap();
    for features in [Some(&["x"][..]), None] {
        let p = plan(fixture("odd_types.parquet"), features, b',');
        let got = load(&p).unwrap();
        assert_eq!(got.columns, ["intercept", "x"]);
        same_design(&got.train, &want.train);
        same_design(&got.test, &want.test);
        assert_same(&p);
    }
    // left out of the default features with their types in the note
    let got = load(&plan(fixture("odd_types.parquet"), None, b',')).unwrap();
    let note = got.notes.join("\n");
    for column in [
        "\"dec\" (the Parquet type decimal128(10, 2)",
        "\"day\" (the Parquet type date",
        "\"stamp\" (the Parquet type timestamp",
        "\"wait\" (the Parquet type duration",
        "\"half\" (the Parquet type float16",
        "\"pair\" (the Parquet type struct",
    ] {
        assert!(note.contains(column), "{column}: {note}");
    }
}

#[test]
fn a_selected_unreadable_parquet_column_is_named_with_its_type() {
    for (column, dtype) in [
        ("dec", "decimal128(10, 2)"),
        ("day", "date"),
        ("stamp", "timestamp"),
        ("wait", "duration"),
        ("half", "float16"),
        ("pair", "struct"),
    ] {
        let p = plan(fixture("odd_types.parquet"), Some(&["x", column]), b',');
        let want = format!("feature column \"{column}\" has the Parquet type {dtype}");
        let memory = load(&p).unwrap_err().to_string();
        let streamed = StreamedData::open(&p).unwrap_err().to_string();
        for err in [memory, streamed] {
            assert!(
                err.contains(&want) && err.contains("[data] features"),
                "{err}"
            );
        }
    }
}

#[test]
fn semicolon_and_tab_separated_files_read_like_commas() {
    let dir = tempfile::tempdir().unwrap();
    for (name, separator) in [("semicolon.csv", b';'), ("tab.tsv", b'\t')] {
        let text = std::fs::read_to_string(fixture(name)).unwrap();
        let comma = dir.path().join("comma.csv");
        std::fs::write(&comma, text.replace(separator as char, ",")).unwrap();
        let want = load(&plan(comma, None, b',')).unwrap();
        let p = plan(fixture(name), None, separator);
        let got = load(&p).unwrap();
        assert_eq!(got.columns, ["intercept", "a", "b"]);
        same_design(&got.train, &want.train);
        same_design(&got.test, &want.test);
        assert_same(&p);
        // without the key, both readers say which separator to set
        let shown = (separator as char).escape_default().to_string();
        let p = plan(fixture(name), None, b',');
        for err in [
            load(&p).unwrap_err().to_string(),
            StreamedData::open(&p).unwrap_err().to_string(),
        ] {
            assert!(err.contains(&format!("separator = \"{shown}\"")), "{err}");
        }
    }
}

#[test]
fn a_quoted_header_name_may_hold_a_comma() {
    // "a,b",a,b,y: three distinct feature names, the first with a comma in it
    let p = plan(fixture("quoted_header.csv"), None, b',');
    let got = load(&p).unwrap();
    assert_eq!(got.features, ["a,b", "a", "b"]);
    // "a,b" holds i/2 on row i: its training rows are those with i mod 3 != 2
    let train: Vec<f64> = (0..12)
        .filter(|i| i % 3 != 2)
        .map(|i| i as f64 * 0.5)
        .collect();
    let mean = train.iter().sum::<f64>() / train.len() as f64;
    assert_eq!(got.summaries[0].mean, mean);
    assert_same(&p);
}

#[test]
fn a_200000_column_header_with_a_repeat_is_refused_by_both_readers() {
    // finishes because the check is linear; the repeated name and both positions are named
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("wide.csv");
    let mut header: String = (0..200_000).map(|i| format!("c{i},")).collect();
    header.push_str("c12345,y\n");
    let row = "1,".repeat(200_001) + "0\n";
    std::fs::write(&path, header + &row + &row).unwrap();
    let p = plan(path, None, b',');
    for err in [
        load(&p).unwrap_err().to_string(),
        StreamedData::open(&p).unwrap_err().to_string(),
    ] {
        assert!(
            err.contains("column \"c12345\" twice (columns 12346 and 200001)"),
            "{err}"
        );
    }
}
