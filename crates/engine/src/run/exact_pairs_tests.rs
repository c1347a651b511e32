//! The slice against the log posterior written out directly, and the draws' density record.

use super::*;
use bayeslab_core::numeric::linalg::matrix;

/// ln sigma(a) written out, independent of numeric/special.
fn log_sigma(a: f64) -> f64 {
    -(1.0 + (-a).exp()).ln()
}

/// A deterministic design of 40 rows: an intercept and two features, labels by a fixed rule.
fn design() -> bayeslab_core::model::loglik::Rows {
    let x = matrix(40, 3, |r, c| match c {
        0 => 1.0,
        1 => ((r * 7) % 11) as f64 / 5.0 - 1.0,
        _ => ((r * 5) % 13) as f64 / 6.0 - 1.0,
    });
    let y = (0..40).map(|r| f64::from((r * 3) % 5 < 2)).collect();
    (x, y)
}

#[test]
fn the_slice_is_the_log_posterior_evaluated_directly() {
    let (x, y) = design();
    let slice = Slice {
        likelihood: Likelihood::Logistic,
        x: x.as_ref(),
        y: &y,
        precision: 0.7,
    };
    let mode = [0.3, -1.2, 0.8];
    let box_ = ([-2.0, 1.0], [0.0, 3.0]);
    let got = slice.log_values(&mode, [0, 2], box_);
    let grid = grid_points(box_.0, box_.1);
    for (k, [u, v]) in grid.iter().enumerate().step_by(97) {
        let w = [*u, mode[1], *v];
        let lik: f64 = (0..40)
            .map(|r| {
                let a: f64 = (0..3).map(|c| x[(r, c)] * w[c]).sum();
                if y[r] == 1.0 {
                    log_sigma(a)
                } else {
                    log_sigma(-a)
                }
            })
            .sum();
        let want = lik - 0.35 * w.iter().map(|t| t * t).sum::<f64>();
        assert!(
            (got[k] - want).abs() < 1e-10,
            "point {k}: {} vs {want}",
            got[k]
        );
    }
    // the stored density is the same surface normalised: its log ratios are the log posterior's
    let p = slice.pair(&mode, [0, 2], box_);
    assert_eq!(p.source, ExactSource::Slice);
    assert!((p.mass - 1.0).abs() < 1e-12);
    let (a, b) = (POINTS * 20 + 17, POINTS * 30 + 25);
    let ratio = (p.density[a] / p.density[b]).ln();
    assert!((ratio - (got[a] - got[b])).abs() < 1e-9);
}

#[test]
fn the_draws_density_carries_its_levels_and_bandwidth() {
    // draws of N(0, I) by a fixed low-discrepancy construction: the Box-Muller map of a grid
    let s = 900;
    let draws = matrix(2, s, |r, k| {
        let (u, v) = (
            ((k % 30) as f64 + 0.5) / 30.0,
            ((k / 30) as f64 + 0.5) / 30.0,
        );
        let radius = (-2.0 * u.ln()).sqrt();
        let t = std::f64::consts::TAU * v;
        if r == 0 {
            radius * t.cos()
        } else {
            radius * t.sin()
        }
    });
    let p = draws_pair(draws.as_ref(), [0, 1]).unwrap();
    assert_eq!(p.source, ExactSource::Draws);
    assert_eq!(p.draws, Some(s));
    let levels = p.levels.clone().unwrap();
    assert!(levels[0] > levels[1] && levels[1] > levels[2]);
    // the kernel estimate of N(0, I) integrates to about 1 over the padded box
    assert!((p.mass - 1.0).abs() < 0.01, "mass {}", p.mass);
    // the 50 % level lies near N(0, I)'s, exp(-chi2/2) / 2 pi with chi2 = 2 ln 2, smoothed
    let truth = 0.5 / std::f64::consts::TAU;
    assert!(
        (levels[0] / truth - 1.0).abs() < 0.2,
        "{} vs {truth}",
        levels[0]
    );
}
