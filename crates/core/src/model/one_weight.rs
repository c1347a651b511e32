//! Test support: the exact posterior of a binary GLM with one weight, by 1-D quadrature. With
//! w ~ N(0, 1/lambda) and rows x_n, ln p(y | X) = ln int prod_n p(y_n | w x_n) N(w; 0, 1/lambda) dw
//! is taken by the midpoint rule on [-40 sd, 40 sd] of the prior with 200,001 cells, summed in
//! log space; the integrand is smooth and its tails are Gaussian, so the rule is exact to about
//! 1e-10 here (halving the cells changes nothing at that level). The approximations' evidences
//! and moments are tested against it.

use crate::model::variational::RowTerms;

/// (ln p(y | X), posterior mean, posterior variance) of the one-weight model.
pub fn exact(x: &[f64], y: &[f64], precision: f64, terms: RowTerms) -> (f64, f64, f64) {
    let sd = precision.powf(-0.5);
    let cells = 200_001;
    let (lo, hi) = (-40.0 * sd, 40.0 * sd);
    let h = (hi - lo) / cells as f64;
    let log_joint = |w: f64| {
        let prior =
            -0.5 * precision * w * w + 0.5 * (precision / (2.0 * std::f64::consts::PI)).ln();
        prior
            - x.iter()
                .zip(y)
                .map(|(&x, &y)| terms(w * x, y).0)
                .sum::<f64>()
    };
    let points: Vec<(f64, f64)> = (0..cells)
        .map(|i| {
            let w = lo + (i as f64 + 0.5) * h;
            (w, log_joint(w))
        })
        .collect();
    let top = points.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
    let (mut z, mut m1, mut m2) = (0.0, 0.0, 0.0);
    for &(w, l) in &points {
        let p = (l - top).exp();
        z += p;
        m1 += p * w;
        m2 += p * w * w;
    }
    let mean = m1 / z;
    (top + (z * h).ln(), mean, m2 / z - mean * mean)
}

/// One feature on 30 rows whose classes overlap: x_n spread over [-2, 2.35], y_n = 1 mostly
/// where x_n > 0.
pub fn rows() -> (Vec<f64>, Vec<f64>) {
    let x: Vec<f64> = (0..30).map(|i| -2.0 + 0.15 * i as f64).collect();
    let y: Vec<f64> = (0..30)
        .map(|i| f64::from(u8::from((i % 7 == 0) ^ (i >= 14))))
        .collect();
    (x, y)
}

#[cfg(test)]
mod tests {
    /// The rule against a closed form: a Gaussian likelihood y_n ~ N(w x_n, 1), whose evidence
    /// is N(y; 0, I + x x^T / lambda) and posterior N(x^T y / (lambda + |x|^2), 1 / (lambda + |x|^2)).
    #[test]
    fn the_quadrature_is_exact_for_a_gaussian_likelihood() {
        fn gaussian(a: f64, y: f64) -> (f64, f64, f64) {
            (
                0.5 * (a - y).powi(2) + 0.5 * (2.0 * std::f64::consts::PI).ln(),
                a - y,
                1.0,
            )
        }
        let (x, _) = super::rows();
        let y: Vec<f64> = x.iter().map(|x| 0.6 * x + (x * 7.0).sin()).collect();
        for lambda in [0.1, 1.0, 10.0] {
            let (log_z, mean, var) = super::exact(&x, &y, lambda, gaussian);
            let xx: f64 = x.iter().map(|v| v * v).sum();
            let xy: f64 = x.iter().zip(&y).map(|(a, b)| a * b).sum();
            let yy: f64 = y.iter().map(|v| v * v).sum();
            let n = x.len() as f64;
            let quad = yy - xy * xy / (lambda + xx);
            let closed = -0.5 * quad
                - 0.5 * (1.0 + xx / lambda).ln()
                - 0.5 * n * (2.0 * std::f64::consts::PI).ln();
            assert!(
                (log_z - closed).abs() < 1e-9,
                "{lambda}: {log_z} vs {closed}"
            );
            assert!((mean - xy / (lambda + xx)).abs() < 1e-10);
            assert!((var * (lambda + xx) - 1.0).abs() < 1e-8);
        }
    }
}
