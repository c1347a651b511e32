//! Phi(z) without branches or libm calls, so that loops over it vectorise (the probit k-hat
//! sums ln Phi over millions of rows and draws): fdlibm's erfc (FreeBSD s_erf.c, as the `libm`
//! crate has it; its rational approximations are accurate to 2^-57 or better on each of its
//! intervals) with every interval computed and the right one selected, and its two
//! exponentials through [`exp_poly`]. Within a few ulp of `0.5 * libm::erfc(-z / sqrt 2)`
//! for z >= -8, where Phi(z) >= 6e-16 (tested); callers take ln Phi below that from the
//! continued fraction ([`super::log_norm_cdf`]).

// The coefficients are written digit for digit as fdlibm publishes them, to be checked against it.
#![allow(clippy::excessive_precision)]

use super::exp_poly;

// erfc on [0, 0.84375]: 1 - x - x R(x^2), R = P/Q.
const PP: [f64; 5] = [
    1.28379167095512558561e-01,
    -3.25042107247001499370e-01,
    -2.84817495755985104766e-02,
    -5.77027029648944159157e-03,
    -2.37630166566501626084e-05,
];
const QQ: [f64; 5] = [
    3.97917223959155352819e-01,
    6.50222499887672944485e-02,
    5.08130628187576562776e-03,
    1.32494738004321644526e-04,
    -3.96022827877536812320e-06,
];
// erfc on [0.84375, 1.25]: 1 - c - P1(s)/Q1(s), s = x - 1.
const ERX: f64 = 8.45062911510467529297e-01;
const PA: [f64; 7] = [
    -2.36211856075265944077e-03,
    4.14856118683748331666e-01,
    -3.72207876035701323847e-01,
    3.18346619901161753674e-01,
    -1.10894694282396677476e-01,
    3.54783043256182359371e-02,
    -2.16637559486879084300e-03,
];
const QA: [f64; 6] = [
    1.06420880400844228286e-01,
    5.40397917702171048937e-01,
    7.18286544141962662868e-02,
    1.26171219808761642112e-01,
    1.36370839120290507362e-02,
    1.19844998467991074170e-02,
];
// erfc on [1.25, 1/0.35] (RA, SA) and [1/0.35, 28] (RB, SB, padded with a zero):
// exp(-x^2 - 0.5625 + R(s)/S(s)) / x, s = 1/x^2.
const RA: [f64; 8] = [
    -9.86494403484714822705e-03,
    -6.93858572707181764372e-01,
    -1.05586262253232909814e+01,
    -6.23753324503260060396e+01,
    -1.62396669462573470355e+02,
    -1.84605092906711035994e+02,
    -8.12874355063065934246e+01,
    -9.81432934416914548592e+00,
];
const SA: [f64; 8] = [
    1.96512716674392571292e+01,
    1.37657754143519042600e+02,
    4.34565877475229228821e+02,
    6.45387271733267880336e+02,
    4.29008140027567833386e+02,
    1.08635005541779435134e+02,
    6.57024977031928170135e+00,
    -6.04244152148580987438e-02,
];
const RB: [f64; 8] = [
    -9.86494292470009928597e-03,
    -7.99283237680523006574e-01,
    -1.77579549177547519889e+01,
    -1.60636384855821916062e+02,
    -6.37566443368389627722e+02,
    -1.02509513161107724954e+03,
    -4.83519191608651397019e+02,
    0.0,
];
const SB: [f64; 8] = [
    3.03380607434824582924e+01,
    3.25792512996573918826e+02,
    1.53672958608443695994e+03,
    3.19985821950859553908e+03,
    2.55305040643316442583e+03,
    4.74528541206955367215e+02,
    -2.24409524465858183362e+01,
    0.0,
];

/// c[0] + t (c[1] + t (c[2] + ...)), by Horner's rule.
#[inline(always)]
fn horner<const FMA: bool>(c: &[f64], t: f64) -> f64 {
    // Index loops here and below, not iterators: a debug build (opt-level 0, what the tests
    // run) calls every iterator method, and this runs once per row and draw.
    let mut p: f64 = 0.0;
    let mut k = c.len();
    while k > 0 {
        k -= 1;
        p = if FMA {
            p.mul_add(t, c[k])
        } else {
            p * t + c[k]
        };
    }
    p
}

/// Phi(z) = erfc(-z / sqrt 2) / 2 for z >= -8 (any z gives a number; below -8 its relative
/// accuracy is not claimed). `FMA` selects fused multiply-adds.
#[inline(always)]
pub fn norm_cdf_poly<const FMA: bool>(z: f64) -> f64 {
    let x = -z / std::f64::consts::SQRT_2;
    // Above 6, erfc(x) < 3e-17 and Phi(z) = 1 to rounding; the clamp keeps 1 / x^2 finite.
    let ax = x.abs().min(6.0);
    // |x| < 0.84375
    let y = {
        let t = x * x;
        horner::<FMA>(&PP, t) / (1.0 + t * horner::<FMA>(&QQ, t))
    };
    let small = if x < 0.25 {
        1.0 - (x + x * y)
    } else {
        0.5 - (x - 0.5 + x * y)
    };
    // 0.84375 <= |x| < 1.25: erfc(|x|)
    let s = ax - 1.0;
    let mid = 1.0 - ERX - horner::<FMA>(&PA, s) / (1.0 + s * horner::<FMA>(&QA, s));
    // |x| >= 1.25: erfc(|x|), the interval's coefficients chosen lane by lane
    let t = 1.0 / (ax * ax);
    let near = ax < 1.0 / 0.35;
    let mut r = [0.0; 8];
    let mut q = [0.0; 8];
    let mut k = 0;
    while k < 8 {
        r[k] = if near { RA[k] } else { RB[k] };
        q[k] = if near { SA[k] } else { SB[k] };
        k += 1;
    }
    let ratio = horner::<FMA>(&r, t) / (1.0 + t * horner::<FMA>(&q, t));
    // -x^2 = -h^2 + (h - x)(h + x) with h = |x| cut to its high 32 bits: h^2 is exact (fdlibm's Note1).
    let h = f64::from_bits(ax.to_bits() & 0xffff_ffff_0000_0000);
    let tail = exp_poly::<FMA>(-h * h - 0.5625) * exp_poly::<FMA>((h - ax) * (h + ax) + ratio) / ax;
    let big = if ax < 1.25 { mid } else { tail };
    let erfc = if ax < 0.84375 {
        small
    } else if x < 0.0 {
        2.0 - big
    } else {
        big
    };
    0.5 * erfc
}

#[cfg(test)]
#[path = "norm_cdf_poly_tests.rs"]
mod tests;
