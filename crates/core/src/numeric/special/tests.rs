//! Tests of the special functions against libm, mpmath and their identities.

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
