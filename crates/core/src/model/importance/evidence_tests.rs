//! The importance-sampling evidence against quadrature of p(y | w) p(w) on one- and
//! two-feature problems, and the same bits on one thread or two.

use faer::Mat;
use rand_distr::{Distribution, StandardNormal};

use super::*;
use crate::model::streaming::InMemory;
use crate::numeric::rng::stream;

/// 30 rows with `d` standard normal features, labels from a logistic model at (1, -0.6).
fn problem(d: usize, seed: u64) -> (Mat<f64>, Vec<f64>) {
    let mut rng = stream(seed, "evidence-test");
    let truth = [1.0, -0.6];
    let x = Mat::<f64>::from_fn(30, d, |_, _| StandardNormal.sample(&mut rng));
    let y = (0..30)
        .map(|i| {
            let a: f64 = (0..d).map(|j| x[(i, j)] * truth[j]).sum();
            let u: f64 = rand::RngExt::random(&mut rng);
            f64::from(u8::from(u < 1.0 / (1.0 + (-a).exp())))
        })
        .collect();
    (x, y)
}

/// ln p(y | w) + ln N(w; 0, λ⁻¹ I), each row's loss from the model's own `row_terms`.
fn log_joint(likelihood: Likelihood, x: &Mat<f64>, y: &[f64], precision: f64, w: &[f64]) -> f64 {
    let d = w.len() as f64;
    let loss: f64 = (0..x.nrows())
        .map(|i| {
            let a: f64 = (0..x.ncols()).map(|j| x[(i, j)] * w[j]).sum();
            match likelihood {
                Likelihood::Logistic => crate::model::logistic::row_terms(a, y[i]).0,
                Likelihood::Probit { noise } => crate::model::probit::row_terms(a / noise, y[i]).0,
            }
        })
        .sum();
    let norm2: f64 = w.iter().map(|v| v * v).sum();
    -loss - 0.5 * precision * norm2 + 0.5 * d * (precision / std::f64::consts::TAU).ln()
}

/// ln ∫ p(y | w) p(w) dw by the midpoint rule on a dense grid: `n` points per axis over
/// [-8, 8] (the posterior's sd is below 0.5 here, its mean within ±2, so the grid covers
/// ±12 sd and its spacing is a tenth of an sd or finer), summed by log-sum-exp. Returns the
/// log evidence, the posterior mean and covariance (the moments build the proposal).
fn quadrature(
    likelihood: Likelihood,
    x: &Mat<f64>,
    y: &[f64],
    precision: f64,
    n: usize,
) -> (f64, Vec<f64>, Mat<f64>) {
    let d = x.ncols();
    let h = 16.0 / n as f64;
    let node = |k: usize| -8.0 + h * (k as f64 + 0.5);
    let points: Vec<Vec<f64>> = match d {
        1 => (0..n).map(|k| vec![node(k)]).collect(),
        _ => (0..n * n).map(|k| vec![node(k / n), node(k % n)]).collect(),
    };
    let logs: Vec<f64> = points
        .par_iter()
        .map(|w| log_joint(likelihood, x, y, precision, w))
        .collect();
    let lse = log_sum_exp(&logs);
    let p: Vec<f64> = logs.iter().map(|l| (l - lse).exp()).collect();
    let mean: Vec<f64> = (0..d)
        .map(|i| points.iter().zip(&p).map(|(w, p)| p * w[i]).sum())
        .collect();
    let cov = Mat::<f64>::from_fn(d, d, |i, j| {
        points
            .iter()
            .zip(&p)
            .map(|(w, p)| p * (w[i] - mean[i]) * (w[j] - mean[j]))
            .sum()
    });
    (lse + d as f64 * h.ln(), mean, cov)
}

