//! Tests of Gauss-Hermite quadrature: weights, nodes, normal moments and the probit integral.

use super::*;
use crate::numeric::special::norm_cdf;

#[test]
fn weights_sum_to_sqrt_pi_and_nodes_are_symmetric() {
    for n in [1, 2, 5, 20, 64, 100, 150] {
        let gh = GaussHermite::new(n);
        let total: f64 = gh.weights().iter().sum();
        assert!(
            (total - std::f64::consts::PI.sqrt()).abs() < 1e-12,
            "n = {n}: {total}"
        );
        for i in 0..n {
            assert!((gh.nodes()[i] + gh.nodes()[n - 1 - i]).abs() < 1e-12);
        }
        // strictly decreasing nodes: no root was found twice
        assert!(gh.nodes().windows(2).all(|w| w[0] > w[1]), "n = {n}");
    }
}

#[test]
fn two_point_rule_is_the_textbook_one() {
    let gh = GaussHermite::new(2);
    let x = std::f64::consts::FRAC_1_SQRT_2;
    assert!((gh.nodes()[0] - x).abs() < 1e-15);
    assert!((gh.weights()[0] - std::f64::consts::PI.sqrt() / 2.0).abs() < 1e-15);
}

#[test]
fn normal_moments_are_exact() {
    // E[a^k] of N(0, 1) is (k-1)!! for even k; exact for k <= 2n - 1.
    let gh = GaussHermite::new(10);
    let moments = [(2, 1.0), (4, 3.0), (6, 15.0), (8, 105.0), (10, 945.0)];
    for (k, want) in moments {
        let got = gh.expect_normal(0.0, 1.0, |a| a.powi(k));
        assert!((got - want).abs() < 1e-10 * want, "E[a^{k}] = {got}");
    }
    let m = gh.expect_normal(1.5, 4.0, |a| a);
    assert!((m - 1.5).abs() < 1e-13);
}

#[test]
fn probit_integral_matches_closed_form() {
    // E[Phi(a)] for a ~ N(m, s2) is Phi(m / sqrt(1 + s2)) (docs/maths.md 1.4).
    // Gauss-Hermite converges fast for small variances and slowly for large ones (the
    // integrand becomes a steep step on the scale of the nodes): 64 nodes give ~1e-11 at
    // s2 <= 1, 100 nodes ~1e-9 at s2 = 10.
    for (n, m, s2, tol) in [
        (64, 0.3, 0.5, 1e-11),
        (64, -2.0, 1.0, 1e-11),
        (100, 1.0, 10.0, 1e-8),
    ] {
        let got = GaussHermite::new(n).expect_normal(m, s2, norm_cdf);
        let want = norm_cdf(m / (1.0 + s2).sqrt());
        assert!((got - want).abs() < tol, "m={m}, s2={s2}: {got} vs {want}");
    }
}
