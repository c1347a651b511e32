//! Tests of the large-shape Beta against statrs where it is right and 40-digit values where it
//! is not.

use super::*;
use crate::lab::dist::Dist;
use statrs::distribution::Beta;

const LEVELS: [f64; 7] = [1e-10, 1e-6, 0.025, 0.5, 0.975, 1.0 - 1e-6, 1.0 - 1e-10];

fn mean_sd_skew(a: f64, b: f64) -> (f64, f64, f64) {
    let r = a + b;
    let sd = (a * b / (r * r * (r + 1.0))).sqrt();
    let skew = 2.0 * (b - a) * (r + 1.0).sqrt() / ((r + 2.0) * (a * b).sqrt());
    (a / r, sd, skew)
}

#[test]
fn quantiles_and_cdf_match_statrs_at_moderate_shapes() {
    for (a, b) in [(1e3, 2e3), (3e3, 3e3), (1e4, 3e4), (2e4, 1e4), (1e5, 3e4)] {
        let d = Beta::new(a, b).unwrap();
        for p in LEVELS {
            let (ours, theirs) = (quantile(a, b, p), d.inverse_cdf(p));
            assert!(
                (ours / theirs - 1.0).abs() < 1e-8,
                "({a}, {b}), p = {p}: {ours} vs {theirs}"
            );
        }
        if a + b > 5e4 {
            continue; // statrs' CDF is off by 1e-8 there (below)
        }
        let (m, sd, _) = mean_sd_skew(a, b);
        for z in [-8.0, -3.0, -1.0, -1e-3, 0.3, 1.0, 3.0, 8.0] {
            let (ours, theirs) = (cdf(a, b, m + z * sd), d.cdf(m + z * sd));
            let tol = 1e-8 * theirs.min(1.0 - theirs) + 4.0 * f64::EPSILON;
            assert!(
                (ours - theirs).abs() < tol,
                "({a}, {b}), z = {z}: {ours} vs {theirs}"
            );
        }
    }
}

#[test]
fn cdf_matches_40_digit_values_where_statrs_does_not() {
    // I_x(a, b) = x^a (1 - x)^b / (a B(a, b)) 2F1(a + b, 1; a + 1; x) summed in mpmath at
    // 40 digits (upper half by symmetry). statrs is off by -3.05e-7, -1.83e-8, 1.06e-2.
    for (a, b, x, want) in [
        (1e5, 1e5, 0.5000001118031193, 0.5000398940783532),
        (1e4, 1e7, 0.000999000999000999, 0.501327814807801),
        (1e6, 2e6, 0.3333333333333333, 0.5000542891707268),
        (1e6, 2e6, 0.3325168368884883, 0.0013450706709709625),
        (1e3, 2e3, 0.34193852891180565, 0.8413112219132358),
    ] {
        let tol = if a < LARGE_SHAPE { 5e-11 } else { 5e-13 };
        assert!(
            (cdf(a, b, x) - want).abs() < tol,
            "({a}, {b}) at {x}: {}",
            cdf(a, b, x)
        );
    }
}

#[test]
fn density_and_cdf_continue_statrs_at_the_switch() {
    let (a, b) = (LARGE_SHAPE, 2.5e4);
    let (m, sd, _) = mean_sd_skew(a, b);
    let (below, at) = (
        Dist::Beta {
            a: a * (1.0 - 1e-12),
            b,
        },
        Dist::Beta { a, b },
    );
    for z in [-8.0, -2.0, -0.3, 0.0, 0.7, 3.0, 8.0] {
        let x = m + z * sd;
        assert!(
            (below.ln_pdf(x) - at.ln_pdf(x)).abs() < 1e-9,
            "ln p at z = {z}"
        );
        let (p0, p1) = (below.cdf(x), at.cdf(x));
        // statrs is already off by 3.8e-11 at z = -0.3 (40 digits: 0.382677770872052)
        assert!((p0 - p1).abs() < 1e-10, "P at z = {z}: {p0} vs {p1}");
    }
    for p in LEVELS {
        let (q0, q1) = (below.quantile(p), at.quantile(p));
        assert!((q0 / q1 - 1.0).abs() < 1e-9, "p = {p}: {q0} vs {q1}");
    }
}

#[test]
fn quantiles_approach_cornish_fisher_at_huge_shapes() {
    // x_p = mean + sd (z + skew (z^2 - 1) / 6) + O(sd / (a + b)); the omitted terms are
    // far below an ulp of x from a + b = 1e12 on.
    for r in [1e12f64, 1e15, 1e18] {
        for x0 in [0.3, 0.5, 0.9] {
            let (a, b) = (x0 * r, (1.0 - x0) * r);
            let (m, sd, skew) = mean_sd_skew(a, b);
            for p in LEVELS {
                let z = Normal::standard().inverse_cdf(p);
                let want = m + sd * (z + skew * (z * z - 1.0) / 6.0);
                let got = quantile(a, b, p);
                let ulps = if r < 1e17 { 4.0 } else { 64.0 };
                assert!(
                    (got - want).abs() <= ulps * f64::EPSILON * want,
                    "r = {r}, x0 = {x0}, p = {p}: {got} vs {want}"
                );
                // and P there is p, up to the density times the rounding of x
                let f = cdf(a, b, want);
                let rounding = ln_pdf(a, b, want).exp() * ulps * f64::EPSILON * want;
                let tol = 1e-9 * p.min(1.0 - p) + rounding + 1e-16;
                assert!((f - p).abs() < tol, "r = {r}, x0 = {x0}, p = {p}: P = {f}");
            }
            // the log density at the mean: -ln(sd sqrt(2 pi)) up to O(1 / r)
            let want = -(sd * (2.0 * std::f64::consts::PI).sqrt()).ln();
            assert!((ln_pdf(a, b, m) - want).abs() < 1e-9, "{}", ln_pdf(a, b, m));
        }
    }
}
