//! The Gamma(shape a, rate b) density, CDF and quantiles for large shapes, where statrs is
//! wrong and slow: its log density subtracts terms of size a ln a (at a = 1e15 the rounding
//! is several units of log density), its CDF at a + sqrt(a) is 0.8417 at a = 1e12 and 0.9966
//! at a = 1e15 (Phi(1) = 0.8413), and its inverse CDF takes seconds there. Every function
//! here costs O(1) in a.
//!
//! With lambda = b x / a = 1 + d:
//! - log density (Loader's saddle-point form, as R's dgamma):
//!   ln p(x) = ln b - ln(2 pi a) / 2 - ln lambda - a (lambda - 1 - ln lambda) - stirlerr(a),
//!   stirlerr(a) = ln Gamma(a) - (a - 1/2) ln a + a - ln(2 pi) / 2;
//! - CDF by Temme's uniform asymptotic expansion (DLMF 8.12.3-8.12.9): with
//!   eta = sign(d) sqrt(2 (lambda - 1 - ln lambda)) and y = eta sqrt(a),
//!   P(a, b x) = Phi(y) - exp(-y^2 / 2) / sqrt(2 pi a) (c0(eta) + c1(eta) / a + O(a^-2)),
//!   c0 = 1/d - 1/eta, c1 = 1/eta^3 - 1/d^3 - 1/d^2 - 1/(12 d), by their Taylor series in d
//!   near d = 0 where those differences cancel;
//! - quantile: Wilson-Hilferty's cube-root normal start, then Newton on x (each step one
//!   CDF and one density), at most [`NEWTON_STEPS`].
//!
//! The omitted term is c2(eta) / a^2 with c2(0) = 25/6048: against 40-digit values of
//! x^a e^-x 1F1(1; a + 1; x) / Gamma(a + 1), the CDF is off by 1.7e-3 a^-2.5 at the centre
//! (5e-11 at a = 1e3, 2e-13 at a = 1e4, the switch from statrs) and by less in the tails,
//! relative to the tail mass (4e-12 at 9 sd below the mean at a = 1e4).

use statrs::distribution::{ContinuousCDF, Normal};

use bayeslab_core::numeric::special::{norm_cdf, LN_SQRT_2PI};

/// From this shape on, [`super::dist::Dist::Gamma`] uses this module instead of statrs.
pub const LARGE_SHAPE: f64 = 1e4;

const NEWTON_STEPS: usize = 50;

/// Taylor coefficients of c0 and c1 in d at 0 (computed by a Cauchy contour integral in
/// 40-digit arithmetic; c0(0) = -1/3 and c1(0) = -1/540 are DLMF 8.12.9's).
const C0: [f64; 16] = [
    -0.3333333333333333,
    0.08333333333333333,
    -0.04259259259259259,
    0.027237654320987653,
    -0.01947751322751323,
    0.01489620076425632,
    -0.011915478640015678,
    0.009842230520037232,
    -0.008328093512180232,
    0.007180348385069859,
    -0.006284419272101214,
    0.005568252617885114,
    -0.004984445684415658,
    0.004500636357257656,
    -0.0040940356694601585,
    0.0037481681888972334,
];
const C1: [f64; 16] = [
    -0.001851851851851852,
    -0.003472222222222222,
    0.0038029100529100527,
    -0.003429049088771311,
    0.002988131981187537,
    -0.0025972581998334313,
    0.002270865542818775,
    -0.002001612631813119,
    0.001778942744616595,
    -0.0015934139242758903,
    0.001437430583748347,
    -0.001305075568638374,
    0.0011917732719073143,
    -0.0010939765389837166,
    0.0010089168019233184,
    -0.0009344146308307523,
];

/// Below this |d| the series are used (their terms fall by 10 per power, so 16 terms are
/// below 1e-18); above it the closed forms lose at most ~1e-12 relative.
const SERIES_D: f64 = 0.1;

fn horner(c: &[f64], d: f64) -> f64 {
    c.iter().rev().fold(0.0, |acc, &k| acc * d + k)
}

