//! Tests of the Gini family: mode and information in closed form, and the simulations against
//! the distributions they sample.

use super::*;
use crate::lab::moments::{mean_sd, quantiles};
use bayeslab_core::numeric::rng::stream;

fn sample() -> Vec<f64> {
    // The first 12 wages of CPS1985 (datasets/incomes.csv).
    vec![
        5.1, 4.95, 6.67, 4.0, 7.5, 13.07, 4.45, 19.47, 13.28, 8.75, 11.35, 11.5,
    ]
}

#[test]
fn mode_and_information_match_the_closed_forms() {
    let x: Vec<f64> = sample().iter().map(|y: &f64| y.ln()).collect();
    let n = x.len() as f64;
    let xbar = x.iter().sum::<f64>() / n;
    let ss: f64 = x.iter().map(|v| (v - xbar).powi(2)).sum();
    let m = mode(&x, "t").unwrap();
    assert!((m.x[0] - xbar).abs() < 1e-9);
    assert!((m.x[1] - (ss / n).ln()).abs() < 1e-9);
    let j = &m.information;
    assert!((j[(0, 0)] - n * n / ss).abs() < 1e-5 * n * n / ss);
    assert!((j[(1, 1)] - n / 2.0).abs() < 1e-5 * n);
    assert!(j[(0, 1)].abs() < 1e-5);
}

/// Exact-posterior simulation against the exact distribution of G computed directly
/// (χ² CDF and quadrature): mean within 4 MCSE, quantiles within 4 of their standard errors.
#[test]
fn exact_simulation_agrees_with_the_direct_distribution_of_g() {
    let x: Vec<f64> = sample().iter().map(|y: &f64| y.ln()).collect();
    let n = x.len() as f64;
    let xbar = x.iter().sum::<f64>() / n;
    let s2 = x.iter().map(|v| (v - xbar).powi(2)).sum::<f64>() / (n - 1.0);
    let exact = Dist::GiniExact { nu: n - 1.0, s2 };
    let draws = 40_000;
    let sim = summarise_draws(exact_draws(n - 1.0, s2, draws, &mut stream(7, "gini-test")));
    let (mean, sd) = mean_sd(&exact);
    assert!(
        (sim.mean - mean).abs() < 4.0 * sim.mcse,
        "{} vs {mean} (mcse {})",
        sim.mean,
        sim.mcse
    );
    assert!((sim.mcse - sd / (draws as f64).sqrt()).abs() < 0.05 * sim.mcse);
    // SE of a p-quantile: sqrt(p(1-p)/S) / f(q).
    let q = quantiles(&exact);
    for (p, got, want) in [(0.025, sim.q025, q[0]), (0.975, sim.q975, q[2])] {
        let se = (p * (1.0 - p) / draws as f64).sqrt() / exact.ln_pdf(want).exp();
        assert!(
            (got - want).abs() < 4.0 * se,
            "q{p}: {got} vs {want} (se {se})"
        );
    }
    // The CDF of G at its quantile is the level (the two closed forms agree).
    assert!((exact.cdf(q[0]) - 0.025).abs() < 1e-9);
}

#[test]
fn approximation_simulation_agrees_with_its_closed_form() {
    let mut r1 = stream(3, "a");
    let mut r2 = stream(3, "b");
    let built = build(&sample(), 40_000, (&mut r1, &mut r2), "t").unwrap();
    let g = built.gini.unwrap();
    let (mean, _) = mean_sd(&built.approximations[0].2);
    assert!((g.approx.mean - mean).abs() < 4.0 * g.approx.mcse);
}
