//! Tests of the sequential logistic sums against the Newton pass.

use super::*;
use crate::model::logistic::row_terms;
use crate::numeric::glm;

/// Rows and columns of several shapes, activations from about 0 to several hundred.
fn case(n: usize, d: usize, scale: f64) -> (Mat<f64>, Vec<f64>, Vec<f64>) {
    let x = Mat::<f64>::from_fn(n, d, |i, j| ((i * 7 + j * 13) as f64 * 0.37).sin());
    let y = (0..n).map(|i| f64::from(u8::from(i % 3 == 1))).collect();
    let w = (0..d)
        .map(|j| scale * ((j as f64) * 1.3 + 0.4).cos())
        .collect();
    (x, y, w)
}

#[test]
fn the_pass_agrees_with_the_newton_pass() {
    // glm::accumulate with logistic::row_terms (libm's exp and ln_1p, tested against
    // finite differences there) is the reference.
    for (n, d, scale) in [
        (1, 1, 0.5),
        (7, 3, 2.0),
        (129, 5, 0.01),
        (1000, 20, 1.0),
        (1003, 20, 60.0),
        (300, 2, 400.0),
    ] {
        let (x, y, w) = case(n, d, scale);
        let (value, gradient) = value_and_gradient(&x, &y, &w);
        let want = glm::accumulate(x.as_ref(), &y, &w, false, &row_terms);
        assert!(
            (value - want.value).abs() <= 1e-13 * want.value.abs().max(1.0),
            "{n}x{d} at scale {scale}: E {value} vs {}",
            want.value
        );
        let size = want.gradient.iter().map(|g| g.abs()).fold(1.0, f64::max);
        for (g, h) in gradient.iter().zip(&want.gradient) {
            assert!((g - h).abs() <= 1e-13 * size, "{n}x{d}: {g} vs {h}");
        }
    }
}