/// lambda - 1 - ln lambda for lambda = 1 + d, without the cancellation near d = 0: with
/// u = d / (2 + d), ln(1 + d) = 2 atanh(u) and 2 u - d = -d^2 / (2 + d), so
/// d - ln(1 + d) = d^2 / (2 + d) - 2 (u^3/3 + u^5/5 + ...).
pub(super) fn d_minus_log1p(d: f64) -> f64 {
    if d.abs() >= 0.5 {
        return d - d.ln_1p();
    }
    let u = d / (2.0 + d);
    let u2 = u * u;
    let (mut term, mut sum) = (u * u2, 0.0);
    for k in (3..60).step_by(2) {
        let next = term / k as f64;
        sum += next;
        if next.abs() <= 1e-17 * sum.abs() {
            break;
        }
        term *= u2;
    }
    d * d / (2.0 + d) - 2.0 * sum
}

/// ln Gamma(a) - ((a - 1/2) ln a - a + ln(2 pi) / 2), by its asymptotic series (exact to
/// rounding for a >= 10).
pub(super) fn stirlerr(a: f64) -> f64 {
    let r = 1.0 / (a * a);
    (1.0 / 12.0 - r * (1.0 / 360.0 - r * (1.0 / 1260.0 - r / 1680.0))) / a
}

pub fn ln_pdf(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return f64::NEG_INFINITY;
    }
    let lambda = b * x / a;
    b.ln()
        - 0.5 * a.ln()
        - LN_SQRT_2PI
        - lambda.ln()
        - a * d_minus_log1p(lambda - 1.0)
        - stirlerr(a)
}

/// P(X <= x) for X ~ Gamma(a, b), by Temme's expansion (module docs).
pub fn cdf(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x == f64::INFINITY {
        return 1.0;
    }
    let d = b * x / a - 1.0;
    if d == 0.0 {
        // eta = 0: Phi(0) - (c0 + c1 / a) / sqrt(2 pi a)
        return 0.5 - (C0[0] + C1[0] / a) / (2.0 * std::f64::consts::PI * a).sqrt();
    }
    let eta = d.signum() * (2.0 * d_minus_log1p(d)).sqrt();
    let (c0, c1) = if d.abs() < SERIES_D {
        (horner(&C0, d), horner(&C1, d))
    } else {
        (
            1.0 / d - 1.0 / eta,
            eta.powi(-3) - d.powi(-3) - d.powi(-2) - 1.0 / (12.0 * d),
        )
    };
    let y = eta * a.sqrt();
    let r = (-0.5 * y * y).exp() / (2.0 * std::f64::consts::PI * a).sqrt() * (c0 + c1 / a);
    (norm_cdf(y) - r).clamp(0.0, 1.0)
}

/// The p-quantile, 0 < p < 1: Wilson-Hilferty's
/// x = (a / b) (1 - 1/(9a) + z / (3 sqrt a))^3, z = Phi^-1(p), then Newton on x,
/// x <- x - (P(x) - p) / p(x). (Newton on ln x would be safer far from the answer, but ln x
/// has an ulp of x * 1e-15, several units at x = 1e15, where the sd is only ~3e7.) For
/// shape >= [`LARGE_SHAPE`] the start is within 1e-3 sd of the answer in the central range
/// and Newton converges in a few steps; a step is at most a halving of x.
pub fn quantile(a: f64, b: f64, p: f64) -> f64 {
    let z = Normal::standard().inverse_cdf(p);
    let c = 1.0 - 1.0 / (9.0 * a) + z / (3.0 * a.sqrt());
    let mut x = a / b * c.max(0.1).powi(3);
    for _ in 0..NEWTON_STEPS {
        let step = (cdf(a, b, x) - p) / ln_pdf(a, b, x).exp();
        if !step.is_finite() {
            break;
        }
        let next = (x - step).max(0.5 * x);
        let moved = (next - x).abs();
        x = next;
        if moved <= 1e-15 * x {
            break;
        }
    }
    x
}

#[cfg(test)]
#[path = "gamma_large_tests.rs"]
mod tests;
