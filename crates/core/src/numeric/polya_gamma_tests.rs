//! Tests of the Pólya-Gamma sampler: its tail probability and table, and a reference sample.

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
fn the_tail_probability_falls_with_c() {
    // P(X > t) under an exponential tilt e^{-c^2 x / 2} falls as c grows (monotone
    // likelihood ratio); the table's brackets rest on it.
    let pg = PolyaGamma::new();
    assert!(pg.tail.windows(2).all(|w| w[1] < w[0]));
    assert!(pg.tail[0] < 1.0 && *pg.tail.last().unwrap() > 0.0);
    // and between the grid points too, where the table is not looked at
    let fine: Vec<f64> = (0..=20_000)
        .map(|i| tail_probability(f64::from(i) * 0.0016))
        .collect();
    assert!(fine.windows(2).all(|w| w[1] < w[0]));
}

#[test]
fn the_table_settles_the_piece_as_the_formula_does() {
    let pg = PolyaGamma::new();
    let mut rng = stream(3, "pg/picks");
    let (mut random_in_table, mut settled_by_table) = (0, 0);
    let trials = 200_000;
    for i in 0..trials {
        // c on and between grid points, up to past the table's end
        let c = if i % 5 == 0 {
            f64::from(i % 4500) / PER_UNIT
        } else {
            rng.random::<f64>() * 40.0
        };
        let p = tail_probability(c);
        // uniforms spread over (0, 1), and right at p and one rounding either side of it
        let u = match i % 4 {
            0 => p,
            1 => p * (1.0 + 2e-16),
            2 => p * (1.0 - 2e-16),
            _ => rng.random::<f64>(),
        };
        let mut exact = f64::NAN;
        assert_eq!(pg.picks_tail(c, u, &mut exact), u < p, "c = {c}, u = {u}");
        if i % 4 == 3 && c < C_MAX {
            random_in_table += 1;
            settled_by_table += usize::from(exact.is_nan());
        }
    }
    // The table settles nearly every uniform drawn at random for c on the table (the
    // band between neighbouring entries is at most a few hundredths wide); uniforms at p
    // itself always need the formula.
    assert!(
        settled_by_table * 100 >= random_in_table * 95,
        "{settled_by_table} of {random_in_table}"
    );
}

/// Polson, Scott & Windle's algorithm as written: the mixture probability and every term
/// a_n(x) = pi (n + 1/2) [2 / (pi x)]^{3/2} e^{-2 (n + 1/2)^2 / x} (x <= t) or
/// pi (n + 1/2) e^{-(n + 1/2)^2 pi^2 x / 2} (x > t) evaluated afresh for every draw.
fn reference_sample<R: Rng + ?Sized>(z: f64, rng: &mut R) -> f64 {
    let a = |n: u32, x: f64| {
        let k = f64::from(n) + 0.5;
        if x > T {
            PI * k * (-0.5 * k * k * PI * PI * x).exp()
        } else {
            PI * k * (2.0 / (PI * x)).powf(1.5) * (-2.0 * k * k / x).exp()
        }
    };
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
        let mut s = a(0, x);
        let y = rng.random::<f64>() * s;
        let mut n = 0;
        loop {
            n += 1;
            if n % 2 == 1 {
                s -= a(n, x);
                if y <= s {
                    return 0.25 * x;
                }
            } else {
                s += a(n, x);
                if y > s {
                    break;
                }
            }
        }
    }
}

#[test]
fn the_draws_are_those_of_the_algorithm_as_written() {
    // Same stream, same draws, to the bit: the table changes what is computed, not what
    // is drawn. (The series' terms are rounded differently, which could flip a draw whose
    // uniform lies within a rounding of a partial sum: about 1e-16 per draw.)
    let (pg, untabulated) = (PolyaGamma::new(), PolyaGamma::untabulated());
    let mut zs = stream(8, "pg/z");
    for scale in [0.01, 1.6, 8.0, 40.0] {
        let mut r = [0, 1, 2].map(|_| stream(9, "pg/same"));
        for _ in 0..25_000 {
            let s: f64 = StandardNormal.sample(&mut zs);
            let z = scale * s;
            let a = pg.sample(z, &mut r[0]);
            let b = reference_sample(z, &mut r[1]);
            let c = untabulated.sample(z, &mut r[2]);
            assert_eq!(a.to_bits(), b.to_bits(), "z = {z}");
            assert_eq!(a.to_bits(), c.to_bits(), "z = {z}");
        }
    }
}

#[test]
fn sample_moments_match_the_closed_forms() {
    // Mean tanh(z/2)/(2z) and variance (sinh z - z)/(4 z^3 cosh^2(z/2)) (Polson, Scott &
    // Windle 2013, section 2), checked to 5 Monte-Carlo standard errors.
    let n = 40_000;
    let pg = PolyaGamma::new();
    for z in [0.0, 0.3, 1.0, 2.5, 8.0, -4.0, 70.0] {
        let mut rng = stream(11, &format!("pg/{z}"));
        let draws: Vec<f64> = (0..n).map(|_| pg.sample(z, &mut rng)).collect();
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
