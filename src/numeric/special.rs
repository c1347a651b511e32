//! Scalar special functions in log space: the logistic sigmoid, softplus and
//! the standard normal CDF, all finite far into their tails.

use libm::erfc;

/// ln(sqrt(2 pi)).
pub const LN_SQRT_2PI: f64 = 0.918_938_533_204_672_8;

/// sigma(a) = 1 / (1 + e^-a), evaluated without overflow for any finite a.
pub fn sigmoid(a: f64) -> f64 {
    if a >= 0.0 {
        1.0 / (1.0 + (-a).exp())
    } else {
        let e = a.exp();
        e / (1.0 + e)
    }
}

/// softplus(a) = ln(1 + e^a), exact to rounding for every finite a.
pub fn softplus(a: f64) -> f64 {
    if a > 0.0 {
        a + (-a).exp().ln_1p()
    } else {
        a.exp().ln_1p()
    }
}

/// ln sigma(a) = -softplus(-a) (MATH.md 1.1).
pub fn log_sigmoid(a: f64) -> f64 {
    -softplus(-a)
}

/// Standard normal density.
pub fn norm_pdf(x: f64) -> f64 {
    (-0.5 * x * x - LN_SQRT_2PI).exp()
}

/// Standard normal CDF Phi(x).
pub fn norm_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// Below this argument ln Phi uses the Mills-ratio continued fraction, where erfc finally
/// underflows (Phi(-38.5) < 1e-323) and subnormals lose relative accuracy long before.
const TAIL: f64 = -3.0;

/// Mills ratio R(t) = Phi(-t) / phi(t) for t >= 3, by Laplace's continued fraction
/// R(t) = 1/(t + 1/(t + 2/(t + 3/(t + ...)))) evaluated backwards. For t >= 2, 120 terms
/// already agree with mpmath to rounding.
fn mills_ratio(t: f64) -> f64 {
    let mut acc = t;
    for k in (1..=120).rev() {
        acc = t + k as f64 / acc;
    }
    1.0 / acc
}

/// ln Phi(x), finite for every x >= -1e150, to a few ulps: the continued fraction below -3 and
/// musl's erfc (the `libm` crate) above. Tested against mpmath down to -40.
pub fn log_norm_cdf(x: f64) -> f64 {
    if x < TAIL {
        -0.5 * x * x - LN_SQRT_2PI + mills_ratio(-x).ln()
    } else if x > 5.0 {
        (-norm_cdf(-x)).ln_1p()
    } else {
        norm_cdf(x).ln()
    }
}

/// The inverse Mills ratio v(t) = phi(t) / Phi(t) (MATH.md section 2), stable for large negative t
/// where it approaches -t.
pub fn inv_mills(t: f64) -> f64 {
    if t < TAIL {
        1.0 / mills_ratio(-t)
    } else {
        norm_pdf(t) / norm_cdf(t)
    }
}

/// ln(sum_i e^{x_i}) without overflow; -inf for an empty slice.
pub fn log_sum_exp(xs: &[f64]) -> f64 {
    let m = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !m.is_finite() {
        return m;
    }
    m + xs.iter().map(|x| (x - m).exp()).sum::<f64>().ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rel(a: f64, b: f64) -> f64 {
        ((a - b) / b).abs()
    }

    #[test]
    fn sigmoid_and_softplus_identities() {
        for &a in &[-800.0, -40.0, -3.0, -1e-9, 0.0, 2.5, 40.0, 800.0] {
            let s = sigmoid(a);
            assert!((0.0..=1.0).contains(&s));
            // sigma(a) + sigma(-a) = 1
            assert!((s + sigmoid(-a) - 1.0).abs() < 1e-15);
            // softplus(a) - softplus(-a) = a
            assert!((softplus(a) - softplus(-a) - a).abs() < 1e-12 * (1.0 + a.abs()));
            assert!(log_sigmoid(a).is_finite());
        }
        assert_eq!(log_sigmoid(-800.0), -800.0);
        assert!((log_sigmoid(0.0) + std::f64::consts::LN_2).abs() < 1e-16);
    }

    #[test]
    fn log_norm_cdf_against_mpmath() {
        // Reference values from mpmath (50 digits): mp.log(mp.ncdf(x)).
        let cases = [
            (-40.0, -804.608_442_013_753_8, 1e-14),
            (-10.0, -53.231_285_150_512_47, 1e-14),
            (-5.0, -15.064_998_393_988_725, 1e-14),
            (-1.0, -1.841_021_645_009_263_5, 1e-14),
            (0.0, -std::f64::consts::LN_2, 1e-15),
            (3.0, -0.001_350_809_964_748_193_8, 1e-13),
        ];
        for (x, want, tol) in cases {
            let got = log_norm_cdf(x);
            assert!(rel(got, want) < tol, "ln Phi({x}) = {got}, want {want}");
        }
    }

    #[test]
    fn log_norm_cdf_is_continuous_at_the_branch() {
        let below = -0.5 * TAIL * TAIL - LN_SQRT_2PI + mills_ratio(-TAIL).ln();
        let direct = norm_cdf(TAIL).ln();
        assert!(rel(below, direct) < 1e-13);
    }

    #[test]
    fn inverse_mills_tends_to_minus_t() {
        let v = inv_mills(-40.0);
        // v(t) = -t + 1/(-t) - 2/(-t)^3 + ... for t -> -inf
        let t: f64 = 40.0;
        let asym = t + 1.0 / t - 2.0 / t.powi(3);
        assert!(rel(v, asym) < 1e-8);
        assert!(rel(inv_mills(0.0), 2.0 * norm_pdf(0.0)) < 1e-15);
    }

    #[test]
    fn log_sum_exp_handles_large_values() {
        assert!((log_sum_exp(&[1000.0, 1000.0]) - (1000.0 + std::f64::consts::LN_2)).abs() < 1e-12);
        assert_eq!(log_sum_exp(&[]), f64::NEG_INFINITY);
    }
}
