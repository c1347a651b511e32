//! bayeslab's PSIS-LOO against ArviZ 0.23 on stored log-likelihood matrices of the Bayesian
//! logistic regression of datasets/spector.csv (tests/fixtures/loo/make_reference.py made
//! spector_reference.json; no Python runs here). Each matrix is scored as draws from the
//! posterior (`az.loo`) and as draws from an approximation with its ln p(y, w) - ln q(w)
//! (`az.psislw` of the corrected ratios, as `loo::loo_approximate_posterior`).

use bayeslab_core::metrics::loo::{psis_loo, Draws, LogLik, Loo};
use serde_json::Value;

const TOL: f64 = 1e-6;

fn numbers(v: &Value) -> Vec<f64> {
    v.as_array()
        .expect("an array")
        .iter()
        .map(|x| x.as_f64().expect("a number"))
        .collect()
}

fn check(name: &str, loo: &Loo, reference: &Value) {
    let close = |what: &str, ours: f64, theirs: f64| {
        assert!(
            (ours - theirs).abs() < TOL,
            "{name} {what}: bayeslab {ours}, ArviZ {theirs}"
        );
    };
    close(
        "elpd_loo",
        loo.elpd(),
        reference["elpd_loo"].as_f64().unwrap(),
    );
    close("se", loo.se(), reference["se"].as_f64().unwrap());
    close("p_loo", loo.p_loo(), reference["p_loo"].as_f64().unwrap());
    let ks = numbers(&reference["pareto_k"]);
    let elpd_i = numbers(&reference["elpd_i"]);
    assert_eq!(ks.len(), loo.pointwise.len());
    for (i, p) in loo.pointwise.iter().enumerate() {
        close(&format!("k of row {i}"), p.k, ks[i]);
        close(&format!("elpd of row {i}"), p.elpd, elpd_i[i]);
    }
}

#[test]
fn psis_loo_equals_arviz_on_the_stored_matrices() {
    let text = std::fs::read_to_string("tests/fixtures/loo/spector_reference.json").unwrap();
    let fixture: Value = serde_json::from_str(&text).unwrap();
    let cases = fixture["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 2);
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let draws = case["draws"].as_u64().unwrap() as usize;
        let rows = case["rows"]
            .as_array()
            .map_or(case["rows"].as_u64().unwrap() as usize, Vec::len);
        let mut ll = LogLik::zeros(draws, rows, Draws::Posterior);
        for (i, row) in case["loglik_by_row"].as_array().unwrap().iter().enumerate() {
            ll.row_mut(i).copy_from_slice(&numbers(row));
        }
        check(name, &psis_loo(&ll), &case["plain"]);
        ll.correction = Some(numbers(&case["correction"]));
        check(
            &format!("{name} corrected"),
            &psis_loo(&ll),
            &case["corrected"],
        );
    }
}
