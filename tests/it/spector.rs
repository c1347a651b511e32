//! Newton's maximum-likelihood fit against an independent computation: the Spector & Mazzeo
//! logit as published in Greene, *Econometric Analysis* (Table 21.1 in the 5th edition) and
//! reproduced in statsmodels' Logit documentation: const -13.0213, GPA 2.8261, TUCE 0.0952,
//! PSI 2.3787, log-likelihood -12.8896.

use bayeslab_core::model::logistic::{fit, FitSettings, LogisticObjective};
use bayeslab_core::optim::Iterate;
use bayeslab_engine::config::Optimizer;
use faer::Mat;

#[test]
fn spector_mle_matches_the_published_logit() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/datasets/spector.csv"))
            .unwrap();
    let rows: Vec<Vec<f64>> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(|v| v.parse().unwrap()).collect())
        .collect();
    assert_eq!(rows.len(), 32);
    let x = Mat::<f64>::from_fn(32, 4, |i, j| if j == 0 { 1.0 } else { rows[i][j - 1] });
    let y: Vec<f64> = rows.iter().map(|r| r[3]).collect();
    let settings = FitSettings {
        precision: 0.0,
        optimizer: Optimizer::Newton,
        max_iter: 100,
        tolerance: 1e-9,
        laplace: false,
        curvature: bayeslab_core::optim::Curvature::Chord,
        warm_start: false,
    };
    let f = fit(
        x.as_ref(),
        &y,
        &settings,
        "spector",
        None,
        &mut |_: &str, _: &Iterate| {},
    )
    .unwrap();
    assert!(f.outcome.termination.converged());
    let published = [-13.0213, 2.8261, 0.0952, 2.3787];
    for (got, want) in f.weights.iter().zip(published) {
        assert!((got - want).abs() < 6e-5, "{got} vs {want}");
    }
    let ll = LogisticObjective::new(x.as_ref(), &y, 0.0).log_likelihood(&f.weights);
    assert!((ll + 12.8896).abs() < 1e-4, "log-likelihood {ll}");
}
