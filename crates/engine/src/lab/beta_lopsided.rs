//! Beta(a, b) with one shape small (below [`LARGE_SHAPE`], out of [`super::beta_large`]'s
//! range) and the other at least [`RATIO`] times larger, as 5 successes of 1e15 trials give.
//! statrs is wrong there (its CDF is off by 1.8e-5 at the median of Beta(5, 1e10)) and the
//! quantile's bisection on it ran past 60 s at Beta(6, 1e15).
//!
//! With a <= b and beta = b + (a - 1) / 2, Beta(a, b) is the law of 1 - e^(-Y / beta),
//! Y ~ Gamma(a, 1), up to O((a / b)^2) (DiDonato and Morris' BGRAT, leading term; the
//! mean 1 - (1 + 1 / beta)^-a agrees with a / (a + b) through (a / b)^2 and the law is
//! exact for a = 1, I_x(1, b) = 1 - (1 - x)^b). From [`RATIO`] on the error is below
//! 1e-12, and the Gamma is a small-shape one, where statrs is fast and accurate. a > b is
//! the mirror image x -> 1 - x.

use super::beta_large::LARGE_SHAPE;
use super::gamma;
use statrs::distribution::{Beta, ContinuousCDF, Normal};

/// The smallest ratio of the larger to the smaller shape (at least 1) for this module.
pub const RATIO: f64 = 1e6;

/// Whether Beta(a, b) is in this module's range.
pub fn applies(a: f64, b: f64) -> bool {
    let (lo, hi) = (a.min(b), a.max(b));
    lo < LARGE_SHAPE && hi >= RATIO * lo.max(1.0)
}

/// The Gamma of Y for the smaller shape, and whether a > b (X = e^(-Y / beta) then).
fn limit(a: f64, b: f64) -> (Limit, bool) {
    let (lo, hi) = (a.min(b), a.max(b));
    let g = Limit {
        shape: lo,
        rate: hi + (lo - 1.0) / 2.0,
    };
    (g, a > b)
}

/// Gamma(shape, rate), the law of Y.
struct Limit {
    shape: f64,
    rate: f64,
}

impl Limit {
    fn ln_pdf(&self, y: f64) -> f64 {
        gamma::ln_pdf(self.shape, self.rate, y)
    }

    fn cdf(&self, y: f64) -> f64 {
        gamma::cdf(self.shape, self.rate, y)
    }

    fn quantile(&self, p: f64) -> f64 {
        gamma::quantile(self.shape, self.rate, p)
    }
}

pub fn ln_pdf(a: f64, b: f64, x: f64) -> f64 {
    let (g, mirrored) = limit(a, b);
    // ln(1 - X) = -Y / beta (or ln X when mirrored), |dY / dx| = beta / (1 - x) (or / x)
    let ln_rest = if mirrored { x.ln() } else { (-x).ln_1p() };
    g.ln_pdf(-ln_rest) - ln_rest
}

pub fn cdf(a: f64, b: f64, x: f64) -> f64 {
    let (g, mirrored) = limit(a, b);
    if mirrored {
        1.0 - g.cdf(-x.ln())
    } else {
        g.cdf(-(-x).ln_1p())
    }
}

pub fn quantile(a: f64, b: f64, p: f64) -> f64 {
    let (g, mirrored) = limit(a, b);
    if mirrored {
        (-g.quantile(1.0 - p)).exp()
    } else {
        -(-g.quantile(p)).exp_m1()
    }
}

/// A start for [`Dist::quantile`]'s bisection outside both modules' ranges. statrs' inverse
/// CDF (AS 109) is used only while a + b < [`STATRS_START`]: its Newton loop has no bound
/// and cycled forever at Beta(51, 2e7), Beta(1001, 1e8) and Beta(5001, 1e9); above, the
/// normal start mean + z sd (the bisection widens its bracket from there).
pub fn start(a: f64, b: f64, p: f64) -> f64 {
    if a + b < STATRS_START {
        return Beta::new(a, b).expect("validated").inverse_cdf(p);
    }
    let (r, z) = (a + b, Normal::standard().inverse_cdf(p));
    let sd = ((a / r) * (b / r) / (r + 1.0)).sqrt();
    (a / r + z * sd).clamp(f64::MIN_POSITIVE, 1.0 - f64::EPSILON)
}

const STATRS_START: f64 = 1e6;

#[cfg(test)]
#[path = "beta_lopsided_tests.rs"]
mod tests;
