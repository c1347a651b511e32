//! The draws' log likelihood against the models' own per-row losses, k-hat against the
//! straightforward path (a closure log target per draw), and the same bits on one thread or two.

use faer::Mat;
use rand_distr::{Distribution, StandardNormal};

use super::super::{draws_nll, gaussian_draws, gaussian_khat, posterior_khat};
use super::*;
use crate::error::Result;
use crate::model::streaming::{ChunkFn, Chunks, InMemory};
use crate::numeric::rng::stream;

/// The model's own per-row loss (`row_terms`, the fit's objective), as the old path used it.
fn row_loss(likelihood: Likelihood, a: f64, y: f64) -> f64 {
    match likelihood {
        Likelihood::Logistic => crate::model::logistic::row_terms(a, y).0,
        Likelihood::Probit { noise } => crate::model::probit::row_terms(a / noise, y).0,
    }
}

/// A seeded problem: N x D standard normal rows, labels from a logistic model at `truth`.
fn problem(n: usize, d: usize, seed: u64) -> (Mat<f64>, Vec<f64>, Vec<f64>) {
    let mut rng = stream(seed, "khat-likelihood-test");
    let truth: Vec<f64> = (0..d).map(|j| 1.5 - 0.7 * j as f64).collect();
    let x = Mat::<f64>::from_fn(n, d, |_, _| StandardNormal.sample(&mut rng));
    let y = (0..n)
        .map(|i| {
            let a: f64 = (0..d).map(|j| x[(i, j)] * truth[j]).sum();
            let u: f64 = rand::RngExt::random(&mut rng);
            f64::from(u8::from(u < 1.0 / (1.0 + (-a).exp())))
        })
        .collect();
    (x, y, truth)
}

/// The rows in chunks of `size`, as a streamed file yields them.
struct InChunks<'a> {
    x: &'a Mat<f64>,
    y: &'a [f64],
    size: usize,
}

impl Chunks for InChunks<'_> {
    fn each(&self, f: &mut ChunkFn<'_>) -> Result<()> {
        let mut start = 0;
        while start < self.y.len() {
            let rows = self.size.min(self.y.len() - start);
            f(
                self.x.as_ref().subrows(start, rows),
                &self.y[start..start + rows],
            )?;
            start += rows;
        }
        Ok(())
    }
}

#[test]
fn the_logistic_column_sum_equals_the_sum_of_row_losses_far_into_the_tails() {
    // Activations from -800 (e^{-|a|} underflows) through 0 to 800, both labels, and a length
    // that leaves a remainder after the eight lanes.
    let a: Vec<f64> = (0..1003)
        .map(|i| {
            let t = (i as f64 - 501.0) / 501.0;
            800.0 * t * t * t + 3.0 * t
        })
        .collect();
    let y: Vec<f64> = (0..a.len())
        .map(|i| ((i * 7) % 3 == 0) as u8 as f64)
        .collect();
    let reference: f64 = a
        .iter()
        .zip(&y)
        .map(|(&a, &y)| row_loss(Likelihood::Logistic, a, y))
        .sum();
    for (name, got) in [
        ("dispatched", logistic_column(&a, &y)),
        ("no FMA", logistic_column_with::<false>(&a, &y)),
        ("FMA", logistic_column_with::<true>(&a, &y)),
    ] {
        let rel = (got - reference).abs() / reference;
        assert!(rel < 1e-14, "{name}: {got} against {reference} ({rel:e})");
    }
}

#[test]
fn the_probit_column_sum_equals_the_sum_of_row_losses_far_into_the_tails() {
    // z = (2y - 1) a from -40 (the continued fraction's side of the floor at -8) to 40.
    let a: Vec<f64> = (0..1003)
        .map(|i| {
            let t = (i as f64 - 501.0) / 501.0;
            40.0 * t * t * t + 2.0 * t
        })
        .collect();
    let y: Vec<f64> = (0..a.len())
        .map(|i| ((i * 7) % 3 == 0) as u8 as f64)
        .collect();
    let probit = Likelihood::Probit { noise: 1.0 };
    let reference: f64 = a
        .iter()
        .zip(&y)
        .map(|(&a, &y)| row_loss(probit, a, y))
        .sum();
    for (name, got) in [
        ("dispatched", probit_column(&a, &y)),
        ("no FMA", probit_column_with::<false>(&a, &y)),
        ("FMA", probit_column_with::<true>(&a, &y)),
    ] {
        let rel = (got - reference).abs() / reference;
        assert!(rel < 1e-14, "{name}: {got} against {reference} ({rel:e})");
    }
}

