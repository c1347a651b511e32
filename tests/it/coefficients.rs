//! Coefficients in original units against an independent fit: statsmodels' `Logit` (MLE) on
//! the unstandardised pima training rows (tests/fixtures/pima_logit.py, its output stored in
//! pima_logit.json). bayeslab fits the standardised design; undoing the standardisation
//! (docs/maths.md §13) must give statsmodels' coefficients, and (Laplace under a vanishing
//! prior, whose covariance is the inverse Hessian) its standard errors.

use std::path::PathBuf;

use bayeslab_report::coefficients::{coefficients, Scale};
use serde_json::Value;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

#[test]
fn original_unit_coefficients_equal_statsmodels_logit_on_the_raw_columns() {
    let reference: Value =
        serde_json::from_str(&std::fs::read_to_string(fixture("pima_logit.json")).unwrap())
            .unwrap();
    let plan = bayeslab_engine::config::load(&fixture("coefficients_pima.toml")).unwrap();
    let record = bayeslab_engine::run::run(&plan, &mut bayeslab_engine::run::Silent, None).unwrap();
    assert_eq!(
        record.dataset.rows_train,
        reference["rows"].as_u64().unwrap() as usize
    );
    let columns: Vec<&str> = reference["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    assert_eq!(record.dataset.columns, columns);
    let (params, bse) = (floats(&reference["params"]), floats(&reference["bse"]));
    // The design really was standardised: its weights differ from the raw-column ones.
    let mle = &record.runs[0];
    assert!((mle.weights[2] - params[2]).abs() > 0.1);
    for run in &record.runs {
        assert!(run.converged, "{}", run.id);
        let beta = coefficients(&record, run, Scale::Original).unwrap();
        for (j, c) in beta.iter().enumerate() {
            let tol = 1e-6 * params[j].abs().max(1.0);
            assert!(
                (c.mean - params[j]).abs() < tol,
                "{} {}: {} vs {}",
                run.id,
                c.column,
                c.mean,
                params[j]
            );
        }
        if run.posterior.is_some() {
            for (j, c) in beta.iter().enumerate() {
                let sd = c.sd.unwrap();
                assert!(
                    (sd - bse[j]).abs() < 1e-6 * bse[j].max(1.0),
                    "{} sd {sd} vs {}",
                    c.column,
                    bse[j]
                );
            }
        }
    }
}
