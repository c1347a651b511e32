//! The report tables against hand-made records whose numbers are known.

use super::*;
use crate::fixture::{record, run};

pub(super) fn column<'a>(t: &'a Table, header: &str) -> Vec<&'a Cell> {
    let j = t
        .headers
        .iter()
        .position(|h| h == header)
        .unwrap_or_else(|| panic!("no column {header:?} in {:?}", t.headers));
    t.rows.iter().map(|row| &row[j]).collect()
}

#[test]
fn every_run_with_a_gaussian_posterior_shows_its_khat_and_verdict() {
    // The 2024 thresholds: good up to min(1 - 1/log10 S, 0.7), so 0.69 is good from 20,000
    // draws but needs more from 1,000 (threshold 2/3); BAD above 0.7, VERY BAD above 1.
    let mut r = record(
        &["intercept", "x"],
        &["0", "1"],
        vec![
            run("map", &[0.1, 0.2], None, None),
            run("good", &[0.1, 0.2], Some(0.1), Some(0.31)),
            run("ok", &[0.1, 0.2], Some(0.1), Some(0.69)),
            run("few", &[0.1, 0.2], Some(0.1), Some(0.69)),
            run("bad", &[0.1, 0.2], Some(0.1), Some(0.85)),
            run("worse", &[0.1, 0.2], Some(0.1), Some(1.327)),
        ],
    );
    for run in r.runs.iter_mut().skip(1) {
        run.khat_draws = Some(20_000);
    }
    r.runs[3].khat_draws = Some(1000);
    let t = convergence(&r);
    let k = column(&t, "k-hat");
    let texts: Vec<&str> = k.iter().map(|c| c.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            "–",
            "0.31 good",
            "0.69 good",
            "0.69 more draws",
            "0.85 BAD",
            "1.33 VERY BAD"
        ]
    );
    let marks: Vec<Mark> = k.iter().map(|c| c.mark).collect();
    let plain = Mark::Plain;
    assert_eq!(marks, [plain, plain, plain, plain, Mark::Warn, Mark::Warn]);
    // report.md bolds the warning
    let mut md = String::new();
    markdown::table(&mut md, &t);
    assert!(md.contains("| **1.33 VERY BAD** |"), "{md}");
    assert!(md.contains("| 0.69 more draws |"), "{md}");
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

#[test]
fn the_chosen_lambda_is_a_highlighted_row_in_its_place_and_said_in_words() {
    let mut laplace = run("logistic", &[0.1, 0.2], Some(0.1), Some(0.2));
    laplace.prior_precision = Some(3.1044635);
    laplace.posterior.as_mut().unwrap().log_evidence = Some(-196.2058);
    laplace.evidence_curve = [(1.0, -197.9), (3.1623, -196.2064), (10.0, -199.2)]
        .iter()
        .map(|&(precision, e)| bayeslab_core::record::EvidencePoint {
            precision,
            log_evidence: Some(e),
            test_log_loss: 0.4,
        })
        .collect();
    let r = record(&["intercept", "x"], &["0", "1"], vec![laplace]);
    let curves = evidence(&r);
    let (_, t) = &curves[0];
    let lambdas: Vec<&str> = t.rows.iter().map(|row| row[0].text.as_str()).collect();
    assert_eq!(
        lambdas,
        ["1.000e0", "3.104e0 (chosen)", "3.162e0", "1.000e1"]
    );
    // the chosen row: every cell marked, the final fit's evidence and plug-in log-loss
    let chosen = &t.rows[1];
    assert!(chosen.iter().all(|c| c.mark == Mark::Best));
    assert_eq!(chosen[1].text, "-196.2058");
    assert_eq!(chosen[2].text, "0.5000");
    assert!(t.rows[2].iter().all(|c| c.mark == Mark::Plain));
    let mut md = String::new();
    markdown::table(&mut md, t);
    assert!(md.contains("| **3.104e0 (chosen)** | **-196.2058** | **0.5000** |"));
    assert_eq!(
        evidence_choice(&r.runs[0]).unwrap(),
        "`logistic`: lambda = 3.104 maximises the Laplace evidence (log evidence -196.2058), \
         found by golden-section search in ln lambda between the neighbours of the best grid \
         point, 3.162e0; it is the highlighted row."
    );
}

#[test]
fn softmax_weights_are_labelled_by_class_and_the_reference_class_reads_zero() {
    let cols = ["intercept", "x"];
    let r = record(
        &cols,
        &["setosa", "versicolor", "virginica"],
        vec![
            run("softmax", &[0.0, 1.0, 10.0, 11.0, 20.0, 21.0], None, None),
            run("reference", &[10.5, 11.5, 20.5, 21.5], Some(0.5), None),
        ],
    );
    let t = weights(&r).unwrap();
    assert_eq!(t.headers, ["class", "column", "softmax", "reference"]);
    let rows: Vec<Vec<&str>> = t
        .rows
        .iter()
        .map(|row| row.iter().map(|c| c.text.as_str()).collect())
        .collect();
    assert_eq!(
        rows,
        [
            ["y = setosa", "intercept", "0.0000", "0 (reference)"],
            ["y = setosa", "x", "1.0000", "0 (reference)"],
            ["y = versicolor", "intercept", "10.0000", "10.5000 ± 1.0000"],
            ["y = versicolor", "x", "11.0000", "11.5000 ± 1.0000"],
            ["y = virginica", "intercept", "20.0000", "20.5000 ± 1.0000"],
            ["y = virginica", "x", "21.0000", "21.5000 ± 1.0000"],
        ]
    );
    assert_eq!(t.numeric, [false, false, true, true]);
}
