//! Pólya-Gamma PG(1, z) draws by Devroye's alternating-series method, as in Polson, Scott &
//! Windle (2013, section 4): PG(1, z) = J*(1, z/2) / 4, and J*(1, c) is sampled exactly by
//! proposing from a mixture of a truncated inverse Gaussian (below t = 0.64) and an exponential
//! tail (above it), then accepting with the alternating series of its density. This is the
//! building block of the exact Gibbs sampler for logistic regression: omega_n | w ~ PG(1, x_n^T w).

use std::f64::consts::PI;

use rand::{Rng, RngExt};
use rand_distr::{Distribution, Exp1, StandardNormal};

use super::special::{log_norm_cdf, norm_cdf};

/// Where the two proposal pieces meet (the value Devroye and Polson et al. use).
const T: f64 = 0.64;

/// The n-th term of the alternating series for the J*(1) density, on the piece containing x:
/// `pre` is the factor that does not depend on n ([`prefactor`]).
fn a(n: u32, x: f64, pre: f64) -> f64 {
    let k = f64::from(n) + 0.5;
    if x > T {
        pre * k * (-0.5 * k * k * PI * PI * x).exp()
    } else {
        pre * k * (-2.0 * k * k / x).exp()
    }
}

/// pi above t, pi (2 / (pi x))^{3/2} below: computed once per proposal, not once per term.
fn prefactor(x: f64) -> f64 {
    if x > T {
        PI
    } else {
        let u = 2.0 / (PI * x);
        PI * u * u.sqrt()
    }
}

/// The probability of proposing from the exponential tail, p / (p + q), in log space:
/// q/p = (4/pi) [e^{x0 - c + ln Phi(b)} + e^{x0 + c + ln Phi(a)}], x0 = ln K + K t.
/// While K t - c stays below 700, e^{x0 - c} Phi(b) = K e^{K t - c} Phi(b) is taken directly
/// (b >= -1/sqrt(t), so Phi(b) is not small), saving two logarithms per draw; only the second
/// term, where e^{x0 + c} is huge and Phi(a) tiny, needs the log form.
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

/// One draw from PG(1, z).
pub fn sample<R: Rng + ?Sized>(z: f64, rng: &mut R) -> f64 {
    let c = 0.5 * z.abs();
    let k = PI * PI / 8.0 + 0.5 * c * c;
    let p_tail = tail_probability(c);
    loop {
        let x = if rng.random::<f64>() < p_tail {
            let e: f64 = Exp1.sample(rng);
            T + e / k
        } else {
            truncated_inverse_gaussian(c, rng)
        };
        let pre = prefactor(x);
        let mut s = a(0, x, pre);
        let y = rng.random::<f64>() * s;
        let mut n = 0;
        loop {
            n += 1;
            if n % 2 == 1 {
                s -= a(n, x, pre);
                if y <= s {
                    return 0.25 * x;
                }
            } else {
                s += a(n, x, pre);
                if y > s {
                    break;
                }
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
mod tests {
    use super::*;
    use crate::numeric::rng::stream;

    #[test]
    fn the_direct_tail_probability_equals_the_log_form() {
        for i in 0..=600 {
            let c = f64::from(i) * 0.075;
            let k = PI * PI / 8.0 + 0.5 * c * c;
            let b = (T * c - 1.0) / T.sqrt();
            let a = -(T * c + 1.0) / T.sqrt();
            let x0 = k.ln() + k * T;
            let q_over_p =
                4.0 / PI * ((x0 - c + log_norm_cdf(b)).exp() + (x0 + c + log_norm_cdf(a)).exp());
            let log_form = 1.0 / (1.0 + q_over_p);
            let p = tail_probability(c);
            assert!(
                (p - log_form).abs() <= 1e-13 * log_form.max(1e-300),
                "c = {c}: {p} vs {log_form}"
            );
        }
    }

    #[test]
    fn sample_moments_match_the_closed_forms() {
        // Mean tanh(z/2)/(2z) and variance (sinh z - z)/(4 z^3 cosh^2(z/2)) (Polson, Scott &
        // Windle 2013, section 2), checked to 5 Monte-Carlo standard errors.
        let n = 40_000;
        for z in [0.0, 0.3, 1.0, 2.5, 8.0, -4.0] {
            let mut rng = stream(11, &format!("pg/{z}"));
            let draws: Vec<f64> = (0..n).map(|_| sample(z, &mut rng)).collect();
            assert!(draws.iter().all(|d| d.is_finite() && *d > 0.0));
            let m = draws.iter().sum::<f64>() / n as f64;
            let v = draws.iter().map(|d| (d - m).powi(2)).sum::<f64>() / (n - 1) as f64;
            let se_mean = (variance(z) / n as f64).sqrt();
            assert!(
                (m - mean(z)).abs() < 5.0 * se_mean,
                "z = {z}: mean {m} vs {}",
                mean(z)
            );
            // the variance's standard error is about sqrt(2/n) var for a light-tailed law;
            // PG's tail is exponential, so allow a wider 10 %.
            assert!(
                (v - variance(z)).abs() < 0.1 * variance(z),
                "z = {z}: var {v} vs {}",
                variance(z)
            );
        }
    }

    #[test]
    fn closed_forms_are_continuous_at_zero() {
        assert!((mean(1e-6) - mean(2e-6)).abs() < 1e-12);
        // the series below 1/2 and the closed form above meet to rounding
        assert!((variance(0.5 - 1e-12) - variance(0.5)).abs() < 1e-13);
        // mpmath: (sinh z - z)/(4 z^3 cosh^2(z/2)) at z = 0.01 is 0.041665833345981972
        assert!((variance(0.01) - 0.041_665_833_345_981_97).abs() < 1e-16);
        assert!((mean(0.0) - 0.25).abs() < 1e-15 && (variance(0.0) - 1.0 / 24.0).abs() < 1e-15);
    }
}
