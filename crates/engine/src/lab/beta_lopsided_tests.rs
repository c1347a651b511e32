//! Tests of the lopsided Beta: exact at a shape of one, against 40-digit values, mirror
//! symmetry, and the quantiles between the ranges.

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
