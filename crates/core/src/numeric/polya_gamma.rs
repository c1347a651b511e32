//! Pólya-Gamma PG(1, z) draws by Devroye's alternating-series method, as in Polson, Scott &
//! Windle (2013, section 4): PG(1, z) = J*(1, z/2) / 4, and J*(1, c) is sampled exactly by
//! proposing from a mixture of a truncated inverse Gaussian (below t = 0.64) and an exponential
//! tail (above it), then accepting with the alternating series of its density. This is the
//! building block of the exact Gibbs sampler for logistic regression: omega_n | w ~ PG(1, x_n^T w).
//!
//! Choosing the proposal's piece needs the mixture probability, whose formula costs two erfc, a
//! log and two exponentials; [`PolyaGamma`] brackets it from a table instead and evaluates the
//! formula only for the few draws the table cannot settle, so the draws are unchanged and
//! cheaper: 2.75 times at the activations of the N = 10,000, D = 20 benchmark
//! (`cargo bench --bench kernels -- "PG draws"`).

use std::f64::consts::PI;

use rand::{Rng, RngExt};
use rand_distr::{Distribution, Exp1, StandardNormal};

use super::special::{log_norm_cdf, norm_cdf};

/// Where the two proposal pieces meet (the value Devroye and Polson et al. use).
const T: f64 = 0.64;

/// The probability of proposing from the exponential tail, p / (p + q), in log space:
/// q/p = (4/pi) [e^{x0 - c + ln Phi(b)} + e^{x0 + c + ln Phi(a)}], x0 = ln K + K t.
/// While K t - c stays below 700, e^{x0 - c} Phi(b) = K e^{K t - c} Phi(b) is taken directly
/// (b >= -1/sqrt(t), so Phi(b) is not small), saving two logarithms; only the second term,
/// where e^{x0 + c} is huge and Phi(a) tiny, needs the log form.
fn tail_probability(c: f64) -> f64 {
    let k = PI * PI / 8.0 + 0.5 * c * c;
    let b = (T * c - 1.0) / T.sqrt();
    let a = -(T * c + 1.0) / T.sqrt();
    let q_over_p = if k * T - c < 700.0 {
        4.0 / PI * k * ((k * T - c).exp() * norm_cdf(b) + (k * T + c + log_norm_cdf(a)).exp())
    } else {
        let x0 = k.ln() + k * T;
        4.0 / PI * ((x0 - c + log_norm_cdf(b)).exp() + (x0 + c + log_norm_cdf(a)).exp())
    };
    1.0 / (1.0 + q_over_p)
}

/// Grid points per unit of c in the bracketing table, and its last point.
const PER_UNIT: f64 = 128.0;
const C_MAX: f64 = 32.0;

/// Relative slack around the table's entries. [`tail_probability`] is accurate to about
/// |K t| 1e-16 relative (the error of e^x grows with |x|; K t < 330 on the table), far inside
/// 1e-9, so outside the slack the table's answer is the formula's.
const SLACK: f64 = 1e-9;

/// A PG(1, z) sampler. The proposal is a_0(x) e^{-c^2 x / 2} (c = |z| / 2), the first term of
/// the J*(1) density's series tilted exponentially in x, and every draw first picks its piece:
/// the exponential tail with probability p(c) = [`tail_probability`]. Exponential tilts have
/// a monotone likelihood ratio, so p(c) = P(X > t) strictly decreases in c, and for c between
/// grid points c_i <= c < c_i+1, p(c_i+1) <= p(c) <= p(c_i). The decision U < p(c) is then
/// settled by the table alone unless U falls between two neighbouring entries (a band of
/// width |p'| / 128, a few draws in a hundred); only there, and beyond c = 32, is the formula
/// evaluated. The draws are the ones the formula would give, without its two erfc, log and
/// exp per row.
#[derive(Debug, Clone)]
pub struct PolyaGamma {
    /// p(i / PER_UNIT) for i = 0 ..= C_MAX PER_UNIT.
    tail: Vec<f64>,
}

impl Default for PolyaGamma {
    fn default() -> Self {
        Self::new()
    }
}

impl PolyaGamma {
    /// Tabulate p(c) (4,097 evaluations of the formula, well under a millisecond).
    pub fn new() -> Self {
        let points = (C_MAX * PER_UNIT) as usize;
        PolyaGamma {
            tail: (0..=points)
                .map(|i| tail_probability(i as f64 / PER_UNIT))
                .collect(),
        }
    }

    /// The same sampler with no table: the formula is evaluated for every draw, as Polson,
    /// Scott & Windle write the algorithm. The draws are the same; the benchmark's baseline.
    pub fn untabulated() -> Self {
        PolyaGamma { tail: Vec::new() }
    }

