//! Scalar special functions in log space: the logistic sigmoid, softplus and
//! the standard normal CDF, all finite far into their tails.

use libm::erfc;

/// 1.5 * 2^52: adding it rounds a double below 2^51 in magnitude to an integer, which then
/// sits in the low bits of the sum's representation (no rounding instruction needed).
const ROUND_MAGIC: f64 = 6_755_399_441_055_744.0;

/// e^x to within 2 ulp for |x| <= 708 (clamped outside), written without branches or libm calls
/// so that loops over it vectorise: x = n ln 2 + r with |r| <= ln 2 / 2 (Cody-Waite split of
/// ln 2), e^r by its Taylor polynomial of degree 12 (truncation error below 2e-16), times 2^n
/// built in the exponent bits. `FMA` selects fused multiply-adds (only where the CPU has them).
#[inline(always)]
pub fn exp_poly<const FMA: bool>(x: f64) -> f64 {
    #[inline(always)]
    fn madd<const FMA: bool>(a: f64, b: f64, c: f64) -> f64 {
        if FMA {
            a.mul_add(b, c)
        } else {
            a * b + c
        }
    }
    // ln 2 = LN2_HI + LN2_LO with LN2_HI's low 21 bits zero, so n LN2_HI is exact (fdlibm).
    const LN2_HI: f64 = f64::from_bits(0x3fe6_2e42_fee0_0000);
    const LN2_LO: f64 = f64::from_bits(0x3dea_39ef_3579_3c76);
    let x = x.clamp(-708.0, 708.0);
    let shifted = madd::<FMA>(x, std::f64::consts::LOG2_E, ROUND_MAGIC);
    let n = shifted - ROUND_MAGIC;
    let k = shifted.to_bits().wrapping_sub(ROUND_MAGIC.to_bits()) as i64;
    let r = madd::<FMA>(-n, LN2_LO, madd::<FMA>(-n, LN2_HI, x));
    const C: [f64; 13] = [
        1.0,
        1.0,
        1.0 / 2.0,
        1.0 / 6.0,
        1.0 / 24.0,
        1.0 / 120.0,
        1.0 / 720.0,
        1.0 / 5040.0,
        1.0 / 40320.0,
        1.0 / 362_880.0,
        1.0 / 3_628_800.0,
        1.0 / 39_916_800.0,
        1.0 / 479_001_600.0,
    ];
    let mut p = C[12];
    for &c in C[..12].iter().rev() {
        p = madd::<FMA>(p, r, c);
    }
    let scale = f64::from_bits(((k + 1023) as u64) << 52);
    p * scale
}

/// sigma(a) = 1 / (1 + e^-a) through [`exp_poly`]: relative error a few ulp, vectorisable.
#[inline(always)]
pub fn sigmoid_poly<const FMA: bool>(a: f64) -> f64 {
    1.0 / (1.0 + exp_poly::<FMA>(-a))
}

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
/// R(t) = 1/(t + 1/(t + 2/(t + 3/(t + ...)))) evaluated backwards. The fraction converges
/// faster the larger t is: against mpmath, 55 terms reach 2e-17 relative error at t = 3, 26 at
/// t = 5, 12 at t = 10, 6 at t = 40; 10 + 500 / t^2 terms (65 at t = 3) are always more. (It is
/// called once per row and draw in the probit, EP and Pólya-Gamma code, so the count matters.)
fn mills_ratio(t: f64) -> f64 {
    let terms = (10.0 + 500.0 / (t * t)).min(120.0) as u32;
    let mut acc = t;
    for k in (1..=terms).rev() {
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
    fn the_polynomial_exp_is_within_two_ulp_of_libm() {
        let mut worst: f64 = 0.0;
        for i in -700_000..=700_000 {
            let x = f64::from(i) * 1.0e-3 + 1.0e-7 * f64::from(i % 7);
            for e in [exp_poly::<false>(x), exp_poly::<true>(x)] {
                worst = worst.max(rel(e, x.exp()));
            }
        }
        assert!(worst < 4.5e-16, "largest relative error {worst:e}");
        assert_eq!(exp_poly::<false>(0.0), 1.0);
        assert!(exp_poly::<false>(-1e9) > 0.0 && exp_poly::<false>(1e9).is_finite());
        for a in [-40.0, -3.0, -1e-9, 0.0, 2.5, 37.0] {
            assert!(
                rel(sigmoid_poly::<false>(a), sigmoid(a)) < 1e-15,
                "sigma({a})"
            );
        }
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
    fn the_shortened_continued_fraction_loses_nothing() {
        // Against the fraction with 400 terms (converged to rounding for every t >= 3).
        let full = |t: f64| {
            let mut acc = t;
            for k in (1..=400).rev() {
                acc = t + f64::from(k) / acc;
            }
            1.0 / acc
        };
        for i in 0..=470 {
            let t = 3.0 + f64::from(i) * 0.1;
            assert!(rel(mills_ratio(t), full(t)) < 4e-16, "R({t})");
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
