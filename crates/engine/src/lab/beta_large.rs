//! The Beta(a, b) density, CDF and quantiles when both shapes are large, where statrs is
//! wrong: its CDF at the mean is 6.9 at (1e9, 2e9) and 1268 at (3e14, 7e14), 0.9456 one sd
//! above the mean at the latter (Phi(1) = 0.8413), and its log density has an ulp of 1/32
//! there. The quantile's bisection on that CDF did not finish. Every function here costs
//! O(1) in the shapes.
//!
//! With r = a + b, x0 = a / r, s = sqrt(x0 (1 - x0)), t = x - x0 and
//! eta = sign(t) sqrt(2 q), q = x0 dml(t / x0) + (1 - x0) dml(-t / (1 - x0)),
//! dml(d) = d - ln(1 + d) (so that x^a (1 - x)^b = x0^a (1 - x0)^b e^(-r q), no cancellation):
//! - log density: ln p(x) = ln(sqrt(r / 2 pi) s E) - r q - ln(x (1 - x)), where
//!   E = Gamma*(r) / (Gamma*(a) Gamma*(b)) and ln Gamma*(a) = stirlerr(a) is Stirling's
//!   remainder, so that ln B(a, b) never subtracts terms of size a ln a;
//! - CDF by Temme's uniform asymptotic expansion for large a + b (Temme 1996, 11.3.3;
//!   DLMF 8.18.ii): with dx / (x (1 - x)) = eta deta / t the density in eta is
//!   sqrt(r / 2 pi) e^(-r eta^2 / 2) E g(eta), g = s eta / t, g -> 1 as eta -> 0, and two
//!   integrations by parts give
//!   I_x(a, b) = Phi(eta sqrt r) - e^(-r eta^2 / 2) / sqrt(2 pi r) E (c0 + c1 / r + O(r^-2)),
//!   c0 = s / t - 1 / eta, c1 = (c0'(eta) - c0'(0)) / eta,
//!   c0'(eta) = 1 / eta^2 - s eta x (1 - x) / t^3.
//!   Near t = 0 these differences cancel; there they are interpolated (cubic, from
//!   t = +-h, +-2h where the closed forms are still accurate);
//! - quantile: the Cornish-Fisher start x0 + sd (z + skew (z^2 - 1) / 6), then Newton on x
//!   (one CDF and one density a step), at most [`NEWTON_STEPS`].
//!
//! The omitted term is O(r^-2.5) (min(a, b) ~ r x0 (1 - x0) is what has to be large: the
//! c_k grow like 1 / s^k). It is switched on from min(a, b) = [`LARGE_SHAPE`].

use statrs::distribution::{ContinuousCDF, Normal};

use super::gamma_large::{d_minus_log1p, stirlerr};
use bayeslab_core::numeric::special::{norm_cdf, LN_SQRT_2PI};

/// From this smaller shape on, [`super::dist::Dist::Beta`] uses this module, not statrs.
pub const LARGE_SHAPE: f64 = 1e4;

/// Whether Beta(a, b) is in this module's range.
pub fn applies(a: f64, b: f64) -> bool {
    a.min(b) >= LARGE_SHAPE
}

const NEWTON_STEPS: usize = 50;

/// Interpolation half-widths, relative to min(x0, 1 - x0) (the radius of convergence in t):
/// c0 cancels like eps / eta, c1 like eps / eta^3.
const H_C0: f64 = 1e-3;
const H_C1: f64 = 2e-2;

struct Shape {
    r: f64,
    x0: f64,
    s: f64,
    /// ln E = stirlerr(r) - stirlerr(a) - stirlerr(b)
    ln_e: f64,
}

impl Shape {
    fn new(a: f64, b: f64) -> Self {
        let r = a + b;
        Shape {
            r,
            x0: a / r,
            s: (a.sqrt() * b.sqrt()) / r,
            ln_e: stirlerr(r) - stirlerr(a) - stirlerr(b),
        }
    }

    /// q(x) = eta^2 / 2, as above.
    fn q(&self, x: f64) -> f64 {
        let t = x - self.x0;
        self.x0 * d_minus_log1p(t / self.x0) + (1.0 - self.x0) * d_minus_log1p(-t / (1.0 - self.x0))
    }

