//! The branch-free Phi against libm's erfc, on every interval of fdlibm's erfc and across their
//! edges, with and without fused multiply-adds.

use super::*;
use crate::numeric::special::norm_cdf;

#[test]
fn phi_agrees_with_libm_within_a_few_ulp_above_minus_eight() {
    // 170,001 points on [-8, 9]: x = -z / sqrt 2 runs through all five intervals.
    let mut worst: f64 = 0.0;
    for i in 0..=170_000 {
        let z = -8.0 + 17.0 * i as f64 / 170_000.0;
        let exact = norm_cdf(z);
        for got in [norm_cdf_poly::<false>(z), norm_cdf_poly::<true>(z)] {
            let rel = (got - exact).abs() / exact;
            worst = worst.max(rel);
            assert!(rel < 2e-15, "z = {z}: {got} against {exact}");
        }
    }
    assert!(
        worst > 0.0,
        "not a copy of libm: it differs somewhere, by {worst:e}"
    );
}

#[test]
fn phi_is_one_far_above_and_exact_at_zero() {
    assert_eq!(norm_cdf_poly::<false>(0.0), 0.5);
    assert_eq!(norm_cdf_poly::<true>(0.0), 0.5);
    for z in [8.5, 20.0, 1e6, f64::MAX] {
        assert_eq!(norm_cdf_poly::<true>(z), 1.0, "z = {z}");
    }
}
