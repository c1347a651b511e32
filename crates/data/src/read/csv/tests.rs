//! Tests of the CSV details: quoted fields, header checks, the lines of data rows and the
//! translated polars errors.

use std::path::Path;

use super::lines::row_line;
use super::parse_error::parse_failure;
use super::record::split_record;
use super::*;

#[test]
fn split_record_honours_quotes() {
    assert_eq!(
        split_record(b"\"a,b\",a, b ,\"say \"\"hi\"\"\"\r\n", b','),
        ["a,b", "a", "b", "say \"hi\""]
    );
    assert_eq!(split_record(b"a;b;y\n", b';'), ["a", "b", "y"]);
}

#[test]
fn a_quoted_name_with_a_comma_is_no_duplicate() {
    let names = check_header_names(Path::new("f.csv"), b"\"a,b\",a,b,y\n", b',').unwrap();
    assert_eq!(names, ["a,b", "a", "b", "y"]);
}

#[test]
fn a_wide_header_is_checked_in_one_pass_and_names_the_duplicate() {
    // 200,000 distinct names and a repeat of the 1,000th at the end
    let mut header: String = (0..200_000).map(|i| format!("c{i},")).collect();
    header.push_str("c999\n");
    let err = check_header_names(Path::new("wide.csv"), header.as_bytes(), b',')
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("\"c999\" twice (columns 1000 and 200001)"),
        "{err}"
    );
}

#[test]
fn records_and_lines_count_newlines_inside_quotes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("q.csv");
    std::fs::write(&path, "a,n\n1,\"x\ny\"\n2,\"\"\"\n\"\"\"\n3,z\n").unwrap();
    // row 0 on lines 2-3, row 1 on lines 4-5, row 2 on line 6
    let lines: Vec<_> = (0..4).map(|r| row_line(&path, r)).collect();
    assert_eq!(lines, [Some(2), Some(4), Some(6), None]);
}

#[test]
fn the_ragged_row_named_is_the_first_with_too_many_fields() {
    // a short row (read as missing values) before the long one on line 5
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.csv");
    std::fs::write(&path, "a,b,y\n1,2,0\n3,1\n\"x,\ny\",4,1\n5,6,0,9\n").unwrap();
    let e = polars::prelude::PolarsError::ComputeError(
        "found more fields than defined in 'Schema'".into(),
    );
    let err = read_error(&path, b',', &e).to_string();
    assert!(
        err.contains("header's 3 columns: line 6 has 4 fields"),
        "{err}"
    );
}

#[test]
fn an_unclosed_quote_and_text_that_is_not_utf8_are_named_with_their_line() {
    let dir = tempfile::tempdir().unwrap();
    let e = polars::prelude::PolarsError::ComputeError("anything".into());
    let path = dir.path().join("q.csv");
    std::fs::write(&path, "a,b,y\n1,2,0\n1,\"open,0\n3,4,1\n").unwrap();
    let err = read_error(&path, b',', &e).to_string();
    assert!(err.contains("opened on line 3 is never closed"), "{err}");
    let path = dir.path().join("latin.csv");
    std::fs::write(&path, b"a,b,y\n1,2,0\n1,caf\xe9,0\n").unwrap();
    let e = polars::prelude::PolarsError::ComputeError("invalid utf-8 sequence".into());
    let err = read_error(&path, b',', &e).to_string();
    assert!(err.contains("not UTF-8 text (first on line 3)"), "{err}");
}

#[test]
fn polars_parse_failures_are_read() {
    let text = "could not parse `123456789012345678901234567` as dtype `i64` at column 'b' (column number 2)\n\nThe current offset";
    assert_eq!(
        parse_failure(text),
        Some(("123456789012345678901234567", "i64", ("b", 1)))
    );
}
