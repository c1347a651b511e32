//! EP with the logistic likelihood (`ep-logistic`, docs/maths.md §6.3): the tilted moments
//! against brute-force integration, and the EP evidence and posterior of a one-weight model
//! against 1-D quadrature (model/one_weight.rs).

use faer::Mat;

use super::*;
use crate::model::one_weight;
use crate::numeric::quadrature::GaussHermite;
use crate::numeric::special::log_sigmoid;
use crate::optim::{drive, Control};

/// (ln Z, mean, variance) of sigma(t) N(t; m, v) by the midpoint rule on m +- 40 sd.
fn brute_tilted(m: f64, v: f64) -> (f64, f64, f64) {
    let sd = v.sqrt();
    let cells = 400_000;
    let h = 80.0 * sd / cells as f64;
    let (mut z, mut m1, mut m2) = (0.0, 0.0, 0.0);
    for i in 0..cells {
        let t = m - 40.0 * sd + (i as f64 + 0.5) * h;
        let p = (log_sigmoid(t) - 0.5 * (t - m).powi(2) / v).exp()
            / (2.0 * std::f64::consts::PI * v).sqrt()
            * h;
        z += p;
        m1 += p * t;
        m2 += p * t * t;
    }
    let mean = m1 / z;
    (z.ln(), mean, m2 / z - mean * mean)
}

#[test]
fn logistic_tilted_moments_match_brute_force_integration() {
    let gh = GaussHermite::new(64);
    // narrow cavities (Gauss-Hermite) and wide ones (the trapezoid rule in the logistic
    // variable), including one far on the wrong side of the step
    for (m, v) in [
        (0.3, 0.5),
        (-3.0, 0.9),
        (2.0, 4.0),
        (0.0, 100.0),
        (-6.0, 9.0),
        (-40.0, 0.5),
    ] {
        let (lz, mean, var) = logistic_tilted(&gh, m, v);
        let (blz, bmean, bvar) = brute_tilted(m, v);
        let what = format!("cavity N({m}, {v})");
        assert!((lz - blz).abs() < 1e-8, "{what}: ln Z {lz} vs {blz}");
        assert!(
            (mean - bmean).abs() < 1e-8 * v.sqrt(),
            "{what}: mean {mean} vs {bmean}"
        );
        assert!(
            (var / bvar - 1.0).abs() < 1e-7,
            "{what}: var {var} vs {bvar}"
        );
    }
}

#[test]
fn ep_logistic_matches_the_one_weight_posterior_by_quadrature() {
    let (x, y) = one_weight::rows();
    let xm = Mat::from_fn(30, 1, |i, _| x[i]);
    for lambda in [0.1, 1.0, 10.0] {
        let (exact, mean, var) =
            one_weight::exact(&x, &y, lambda, crate::model::logistic::row_terms);
        let mut ep = Ep::with_site(
            xm.as_ref(),
            &y,
            Site::logistic(),
            1.0 / lambda,
            1.0,
            (0..30).collect(),
        )
        .unwrap();
        let control = Control {
            max_iter: 100,
            tolerance: 1e-10,
            cancel: None,
        };
        let out = drive(
            "ep",
            &mut ep,
            &control,
            &mut |_: &str, _: &crate::optim::Iterate| {},
        )
        .unwrap();
        assert!(out.termination.converged(), "lambda {lambda}");
        // EP is not exact: its errors are those of a Gaussian for a slightly skewed posterior
        // (sd 0.2 over 30 rows). Measured: |ln Z_EP - ln p(y|X)| 0.0004 to 0.0115, mean within
        // 0.008 sd, variance 0.93 to 1.00 of the exact one; the tolerances leave about twice that.
        let what = format!("lambda {lambda}");
        let dz = ep.log_evidence() - exact;
        assert!(
            dz.abs() < 0.025,
            "{what}: ln Z_EP {} vs {exact}",
            ep.log_evidence()
        );
        assert!(
            (ep.mu[0] - mean).abs() < 0.02 * var.sqrt(),
            "{what}: mean {} vs {mean}",
            ep.mu[0]
        );
        assert!(
            (ep.sigma(0, 0) / var - 1.0).abs() < 0.15,
            "{what}: var {} vs {var}",
            ep.sigma(0, 0)
        );
    }
}
