//! Tests of the large-shape Gamma: statrs at moderate shapes, continuity at the switch, the
//! normal limit at huge shapes.

use super::*;
use crate::lab::dist::Dist;
use statrs::distribution::{Continuous, Gamma};

const LEVELS: [f64; 7] = [1e-10, 1e-6, 0.025, 0.5, 0.975, 1.0 - 1e-6, 1.0 - 1e-10];

#[test]
fn quantiles_match_statrs_at_moderate_shapes() {
    // statrs is accurate and fast up to shapes of ~1e5; from 1e3 on, where this module's
    // CDF is within 5e-11 of the exact one, the quantiles agree to 1e-8 relative.
    for (a, b) in [(1e3, 1.0), (5e3, 0.25), (1e4, 3.0), (1e5, 1.0)] {
        let g = Gamma::new(a, b).unwrap();
        for p in LEVELS {
            let (ours, theirs) = (quantile(a, b, p), g.inverse_cdf(p));
            assert!(
                (ours / theirs - 1.0).abs() < 1e-8,
                "a = {a}, p = {p}: {ours} vs statrs {theirs}"
            );
        }
    }
}

#[test]
fn density_and_cdf_continue_statrs_at_the_switch() {
    let (a, b) = (LARGE_SHAPE, 2.0);
    let g = Gamma::new(a, b).unwrap();
    for z in [-8.0, -2.0, -0.3, 0.0, 0.7, 3.0, 8.0] {
        let x = (a + z * a.sqrt()) / b;
        assert!(
            (ln_pdf(a, b, x) - g.ln_pdf(x)).abs() < 1e-9,
            "ln p at z = {z}"
        );
        assert!((cdf(a, b, x) - g.cdf(x)).abs() < 1e-11, "P at z = {z}");
    }
}

#[test]
fn quantiles_approach_the_normal_limit_at_huge_shapes() {
    // Cornish-Fisher for Gamma(a, 1) (skewness 2 / sqrt a):
    // x_p = a + z sqrt a + (z^2 - 1) / 3 + (z^3 - 7 z) / (36 sqrt a) + O(1 / a);
    // at a = 1e12 the omitted terms are < 1e-11 and x has an ulp of 1e-4 (0.125 at 1e15).
    for a in [1e12f64, 1e15, 1e18] {
        for p in LEVELS {
            let z = Normal::standard().inverse_cdf(p);
            let want =
                a + z * a.sqrt() + (z * z - 1.0) / 3.0 + (z.powi(3) - 7.0 * z) / (36.0 * a.sqrt());
            for b in [1.0, 4.0] {
                let got = quantile(a, b, p) * b;
                assert!(
                    (got - want).abs() <= 4.0 * f64::EPSILON * want,
                    "a = {a}, p = {p}, b = {b}: {got} vs {want}"
                );
            }
            // and P there is p, up to the density times the rounding of x
            let f = cdf(a, 1.0, want);
            let rounding = ln_pdf(a, 1.0, want).exp() * f64::EPSILON * want;
            let tolerance = 1e-9 * p.min(1.0 - p) + rounding + 1e-16;
            assert!((f - p).abs() < tolerance, "a = {a}, p = {p}: P = {f}");
        }
    }
}

#[test]
fn a_gamma_of_huge_shape_has_the_normal_limit() {
    // gamma-poisson with a total count of 1e15: statrs' CDF is 0.9966 one sd above the
    // mean (Phi(1) = 0.8413) and its inverse took seconds per call. Against the normal
    // limit with the skewness term (Cornish-Fisher; the next term is ~1e-8 here).
    let (a, b) = (1e15f64, 2.0);
    // through Dist, which switches to this module
    let d = Dist::Gamma { shape: a, rate: b };
    for p in [1e-10, 0.025, 0.5, 0.975] {
        let z = Normal::standard().inverse_cdf(p);
        let want = (a + z * a.sqrt() + (z * z - 1.0) / 3.0) / b;
        let got = d.quantile(p);
        assert!((got - want).abs() <= 1.0, "p = {p}: {got} vs {want}");
    }
    let sd = a.sqrt() / b;
    let x = a / b + sd;
    assert!((d.cdf(x) - norm_cdf(1.0)).abs() < 1e-6, "{}", d.cdf(x));
    // the log density at the mean: -ln(sd sqrt(2 pi)) up to O(1/a)
    let want = -(sd * (2.0 * std::f64::consts::PI).sqrt()).ln();
    assert!((d.ln_pdf(a / b) - want).abs() < 1e-9, "{}", d.ln_pdf(a / b));
}
