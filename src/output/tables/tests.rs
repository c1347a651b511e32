//! The report tables against hand-made records whose numbers are known.

use super::*;
use crate::output::fixture::{record, run};

fn column<'a>(t: &'a Table, header: &str) -> Vec<&'a Cell> {
    let j = t
        .headers
        .iter()
        .position(|h| h == header)
        .unwrap_or_else(|| panic!("no column {header:?} in {:?}", t.headers));
    t.rows.iter().map(|row| &row[j]).collect()
}

#[test]
fn every_run_with_a_gaussian_posterior_shows_its_khat_and_verdict() {
    let r = record(
        &["intercept", "x"],
        &["0", "1"],
        vec![
            run("map", &[0.1, 0.2], None, None),
            run("good", &[0.1, 0.2], Some(0.1), Some(0.31)),
            run("ok", &[0.1, 0.2], Some(0.1), Some(0.69)),
            run("bad", &[0.1, 0.2], Some(0.1), Some(1.327)),
        ],
    );
    let t = convergence(&r);
    let k = column(&t, "k-hat");
    let texts: Vec<&str> = k.iter().map(|c| c.text.as_str()).collect();
    assert_eq!(texts, ["–", "0.31 good", "0.69 ok", "1.33 BAD"]);
    let marks: Vec<Mark> = k.iter().map(|c| c.mark).collect();
    assert_eq!(marks, [Mark::Plain, Mark::Plain, Mark::Plain, Mark::Warn]);
    // report.md bolds the warning
    let mut md = String::new();
    markdown::table(&mut md, &t);
    assert!(md.contains("| **1.33 BAD** |"), "{md}");
    assert!(md.contains("| 0.69 ok |"), "{md}");
}

#[test]
fn point_estimates_alone_get_no_khat_column() {
    let r = record(
        &["intercept", "x"],
        &["0", "1"],
        vec![run("map", &[0.1, 0.2], None, None)],
    );
    let t = convergence(&r);
    assert!(!t.headers.iter().any(|h| h == "k-hat"));
    assert!(t.rows.iter().all(|row| row.len() == t.headers.len()));
}
