use super::*;
use crate::optim::Iterate;

/// The exact posterior of a 2-weight probit model on a grid: log Z, mean and variances.
fn grid_posterior(x: &Mat<f64>, y: &[f64], beta: f64, tau2: f64) -> (f64, [f64; 2], [f64; 2]) {
    let (lo, hi, cells) = (-8.0, 8.0, 800);
    let h = (hi - lo) / cells as f64;
    let mut z = 0.0;
    let mut m = [0.0; 2];
    let mut s = [0.0; 2];
    for i in 0..cells {
        for j in 0..cells {
            let w = [lo + (i as f64 + 0.5) * h, lo + (j as f64 + 0.5) * h];
            let mut lp = -0.5 * (w[0] * w[0] + w[1] * w[1]) / tau2
                - (2.0 * std::f64::consts::PI * tau2).ln();
            for n in 0..y.len() {
                let a = w[0] * x[(n, 0)] + w[1] * x[(n, 1)];
                lp += log_norm_cdf((2.0 * y[n] - 1.0) * a / beta);
            }
            let p = lp.exp() * h * h;
            z += p;
            for k in 0..2 {
                m[k] += p * w[k];
                s[k] += p * w[k] * w[k];
            }
        }
    }
    let mean = [m[0] / z, m[1] / z];
    (
        z.ln(),
        mean,
        [s[0] / z - mean[0].powi(2), s[1] / z - mean[1].powi(2)],
    )
}

#[test]
fn ep_matches_the_exact_posterior_by_numerical_integration() {
    let x = Mat::<f64>::from_fn(
        8,
        2,
        |i, j| {
            if j == 0 {
                1.0
            } else {
                (i as f64 - 3.5) * 0.6
            }
        },
    );
    let y = [0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 1.0];
    let (beta, tau2) = (1.0, 4.0);
    let mut ep = Ep::new(x.as_ref(), &y, beta, tau2, 1.0, (0..8).collect()).unwrap();
    let control = Control {
        max_iter: 100,
        tolerance: 1e-10,
        cancel: None,
    };
    let mut changes = Vec::new();
    let mut obs = |_: &str, it: &Iterate| changes.push(it.grad_norm);
    let out = drive("ep", &mut ep, &control, &mut obs).unwrap();
    assert!(out.termination.converged());
    let (log_z, mean, var) = grid_posterior(&x, &y, beta, tau2);
    // EP is not exact, but for a probit likelihood its moments are known to be very close
    // (Kuss & Rasmussen 2005); the tolerances are a few per cent of the posterior sd.
    for k in 0..2 {
        assert!(
            (ep.mu[k] - mean[k]).abs() < 0.02 * var[k].sqrt(),
            "mean {k}: {} vs {}",
            ep.mu[k],
            mean[k]
        );
        assert!(
            (ep.sigma(k, k) / var[k] - 1.0).abs() < 0.05,
            "var {k}: {} vs {}",
            ep.sigma(k, k),
            var[k]
        );
    }
    assert!(
        (ep.log_evidence() - log_z).abs() < 0.01,
        "{} vs {log_z}",
        ep.log_evidence()
    );
}

#[test]
fn one_observation_is_exact_after_one_update() {
    // With a single site, the EP posterior moments equal the exact tilted moments:
    // for w ~ N(0, 1), p(y = 1 | w) = Phi(w), Z = Phi(0) = 1/2, E[w] = 2 phi(0) / sqrt 2.
    let x = Mat::<f64>::from_fn(1, 1, |_, _| 1.0);
    let mut ep = Ep::new(x.as_ref(), &[1.0], 1.0, 1.0, 1.0, vec![0]).unwrap();
    ep.step().unwrap();
    let want_mean = 1.0 / std::f64::consts::PI.sqrt();
    assert!((ep.mu[0] - want_mean).abs() < 1e-12);
    assert!((ep.log_evidence() - 0.5f64.ln()).abs() < 1e-12);
    assert!((ep.sigma(0, 0) - (1.0 - want_mean * want_mean)).abs() < 1e-12);
}
