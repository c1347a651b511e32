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
mod tests {
    use super::*;
    use crate::lab::dist::Dist;

    #[test]
    fn a_shape_of_one_is_exact() {
        // I_x(1, b) = 1 - (1 - x)^b, x_p = 1 - (1 - p)^(1 / b)
        for b in [1e6, 1e10, 1e15] {
            for p in [1e-10f64, 0.025, 0.5, 0.975, 1.0 - 1e-10] {
                let want = -((-p).ln_1p() / b).exp_m1();
                let got = quantile(1.0, b, p);
                // (near p = 1, P itself resolves 1 - p only to 1e-16 absolute)
                let tol = 1e-9 + 1e-16 / (1.0 - p);
                assert!(
                    (got / want - 1.0).abs() < tol,
                    "b = {b}, p = {p}: {got} vs {want}"
                );
                let f = cdf(1.0, b, want);
                assert!(
                    (f - p).abs() < 1e-9 * p.min(1.0 - p) + 1e-15,
                    "P = {f} at p = {p}"
                );
                // density b (1 - x)^(b - 1)
                let ln_f = b.ln() + (b - 1.0) * (-want).ln_1p();
                assert!(
                    (ln_pdf(1.0, b, want) - ln_f).abs() < 1e-9,
                    "ln p at p = {p}"
                );
            }
        }
    }

    #[test]
    fn cdf_matches_40_digit_values_where_statrs_does_not() {
        // mpmath at 40 digits (as in beta_large's tests); statrs is off by 1.8e-5
        let (a, b, x, want) = (5.0, 1e10, 4.9999999975e-10, 0.5595067148909207);
        assert!((cdf(a, b, x) - want).abs() < 1e-13, "{}", cdf(a, b, x));
        assert!(applies(a, b) && applies(b, a) && !applies(5.0, 1e6) && !applies(1e4, 1e15));
    }

    #[test]
    fn the_mirror_image_is_one_minus_x() {
        let (a, b) = (7.5, 3e12);
        let x = 2f64.powi(-40); // 1 - x is exact
        assert!((cdf(b, a, 1.0 - x) - (1.0 - cdf(a, b, x))).abs() < 1e-15);
        assert!((ln_pdf(b, a, 1.0 - x) - ln_pdf(a, b, x)).abs() < 1e-9);
        for p in [1e-10, 0.3, 0.975] {
            let (q, mirror) = (quantile(a, b, p), quantile(b, a, 1.0 - p));
            // (1 - mirror has an absolute rounding of an ulp of 1)
            let tol = 1e-9 + 2.0 * f64::EPSILON / q;
            assert!(
                ((1.0 - mirror) / q - 1.0).abs() < tol,
                "p = {p}: {q} vs {mirror}"
            );
        }
    }

    #[test]
    fn between_the_ranges_quantiles_finish_near_the_gamma_limit() {
        // statrs' inverse CDF cycled forever here; the bisection on its CDF from the normal
        // start agrees with the Gamma limit (error <= 1e-10 here) to statrs' CDF accuracy.
        for (a, b) in [(51.0, 2e7), (1001.0, 1e8), (5001.0, 1e9)] {
            let d = Dist::Beta { a, b };
            for p in [1e-10, 0.025, 0.5, 0.975] {
                let (q, g) = (d.quantile(p), quantile(a, b, p));
                assert!(
                    (q / g - 1.0).abs() < 1e-8,
                    "({a}, {b}), p = {p}: {q} vs {g}"
                );
            }
        }
    }
}