fn check_against_quadrature(d: usize, n: usize) {
    let (x, y) = problem(d, 7 + d as u64);
    let rows = InMemory {
        x: x.as_ref(),
        y: &y,
    };
    for (likelihood, precision) in [
        (Likelihood::Logistic, 1.0),
        (Likelihood::Probit { noise: 1.0 }, 0.5),
        (Likelihood::Probit { noise: 1.8 }, 2.0),
    ] {
        let (truth, mean, cov) = quadrature(likelihood, &x, &y, precision, n);
        // The proposal is built from a Gaussian a little off the posterior (shifted by a
        // quarter sd, 30 % narrower), as an approximation would be.
        let off: Vec<f64> = (0..d)
            .map(|i| mean[i] + 0.25 * cov[(i, i)].sqrt())
            .collect();
        let narrow = Mat::<f64>::from_fn(d, d, |i, j| 0.7 * cov[(i, j)]);
        let model = Model {
            likelihood,
            rows: &rows,
            precision,
        };
        let e = log_evidence(
            model,
            4000,
            &off,
            narrow.as_ref(),
            &mut stream(3, "evidence"),
            "test",
        )
        .unwrap();
        assert!(
            e.mcse > 0.0 && e.mcse < 0.02,
            "{likelihood:?}: se {}",
            e.mcse
        );
        assert!(
            (e.log_evidence - truth).abs() < 4.0 * e.mcse,
            "{likelihood:?}, D = {d}: {} ± {} against quadrature {truth}",
            e.log_evidence,
            e.mcse
        );
        assert!(
            e.khat.is_some_and(|k| k < 0.7),
            "{likelihood:?}: {:?}",
            e.khat
        );
    }
}

#[test]
fn one_feature_the_estimate_equals_quadrature_within_four_standard_errors() {
    check_against_quadrature(1, 20_000);
}

#[test]
fn two_features_the_estimate_equals_quadrature_within_four_standard_errors() {
    check_against_quadrature(2, 600);
}

#[test]
fn the_delta_method_error_of_equal_weights_is_zero_and_of_two_values_is_closed_form() {
    let e = estimate(&[-3.0; 50]);
    assert!((e.log_evidence + 3.0).abs() < 1e-14);
    assert_eq!(e.mcse, 0.0);
    // Half the weights 1, half e: mean (1 + e) / 2, sample sd (e - 1) / 2 · √(S / (S - 1)).
    let logs: Vec<f64> = (0..100).map(|i| (i % 2) as f64).collect();
    let e = estimate(&logs);
    let euler = std::f64::consts::E;
    let se = (euler - 1.0) / 2.0 * (100.0f64 / 99.0).sqrt() / (10.0 * (1.0 + euler) / 2.0);
    assert!((e.mcse - se).abs() < 1e-14, "{} against {se}", e.mcse);
    assert!((e.log_evidence - ((1.0 + euler) / 2.0).ln()).abs() < 1e-14);
}

#[test]
fn the_estimate_is_the_same_bits_on_one_thread_or_two() {
    let (x, y) = problem(2, 11);
    let cov = Mat::<f64>::from_fn(2, 2, |i, j| if i == j { 0.2 } else { 0.03 });
    let run = |threads: usize| {
        crate::threads::on_threads(threads, || {
            let rows = InMemory {
                x: x.as_ref(),
                y: &y,
            };
            // 5,000 draws: four full blocks and a short one.
            let model = Model {
                likelihood: Likelihood::Logistic,
                rows: &rows,
                precision: 1.0,
            };
            log_evidence(
                model,
                5000,
                &[0.8, -0.5],
                cov.as_ref(),
                &mut stream(9, "threads"),
                "t",
            )
            .unwrap()
        })
    };
    let (one, two) = (run(1), run(2));
    assert_eq!(one.log_evidence.to_bits(), two.log_evidence.to_bits());
    assert_eq!(one.mcse.to_bits(), two.mcse.to_bits());
    assert_eq!(one.khat.map(f64::to_bits), two.khat.map(f64::to_bits));
}