#[test]
fn each_draws_log_likelihood_equals_the_sum_of_the_models_row_losses() {
    // 700 rows are three tiles, 300 draws three blocks (the last one short).
    let (x, y, truth) = problem(700, 4, 1);
    let cov = Mat::<f64>::from_fn(4, 4, |i, j| if i == j { 0.3 } else { 0.05 });
    let mut rng = stream(2, "draws");
    let (w, _) = gaussian_draws(&truth, cov.as_ref(), 300, &mut rng, "test").unwrap();
    let rows = InMemory {
        x: x.as_ref(),
        y: &y,
    };
    for likelihood in [
        Likelihood::Logistic,
        Likelihood::Probit { noise: 1.0 },
        Likelihood::Probit { noise: 2.5 },
    ] {
        // The probit draws arrive divided by the noise, as posterior_khat divides them.
        let noise = match likelihood {
            Likelihood::Probit { noise } => noise,
            Likelihood::Logistic => 1.0,
        };
        let scaled = Mat::<f64>::from_fn(4, w.ncols(), |i, s| w[(i, s)] / noise);
        let nll = draws_nll(likelihood, &rows, scaled.as_ref()).unwrap();
        let in_chunks = InChunks {
            x: &x,
            y: &y,
            size: 97,
        };
        let streamed = draws_nll(likelihood, &in_chunks, scaled.as_ref()).unwrap();
        for s in 0..w.ncols() {
            let reference: f64 = (0..x.nrows())
                .map(|i| {
                    let a: f64 = (0..x.ncols()).map(|j| x[(i, j)] * w[(j, s)]).sum();
                    row_loss(likelihood, a, y[i])
                })
                .sum();
            for (how, got) in [("in memory", nll[s]), ("in chunks of 97", streamed[s])] {
                let rel = (got - reference).abs() / reference;
                assert!(
                    rel < 1e-13,
                    "{likelihood:?} {how}, draw {s}: {got} against {reference}"
                );
            }
        }
    }
}

#[test]
fn khat_equals_the_straightforward_path_with_the_models_row_losses() {
    // The same draws (the same stream) through gaussian_khat, whose log target sums each
    // row's row_terms loss draw by draw.
    let (x, y, truth) = problem(400, 3, 3);
    let precision = 0.7;
    let cov = Mat::<f64>::from_fn(3, 3, |i, j| if i == j { 0.08 } else { 0.01 });
    for likelihood in [
        Likelihood::Logistic,
        Likelihood::Probit { noise: 1.0 },
        Likelihood::Probit { noise: 1.7 },
    ] {
        let target = |w: &[f64]| {
            let loss: f64 = (0..x.nrows())
                .map(|i| {
                    let a: f64 = (0..x.ncols()).map(|j| x[(i, j)] * w[j]).sum();
                    row_loss(likelihood, a, y[i])
                })
                .sum();
            -(loss + 0.5 * precision * w.iter().map(|v| v * v).sum::<f64>())
        };
        let slow = gaussian_khat(
            &truth,
            cov.as_ref(),
            &target,
            2000,
            &mut stream(4, "k"),
            "t",
        )
        .unwrap()
        .unwrap();
        let rows = InMemory {
            x: x.as_ref(),
            y: &y,
        };
        let mut rng = stream(4, "k");
        let fast = posterior_khat(
            likelihood,
            2000,
            &rows,
            precision,
            &truth,
            cov.as_ref(),
            &mut rng,
            "t",
        )
        .unwrap()
        .unwrap();
        assert!(
            (fast - slow).abs() < 1e-10,
            "{likelihood:?}: {fast} against {slow}"
        );
    }
}

#[test]
fn the_totals_are_the_same_bits_on_one_thread_or_two() {
    let (x, y, truth) = problem(900, 5, 5);
    let cov = Mat::<f64>::from_fn(5, 5, |i, j| if i == j { 0.2 } else { 0.0 });
    let run = |threads: usize| {
        crate::threads::on_threads(threads, || {
            let rows = InMemory {
                x: x.as_ref(),
                y: &y,
            };
            let mut rng = stream(6, "threads");
            let (w, _) = gaussian_draws(&truth, cov.as_ref(), 1000, &mut rng, "t").unwrap();
            let nll = draws_nll(Likelihood::Logistic, &rows, w.as_ref()).unwrap();
            let mut rng = stream(6, "threads");
            let k = posterior_khat(
                Likelihood::Logistic,
                1000,
                &rows,
                1.0,
                &truth,
                cov.as_ref(),
                &mut rng,
                "t",
            )
            .unwrap();
            (nll, k)
        })
    };
    let (one, k1) = run(1);
    let (two, k2) = run(2);
    assert!(one
        .iter()
        .zip(&two)
        .all(|(a, b)| a.to_bits() == b.to_bits()));
    assert_eq!(k1.map(f64::to_bits), k2.map(f64::to_bits));
    assert!(k1.is_some());
}
