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
    // An index loop, not an iterator: a debug build (opt-level 0) calls every iterator method.
    let mut p = C[12];
    let mut j = 12;
    while j > 0 {
        j -= 1;
        p = madd::<FMA>(p, r, C[j]);
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

/// ln sigma(a) = -softplus(-a) (docs/maths.md 1.1).
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

/// The inverse Mills ratio v(t) = phi(t) / Phi(t) (docs/maths.md section 2), stable for large
/// negative t where it approaches -t.
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

mod norm_cdf_poly;
pub use norm_cdf_poly::norm_cdf_poly;

#[cfg(test)]
mod tests;
