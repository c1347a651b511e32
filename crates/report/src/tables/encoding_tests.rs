//! The encodings' tables, the check listing and both reports' dataset section against the
//! fixture's penguins-like encodings (crates/report/src/fixture.rs), whose counts are known.

use super::*;
use crate::fixture::{encoding, record, run, ENCODED_COLUMNS};

fn texts(t: &Table) -> Vec<Vec<&str>> {
    t.rows
        .iter()
        .map(|row| row.iter().map(|c| c.text.as_str()).collect())
        .collect()
}

#[test]
fn every_level_is_a_row_with_its_counts_and_the_reference_has_no_design_column() {
    let e = encoding();
    let t = levels(&e);
    assert_eq!(
        t.headers,
        [
            "column",
            "level",
            "train rows",
            "test rows",
            "design column"
        ]
    );
    let rows = texts(&t);
    assert_eq!(rows.len(), 3 + 3 + 2 + 3);
    assert_eq!(
        rows[..3],
        [
            ["species", "Adelie", "110", "36", "species=Adelie"],
            ["species", "Chinstrap", "51", "17", "species=Chinstrap"],
            ["species", "Gentoo", "89", "30", "(reference)"],
        ]
    );
    assert_eq!(
        rows[6],
        ["clutch_completion", "No", "26", "8", "(reference)"]
    );
    // Every column's levels partition the same training and test rows.
    for c in &e.categorical {
        let train: usize = c.levels.iter().map(|l| l.train).sum();
        let test: usize = c.levels.iter().map(|l| l.test).sum();
        assert_eq!((train, test), (250, 83), "{}", c.column);
    }
    // One design column per level but the reference.
    let design = rows.iter().filter(|r| r[4] != "(reference)").count();
    let expected: usize = e.categorical.iter().map(|c| c.design_columns.len()).sum();
    assert_eq!(design, expected);
    assert_eq!(
        texts(&imputed(&e)),
        [["delta_15n", "mean", "8.7399", "7", "2", "delta_15n=missing"]]
    );
}

#[test]
fn check_lists_each_source_column_once_with_its_design_columns_in_weight_order() {
    let columns: Vec<String> = ENCODED_COLUMNS.iter().map(|c| c.to_string()).collect();
    let groups = design_listing(&columns, &encoding());
    let lines: Vec<String> = groups
        .iter()
        .map(|g| {
            let mut line = g.columns.join(", ");
            for n in &g.notes {
                line.push_str(&format!(" | {n}"));
            }
            line
        })
        .collect();
    assert_eq!(
        lines,
        [
            "intercept",
            "species=Adelie, species=Chinstrap | species, 3 levels (train / test rows): \
             Adelie 110 / 36, Chinstrap 51 / 17, Gentoo 89 / 30 (reference)",
            "island=Dream, island=Torgersen | island, 3 levels (train / test rows): \
             Biscoe 122 / 41 (reference), Dream 91 / 32, Torgersen 37 / 10",
            "bill_length_mm",
            "flipper_length_mm",
            "body_mass_g",
            "clutch_completion=Yes | clutch_completion, 2 levels (train / test rows): \
             No 26 / 8 (reference), Yes 224 / 75",
            "delta_15n, delta_15n=missing | delta_15n: 7 training and 2 test cells filled \
             with the mean 8.7399 · marked in delta_15n=missing",
            "year=2008, year=2009 | year, 3 levels (train / test rows): \
             2007 80 / 23 (reference), 2008 84 / 30, 2009 86 / 30",
        ]
    );
    // Every design column is listed exactly once, in weight order.
    let listed: Vec<&str> = groups
        .iter()
        .flat_map(|g| g.columns.iter().map(|c| c.as_str()))
        .collect();
    assert_eq!(listed, ENCODED_COLUMNS);
    // An all-numeric table: one plain column a group.
    let plain: Vec<String> = ["intercept", "x"].iter().map(|c| c.to_string()).collect();
    let groups = design_listing(&plain, &Default::default());
    assert!(groups
        .iter()
        .all(|g| g.notes.is_empty() && g.columns.len() == 1));
}

fn encoded_record() -> bayeslab_core::record::ExperimentRecord {
    let mut r = record(
        &ENCODED_COLUMNS,
        &["female", "male"],
        vec![run("map", &[0.1; 13], None, None)],
    );
    r.dataset.encoding = encoding();
    r
}

#[test]
fn both_reports_show_the_levels_and_the_filled_cells() {
    let r = encoded_record();
    let md = crate::markdown::report(&r, &[]);
    for line in [
        "| species | Gentoo | 89 | 30 | (reference) |",
        "| year | 2009 | 86 | 30 | year=2009 |",
        "| delta_15n | mean | 8.7399 | 7 | 2 | delta_15n=missing |",
    ] {
        assert!(md.contains(line), "{line} not in\n{md}");
    }
    // In the dataset section (after the results, issue 28), after the features.
    let at = |needle: &str| md.find(needle).unwrap_or_else(|| panic!("{needle}"));
    assert!(at("## Dataset") < at("Categorical columns: each categorical column"));
    assert!(at("Filled missing values:") < at("## Reproducibility"));
    let html = crate::html::report(&r, &[]);
    for row in [
        "<tr><td>species</td><td>Gentoo</td><td class=\"num\">89</td><td class=\"num\">30</td><td>(reference)</td></tr>",
        "<tr><td>delta_15n</td><td>mean</td><td class=\"num\">8.7399</td><td class=\"num\">7</td><td class=\"num\">2</td><td>delta_15n=missing</td></tr>",
    ] {
        assert!(html.contains(row), "{row} not in\n{html}");
    }
    assert!(html.find("<h2>Dataset</h2>") < html.find("<p>Categorical columns:"));
    // With imputed gaps the last feature column counts missing cells, not dropped rows.
    assert_eq!(features(&r.dataset).headers[5], "missing");
    assert!(md.contains(
        "missing: cells of `fixture.csv` without a value in the feature's column, either imputed (listed below)"
    ));
    assert!(html.find("<h2>Dataset</h2>") < html.find("<p>Filled missing values:"));
}

#[test]
fn an_all_numeric_complete_table_gets_no_encoding_section() {
    let mut r = encoded_record();
    r.dataset.encoding = Default::default();
    let md = crate::markdown::report(&r, &[]);
    let html = crate::html::report(&r, &[]);
    assert_eq!(features(&r.dataset).headers[5], "dropped");
    for s in [&md, &html] {
        assert!(!s.contains("Categorical columns"));
        assert!(!s.contains("Filled missing values"));
    }
}
