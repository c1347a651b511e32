//! Tests of the Gamma-Poisson family against docs/maths.md's closed forms.

use super::*;
use crate::lab::distances::distances;

#[test]
fn modes_and_informations_match_the_closed_forms_of_math_md() {
    // InsectSprays spray A: 10 7 20 14 14 12 10 23 17 20 14 13 (Σ = 174, n = 12),
    // prior Gamma(1, 1): a = 175, b = 13.
    let (a, b) = (175.0, 13.0);
    let m = theta_mode(a, b, "t").unwrap();
    assert!((m.x[0] - (a - 1.0) / b).abs() < 1e-9);
    assert!((m.variances()[0] - (a - 1.0) / (b * b)).abs() < 1e-6 * (a - 1.0) / (b * b));
    let m = log_theta_mode(a, b, "t").unwrap();
    assert!((m.x[0] - (a / b).ln()).abs() < 1e-9);
    assert!((m.variances()[0] - 1.0 / a).abs() < 1e-6 / a);
}

#[test]
fn the_numerical_gradient_path_agrees_with_the_analytic_one() {
    struct Plain(Theta);
    impl LogDensity for Plain {
        fn dim(&self) -> usize {
            1
        }
        fn ln_density(&self, x: &[f64]) -> f64 {
            self.0.ln_density(x)
        }
    }
    let m = find_mode(&Plain(Theta { a: 8.0, b: 3.0 }), vec![4.0], "plain").unwrap();
    assert!((m.x[0] - 7.0 / 3.0).abs() < 1e-6);
    assert!((m.variances()[0] - 7.0 / 9.0).abs() < 1e-5);
}

#[test]
fn lognormal_beats_normal_in_kl_for_small_counts() {
    for counts in [
        vec![0.0, 1.0, 2.0],
        vec![3.0],
        vec![1.0, 0.0, 0.0, 2.0, 1.0],
    ] {
        let built = build(
            &counts,
            1.0,
            1.0,
            4.0,
            &[ApproxKind::Normal, ApproxKind::LogNormal],
            "t",
        )
        .unwrap();
        let kl: Vec<f64> = built
            .approximations
            .iter()
            .map(|(_, _, q)| distances(&built.exact, q).kl)
            .collect();
        assert!(
            kl[1] < kl[0],
            "counts {counts:?}: KL normal {} lognormal {}",
            kl[0],
            kl[1]
        );
    }
}

/// KL(Gamma(a, b) || LogNormal(log(a/b), 1/a)) on phi = log theta, where
/// E log p = a psi(a) - a - log Gamma(a) and E log q = -1/2 log(2π/a) - a (Var + bias²)/2 with
/// Var = psi'(a), bias = psi(a) - log b - log(a/b). For a = 1/2: psi = -γ - 2 log 2,
/// psi' = π²/2. A density singular at theta = 0, integrated on the log scale.
#[test]
fn kl_of_the_lognormal_matches_its_closed_form_for_a_singular_gamma() {
    let built = build(
        &[0.0, 0.0, 0.0],
        0.5,
        1.0,
        4.0,
        &[ApproxKind::LogNormal],
        "t",
    )
    .unwrap();
    let (_, results, _) = crate::lab::summary::compare(
        &built.exact,
        built.approximations,
        built.distance_scale.as_ref(),
    );
    let (a, b) = (0.5f64, 4.0f64);
    let psi = -0.577_215_664_901_532_9 - 2.0 * 2f64.ln();
    let trigamma = std::f64::consts::PI.powi(2) / 2.0;
    let e_log_p = a * psi - a - std::f64::consts::PI.sqrt().ln();
    let bias = psi - b.ln() - (a / b).ln();
    let e_log_q = -0.5 * (2.0 * std::f64::consts::PI / a).ln() - a * (trigamma + bias * bias) / 2.0;
    let kl = e_log_p - e_log_q;
    assert!(
        (results[0].kl - kl).abs() < 1e-6,
        "{} vs {kl}",
        results[0].kl
    );
    assert!(results[0].integration.converged);
}

#[test]
fn no_normal_approximation_when_the_mode_is_at_zero() {
    assert!(build(&[0.0, 0.0], 1.0, 1.0, 4.0, &[ApproxKind::Normal], "zeros").is_err());
    assert!(build(
        &[0.0, 0.0],
        1.0,
        1.0,
        4.0,
        &[ApproxKind::LogNormal],
        "zeros"
    )
    .is_ok());
}
