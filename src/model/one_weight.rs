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
