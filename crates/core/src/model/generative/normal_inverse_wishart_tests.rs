//! The Normal-inverse-Wishart model against the Normal-Gamma one in one dimension, and its shared covariance.

use super::*;
use crate::model::generative::normal_gamma::NormalGamma;
use crate::model::generative::student::log_t;

#[test]
fn one_dimension_agrees_with_the_normal_gamma_predictive() {
    // In D = 1, NIW(mu0, kappa0, nu0, psi0) is NG(mu0, kappa0, alpha0 = nu0/2, beta0 = psi0/2)
    // on the precision, so the two predictives must coincide.
    let v = [0.3, -1.2, 2.0, 0.8, 1.1];
    let x = Mat::<f64>::from_fn(5, 1, |i, _| v[i]);
    let y = [0.0; 5];
    let niw = Niw {
        mu0: 0.5,
        kappa0: 2.0,
        nu0: 3.0,
        psi0: 1.5,
    };
    let g = fit(x.as_ref(), &y, 1, niw, false, "t").unwrap();
    let ng = NormalGamma {
        mu0: 0.5,
        kappa0: 2.0,
        alpha0: 1.5,
        beta0: 0.75,
    }
    .predictive(&v);
    let t = Mat::<f64>::from_fn(3, 1, |i, _| i as f64 - 1.0);
    let got = g.log_densities(t.as_ref());
    for (i, row) in got.iter().enumerate() {
        let want = log_t(i as f64 - 1.0, ng.nu, ng.loc, ng.scale2);
        assert!((row[0] - want).abs() < 1e-12, "{} vs {want}", row[0]);
    }
}

#[test]
fn shared_covariance_with_one_class_is_the_per_class_model() {
    // Pooling over a single class changes nothing: nu_N = nu0 + n and Psi_N = Psi_n.
    let x = Mat::<f64>::from_fn(6, 2, |i, j| ((i * 3 + j) as f64 * 0.7).sin());
    let y = [0.0; 6];
    let niw = Niw {
        mu0: 0.0,
        kappa0: 1.0,
        nu0: 4.0,
        psi0: 1.0,
    };
    let own = fit(x.as_ref(), &y, 1, niw, false, "t").unwrap();
    let shared = fit(x.as_ref(), &y, 1, niw, true, "t").unwrap();
    let (a, b) = (
        own.log_densities(x.as_ref()),
        shared.log_densities(x.as_ref()),
    );
    for (a, b) in a.iter().zip(&b) {
        assert!((a[0] - b[0]).abs() < 1e-13);
    }
}

#[test]
fn shared_covariance_pools_the_scatter_of_every_class() {
    // Two classes with mu0 = 0 and kappa0 -> 0: Psi_N = Psi0 + S_0 + S_1, so moving one
    // class's points changes the other class's predictive only through the pooled scatter.
    let x = Mat::<f64>::from_fn(8, 1, |i, _| [0.0, 1.0, 2.0, 3.0, 10.0, 10.5, 11.0, 11.5][i]);
    let y = [0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0];
    let niw = Niw {
        mu0: 0.0,
        kappa0: 1e-9,
        nu0: 2.0,
        psi0: 1.0,
    };
    let shared = fit(x.as_ref(), &y, 2, niw, true, "t").unwrap();
    // S_0 = 5, S_1 = 1.25 => Psi_N = 7.25, nu_N = 10, dof = 10; class 0: kappa = 4 + 1e-9,
    // mean 1.5, scale^2 = 7.25 * (kappa + 1) / (kappa * 10).
    let kappa = 4.0 + 1e-9;
    let want = crate::model::generative::student::log_t(
        0.5,
        10.0,
        1.5,
        7.25 * (kappa + 1.0) / (kappa * 10.0),
    );
    let probe = Mat::<f64>::from_fn(1, 1, |_, _| 0.5);
    let got = shared.log_densities(probe.as_ref())[0][0];
    // the kappa0 mean terms left out above add about 1e-7 to Psi_N
    assert!((got - want).abs() < 1e-6, "{got} vs {want}");
}
