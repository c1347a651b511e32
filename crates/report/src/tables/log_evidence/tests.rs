//! The log-evidence table against a hand-made record whose gaps are known.

use super::*;
use crate::fixture::record;

/// Logistic runs around an estimate of −100 ± 0.01 and probit runs around an unreliable one.
pub(in crate::tables) fn evidence_record() -> bayeslab_core::record::ExperimentRecord {
    use crate::fixture::{estimate, evidence_run};
    let mut kl_mf = evidence_run(
        "kl-mf",
        bayeslab_core::catalog::MethodKind::ViLogistic,
        1.0,
        -100.7,
    );
    kl_mf.mean_field = true;
    let mut gibbs = evidence_run(
        "gibbs",
        bayeslab_core::catalog::MethodKind::GibbsLogistic,
        1.0,
        0.0,
    );
    gibbs.posterior.as_mut().unwrap().log_evidence = None;
    let mut probit_ep = evidence_run(
        "probit-ep",
        bayeslab_core::catalog::MethodKind::EpProbit,
        1.0,
        -110.01,
    );
    probit_ep.noise = Some(1.0);
    let mut probit_ep2 = evidence_run(
        "probit-ep2",
        bayeslab_core::catalog::MethodKind::EpProbit,
        1.0,
        -111.0,
    );
    probit_ep2.noise = Some(2.0);
    let mut r = record(
        &["intercept", "x"],
        &["0", "1"],
        vec![
            evidence_run(
                "laplace",
                bayeslab_core::catalog::MethodKind::LogisticLaplace,
                1.0,
                -100.05,
            ),
            evidence_run(
                "ep",
                bayeslab_core::catalog::MethodKind::EpLogistic,
                1.0,
                -100.015,
            ),
            evidence_run(
                "jj",
                bayeslab_core::catalog::MethodKind::VbLogistic,
                1.0,
                -101.5,
            ),
            evidence_run(
                "kl",
                bayeslab_core::catalog::MethodKind::ViLogistic,
                1.0,
                -99.9,
            ),
            kl_mf,
            evidence_run(
                "weak",
                bayeslab_core::catalog::MethodKind::LogisticLaplace,
                0.1,
                -98.0,
            ),
            gibbs,
            probit_ep,
            probit_ep2,
        ],
    );
    r.evidence = vec![
        estimate(
            bayeslab_core::catalog::Link::Logistic,
            1.0,
            -100.0,
            0.01,
            0.1,
            "ep",
        ),
        estimate(
            bayeslab_core::catalog::Link::Probit,
            1.0,
            -110.0,
            0.02,
            0.9,
            "probit-ep",
        ),
    ];
    r
}

#[test]
fn each_runs_own_evidence_is_compared_with_the_estimate_of_its_model() {
    let e = log_evidence_table(&evidence_record()).unwrap();
    let rows: Vec<Vec<&str>> = e
        .table
        .rows
        .iter()
        .map(|row| row.iter().map(|c| c.text.as_str()).collect())
        .collect();
    // gaps by hand: −100.05 − (−100) = −0.05; −100.015 + 100 = −0.015 ≤ 2 × 0.01 (within
    // error); a bound above the estimate (−99.9) is impossible and marked; λ = 0.1 and β = 2
    // are other models, shown but not compared; the sampler has no evidence of its own.
    assert_eq!(
        rows,
        [
            vec![
                "laplace",
                "logistic",
                "Laplace ln p̂",
                "-100.0500",
                "-0.0500 ± 0.0100",
                ""
            ],
            vec![
                "ep",
                "logistic",
                "EP ln Z",
                "-100.0150",
                "-0.0150 ± 0.0100",
                "within error"
            ],
            vec![
                "jj",
                "logistic",
                "JJ bound",
                "-101.5000",
                "-1.5000 ± 0.0100",
                ""
            ],
            vec![
                "kl",
                "logistic",
                "ELBO",
                "-99.9000",
                "+0.1000 ± 0.0100",
                "bound above!"
            ],
            vec![
                "kl-mf",
                "logistic",
                "ELBO mean-field",
                "-100.7000",
                "-0.7000 ± 0.0100",
                ""
            ],
            vec![
                "weak",
                "logistic",
                "Laplace ln p̂",
                "-98.0000",
                "–",
                "other λ 0.1"
            ],
            vec![
                "estimate",
                "logistic",
                "importance sampling",
                "-100.0000 ± 0.0100",
                "–",
                "k-hat 0.10 good"
            ],
            vec![
                "probit-ep",
                "probit",
                "EP ln Z",
                "-110.0100",
                "-0.0100 ± 0.0200",
                "within error"
            ],
            vec![
                "probit-ep2",
                "probit",
                "EP ln Z",
                "-111.0000",
                "–",
                "other β 2"
            ],
            vec![
                "estimate",
                "probit",
                "importance sampling",
                "-110.0000 ± 0.0200",
                "–",
                "k-hat 0.90 BAD: not reliable"
            ],
        ]
    );
    let warned: Vec<(usize, usize)> = (0..rows.len())
        .flat_map(|i| (0..6).map(move |j| (i, j)))
        .filter(|&(i, j)| e.table.rows[i][j].mark == Mark::Warn)
        .collect();
    assert_eq!(warned, [(3, 5), (9, 5)]);
    assert_eq!(
        e.sentences,
        [
            "logistic: the EP ln Z (ep) is closest to the estimate, 0.0150 below it (within error); \
             the JJ bound (jj) is furthest, 1.5000 below.",
            "probit: the estimate is not reliable (k-hat 0.90 BAD above 0.7), so the approximations \
             are not ranked against it.",
        ]
    );
    assert_eq!(
        e.sources,
        [
            "logistic: 20,000 draws from a Student-t around `ep` at λ = 1",
            "probit: 20,000 draws from a Student-t around `probit-ep` at λ = 1, β = 1",
        ]
    );
}