    /// Whether the uniform `u` picks the exponential tail, i.e. u < p(c); `exact` caches p(c)
    /// once the formula has been needed for this draw (NaN until then).
    fn picks_tail(&self, c: f64, u: f64, exact: &mut f64) -> bool {
        if (0.0..C_MAX).contains(&c) && !self.tail.is_empty() {
            // c * 128 is exact, so i is the grid point at or below c.
            let i = (c * PER_UNIT) as usize;
            if u < self.tail[i + 1] * (1.0 - SLACK) {
                return true;
            }
            if u >= self.tail[i] * (1.0 + SLACK) {
                return false;
            }
        }
        if exact.is_nan() {
            *exact = tail_probability(c);
        }
        u < *exact
    }

    /// One draw from PG(1, z).
    pub fn sample<R: Rng + ?Sized>(&self, z: f64, rng: &mut R) -> f64 {
        let c = 0.5 * z.abs();
        let k = PI * PI / 8.0 + 0.5 * c * c;
        let mut exact = f64::NAN;
        loop {
            let x = if self.picks_tail(c, rng.random::<f64>(), &mut exact) {
                let e: f64 = Exp1.sample(rng);
                T + e / k
            } else {
                truncated_inverse_gaussian(c, rng)
            };
            if accepted(x, rng) {
                return 0.25 * x;
            }
        }
    }
}

/// Devroye's acceptance test for a proposal x: with the series' terms
/// a_n(x) = pre (n + 1/2) e^{-(2n+1)^2 q} (q = pi^2 x / 8 above t, 1 / (2x) below; the common
/// factor pre cancels), accept when U a_0 falls below a partial sum S_n for odd n and reject
/// when it rises above one for even n. Almost every draw is settled at n = 1, whose term
/// e^{-9q} = (e^{-q})^9 costs no second exponential.
fn accepted<R: Rng + ?Sized>(x: f64, rng: &mut R) -> bool {
    let q = if x > T { PI * PI / 8.0 * x } else { 0.5 / x };
    let e1 = (-q).exp();
    let e8 = (e1 * e1).powi(4);
    let mut s = 0.5 * e1;
    let y = rng.random::<f64>() * s;
    s -= 1.5 * e8 * e1;
    if y <= s {
        return true;
    }
    for n in 2u32.. {
        let m = f64::from(2 * n + 1);
        let term = (f64::from(n) + 0.5) * (-m * m * q).exp();
        if n % 2 == 1 {
            s -= term;
            if y <= s {
                return true;
            }
        } else {
            s += term;
            if y > s {
                return false;
            }
        }
    }
    unreachable!("the alternating series settles every draw")
}

/// Inverse Gaussian IG(mu = 1/c, lambda = 1) truncated to (0, t).
fn truncated_inverse_gaussian<R: Rng + ?Sized>(c: f64, rng: &mut R) -> f64 {
    let mu = if c > 0.0 { 1.0 / c } else { f64::INFINITY };
    if mu > T {
        // 1/X is a truncated chi-square(1) proposal, accepted with prob exp(-c^2 X / 2).
        loop {
            let (mut e1, mut e2): (f64, f64) = (Exp1.sample(rng), Exp1.sample(rng));
            while e1 * e1 > 2.0 * e2 / T {
                e1 = Exp1.sample(rng);
                e2 = Exp1.sample(rng);
            }
            let x = T / ((1.0 + T * e1) * (1.0 + T * e1));
            if rng.random::<f64>() <= (-0.5 * c * c * x).exp() {
                return x;
            }
        }
    } else {
        // Michael, Schucany & Haas's transformation, repeated until below t.
        loop {
            let n: f64 = StandardNormal.sample(rng);
            let y = n * n;
            let mut x =
                mu + 0.5 * mu * mu * y - 0.5 * mu * (4.0 * mu * y + (mu * y) * (mu * y)).sqrt();
            if rng.random::<f64>() > mu / (mu + x) {
                x = mu * mu / x;
            }
            if x < T {
                return x;
            }
        }
    }
}

/// E[omega] for omega ~ PG(1, z): tanh(z/2) / (2z), 1/4 at z = 0.
pub fn mean(z: f64) -> f64 {
    let z = z.abs();
    if z < 1e-6 {
        0.25 - z * z / 48.0
    } else {
        (0.5 * z).tanh() / (2.0 * z)
    }
}

/// Var[omega] for omega ~ PG(1, z): (sinh z - z) / (4 z^3 cosh^2(z/2)), 1/24 at z = 0. Below
/// |z| = 1/2, sinh z - z comes from its series, which has no cancellation.
pub fn variance(z: f64) -> f64 {
    let z = z.abs();
    let c2 = (0.5 * z).cosh().powi(2);
    if z < 0.5 {
        let z2 = z * z;
        // (sinh z - z) / z^3 = 1/3! + z^2/5! + z^4/7! + z^6/9! + z^8/11!
        let s = 1.0 / 6.0
            + z2 * (1.0 / 120.0 + z2 * (1.0 / 5040.0 + z2 * (1.0 / 362_880.0 + z2 / 39_916_800.0)));
        s / (4.0 * c2)
    } else {
        (z.sinh() - z) / (4.0 * z.powi(3) * c2)
    }
}

#[cfg(test)]
#[path = "polya_gamma_tests.rs"]
mod tests;