    fn eta(&self, x: f64) -> f64 {
        (x - self.x0).signum() * (2.0 * self.q(x)).sqrt()
    }

    fn c0_raw(&self, t: f64) -> f64 {
        self.s / t - 1.0 / self.eta(self.x0 + t)
    }

    fn c0p_raw(&self, t: f64) -> f64 {
        let x = self.x0 + t;
        let eta = self.eta(x);
        1.0 / (eta * eta) - self.s * eta * x * (1.0 - x) / (t * t * t)
    }

    fn scale(&self) -> f64 {
        self.x0.min(1.0 - self.x0)
    }

    /// (c0, c1) at t = x - x0.
    fn coefficients(&self, t: f64) -> (f64, f64) {
        let m = self.scale();
        let h1 = H_C1 * m;
        let c0p0 = lagrange4(|u| self.c0p_raw(u), h1, 0.0);
        let c1 = |u: f64| (self.c0p_raw(u) - c0p0) / self.eta(self.x0 + u);
        let c0 = if t.abs() < H_C0 * m {
            lagrange4(|u| self.c0_raw(u), H_C0 * m, t)
        } else {
            self.c0_raw(t)
        };
        let c1 = if t.abs() < h1 {
            lagrange4(c1, h1, t)
        } else {
            c1(t)
        };
        (c0, c1)
    }
}

/// The cubic through f at -2h, -h, h, 2h, evaluated at t.
fn lagrange4(f: impl Fn(f64) -> f64, h: f64, t: f64) -> f64 {
    let nodes = [-2.0 * h, -h, h, 2.0 * h];
    let mut sum = 0.0;
    for (i, &ni) in nodes.iter().enumerate() {
        let mut w = 1.0;
        for (j, &nj) in nodes.iter().enumerate() {
            if i != j {
                w *= (t - nj) / (ni - nj);
            }
        }
        sum += w * f(ni);
    }
    sum
}

pub fn ln_pdf(a: f64, b: f64, x: f64) -> f64 {
    if !(x > 0.0 && x < 1.0) {
        return f64::NEG_INFINITY;
    }
    let sh = Shape::new(a, b);
    0.5 * sh.r.ln() - LN_SQRT_2PI + sh.s.ln() + sh.ln_e - sh.r * sh.q(x) - x.ln() - (-x).ln_1p()
}

/// P(X <= x) for X ~ Beta(a, b), by Temme's expansion (module docs).
pub fn cdf(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let sh = Shape::new(a, b);
    let (c0, c1) = sh.coefficients(x - sh.x0);
    let y = sh.eta(x) * sh.r.sqrt();
    let lead = (-sh.r * sh.q(x) + sh.ln_e).exp() / (2.0 * std::f64::consts::PI * sh.r).sqrt();
    (norm_cdf(y) - lead * (c0 + c1 / sh.r)).clamp(0.0, 1.0)
}

/// The p-quantile, 0 < p < 1: Cornish-Fisher's start with the skewness term, then Newton on
/// x, x <- x - (P(x) - p) / p(x), each step kept inside (x / 2, (1 + x) / 2).
pub fn quantile(a: f64, b: f64, p: f64) -> f64 {
    let z = Normal::standard().inverse_cdf(p);
    let r = a + b;
    let sd = (a / r) * (b / r) / (r + 1.0);
    let sd = sd.sqrt();
    let skew = 2.0 * (b - a) * (r + 1.0).sqrt() / ((r + 2.0) * a.sqrt() * b.sqrt());
    let start = a / r + sd * (z + skew * (z * z - 1.0) / 6.0);
    let mut x = start.clamp(f64::MIN_POSITIVE, 1.0 - f64::EPSILON);
    for _ in 0..NEWTON_STEPS {
        let step = (cdf(a, b, x) - p) / ln_pdf(a, b, x).exp();
        if !step.is_finite() {
            break;
        }
        let next = (x - step).clamp(0.5 * x, 0.5 * (1.0 + x));
        let moved = (next - x).abs();
        x = next;
        if moved <= 1e-15 * x.min(1.0 - x) {
            break;
        }
    }
    x
}

#[cfg(test)]
#[path = "beta_large_tests.rs"]
mod tests;