#[test]
fn no_estimate_no_evidence_table() {
    let mut r = evidence_record();
    r.evidence.clear();
    assert!(log_evidence_table(&r).is_none());
}

#[test]
fn both_reports_show_the_evidence_table_with_its_sentences_and_only_when_estimated() {
    let r = evidence_record();
    let md = crate::markdown::report(&r, &[]);
    assert!(md.contains("## Log evidence against the truth"), "{md}");
    assert!(md.contains("logistic: the EP ln Z (ep) is closest to the estimate, 0.0150 below it (within error); the JJ bound (jj) is furthest, 1.5000 below."));
    assert!(
        md.contains("| ep | logistic | EP ln Z | -100.0150 | -0.0150 ± 0.0100 | within error |"),
        "{md}"
    );
    assert!(md.contains("| estimate | probit | importance sampling | -110.0000 ± 0.0200 | – | **k-hat 0.90 BAD: not reliable** |"));
    let html = crate::html::report(&r, &[]);
    assert!(html.contains("<h2>Log evidence against the truth</h2>"));
    assert!(
        html.contains("<td class=\"num\">-0.0150 ± 0.0100</td>"),
        "{html}"
    );
    // the unreliable estimate in red as the convergence table's BAD k-hat
    let warn = html
        .split("<td")
        .find(|c| c.contains("k-hat 0.90 BAD: not reliable"))
        .unwrap();
    assert!(warn.starts_with(" class=\"warn\">"), "{warn}");
    assert!(html.contains("around <code>probit-ep</code> at λ = 1, β = 1"));

    let mut none = r.clone();
    none.evidence.clear();
    let md = crate::markdown::report(&none, &[]);
    let html = crate::html::report(&none, &[]);
    assert!(!md.contains("Log evidence") && !md.contains("importance sampling"));
    assert!(!html.contains("Log evidence") && !html.contains("importance sampling"));
}

#[test]
fn one_run_is_not_called_the_closest_and_no_run_at_the_estimates_lambda_is_said() {
    use crate::fixture::{estimate, evidence_run};
    let mut r = record(
        &["intercept", "x"],
        &["0", "1"],
        vec![evidence_run(
            "laplace",
            bayeslab_core::catalog::MethodKind::LogisticLaplace,
            1.0,
            -50.25,
        )],
    );
    r.evidence = vec![estimate(
        bayeslab_core::catalog::Link::Logistic,
        1.0,
        -50.0,
        0.1,
        -0.2,
        "laplace",
    )];
    let e = log_evidence_table(&r).unwrap();
    assert_eq!(
        e.sentences,
        ["logistic: the Laplace ln p̂ (laplace) is 0.2500 below the estimate."]
    );
    r.evidence[0].prior_precision = 2.0;
    let e = log_evidence_table(&r).unwrap();
    assert_eq!(
        e.sentences,
        ["logistic: no run of this model at λ = 2 to compare with the estimate."]
    );
    assert_eq!(e.table.rows[0][5].text, "other λ 1");
}
