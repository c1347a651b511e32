//! The exact posterior by quadrature end to end (experiments/small_exact.toml): the grid's
//! evidence against the independent importance-sampling estimate, the approximations measured
//! against the grid, and the sampler's moments within their Monte-Carlo error.

use serde_json::Value;

fn run_small_exact() -> (tempfile::TempDir, Value) {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("q");
    let exp = concat!(env!("CARGO_MANIFEST_DIR"), "/experiments/small_exact.toml");
    let o = crate::util::cli::bin()
        .args(["run", exp, "--quiet", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let r =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    (tmp, r)
}

fn run<'a>(r: &'a Value, id: &str) -> &'a Value {
    r["runs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["id"] == id)
        .unwrap()
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

#[test]
fn the_grid_is_the_gold_standard_of_a_small_model() {
    let (_tmp, r) = run_small_exact();
    let exact = run(&r, "exact");
    assert_eq!(exact["termination"], "converged", "{exact}");
    // The grid's ln p(y | X) against the importance-sampling estimate (a Student-t proposal,
    // an independent computation): within four of the estimate's standard errors.
    let estimate = &r["evidence"][0];
    let grid = exact["posterior"]["log_evidence"].as_f64().unwrap();
    let (is, se) = (
        estimate["log_evidence"].as_f64().unwrap(),
        estimate["mcse"].as_f64().unwrap(),
    );
    assert!(
        (grid - is).abs() < 4.0 * se,
        "grid {grid} vs IS {is} ± {se}"
    );
    // Every Gaussian approximation is measured against the grid, not the sampler.
    for row in r["approximation_error"].as_array().unwrap() {
        if !["exact", "gibbs"].contains(&row["run"].as_str().unwrap()) {
            assert_eq!(row["reference"], "exact", "{row}");
        }
    }
    // The sampler's means within five Monte-Carlo standard errors (sd / sqrt(min bulk ESS)).
    let gibbs = run(&r, "gibbs");
    let ess = gibbs["diagnostics"]["ess_min"].as_f64().unwrap();
    let (gm, qm) = (
        floats(&gibbs["posterior"]["mean"]),
        floats(&exact["posterior"]["mean"]),
    );
    let qv = floats(&exact["posterior"]["cov_diag"]);
    for j in 0..qm.len() {
        let mcse = qv[j].sqrt() / ess.sqrt();
        assert!(
            (gm[j] - qm[j]).abs() < 5.0 * mcse,
            "w{j}: {} vs {}",
            gm[j],
            qm[j]
        );
    }
}
