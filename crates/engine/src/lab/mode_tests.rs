//! Tests of the general mode finder: a Gaussian's mean and precision, and an error (not a
//! panic) without a mode.

use super::*;

/// A correlated 2-D Gaussian written only as a log density: the numerical path must
/// recover its mean and precision.
struct Gauss;
impl LogDensity for Gauss {
    fn dim(&self) -> usize {
        2
    }
    fn ln_density(&self, x: &[f64]) -> f64 {
        let (a, b) = (x[0] - 1.0, x[1] + 2.0);
        -0.5 * (2.0 * a * a + 2.0 * a * b + 3.0 * b * b)
    }
}

#[test]
fn numerical_newton_finds_a_gaussian_mean_and_precision() {
    let m = find_mode(&Gauss, vec![5.0, 5.0], "gauss").unwrap();
    assert!((m.x[0] - 1.0).abs() < 1e-8 && (m.x[1] + 2.0).abs() < 1e-8);
    let j = &m.information;
    for (i, k, want) in [(0, 0, 2.0), (0, 1, 1.0), (1, 1, 3.0)] {
        assert!(
            (j[(i, k)] - want).abs() < 1e-6,
            "J[{i},{k}] = {}",
            j[(i, k)]
        );
    }
    // det J = 5, so ln Z = ln(2π) - ln(5)/2 for the unnormalised Gaussian.
    let want = (2.0 * std::f64::consts::PI).ln() - 0.5 * 5f64.ln();
    assert!((m.ln_evidence() - want).abs() < 1e-6);
}

#[test]
fn a_density_without_a_mode_is_an_error_not_a_panic() {
    struct Exp;
    impl LogDensity for Exp {
        fn dim(&self) -> usize {
            1
        }
        fn ln_density(&self, x: &[f64]) -> f64 {
            x[0]
        }
    }
    assert!(find_mode(&Exp, vec![0.0], "exp").is_err());
}
