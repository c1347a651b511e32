//! The sampler against grid integration, its reports to the observer, gibbs-probit against
//! probit-laplace, and the truncated-normal draw against its closed form.

use faer::{Mat, MatRef};

use super::*;
use crate::catalog::MethodKind;
use crate::model::options::{Options, SamplerOptions};
use crate::model::spec::{MethodSpec, Optimizer};

/// One method of `kind` as config/ would build it with the defaults and the Gibbs `schedule`
/// (Newton's defaults for the Laplace kinds the tests compare with).
fn test_method(kind: MethodKind, schedule: SamplerOptions) -> MethodSpec {
    MethodSpec {
        id: kind.name().to_string(),
        kind,
        optimizer: Optimizer::Newton,
        max_iter: 100,
        tolerance: 1e-8,
        options: match kind.family() {
            crate::catalog::Family::Gibbs => Options::Gibbs(schedule),
            family => Options::defaults(family),
        },
    }
}

/// The fit input of `method` on binary rows `x`, `y` with an intercept first.
fn test_input<'a>(
    method: &'a MethodSpec,
    (x, y): (MatRef<'a, f64>, &'a [f64]),
    columns: &'a [String],
    precision: f64,
    seed: u64,
) -> FitInput<'a> {
    FitInput {
        file: std::path::Path::new("t.toml"),
        method,
        precision,
        seed,
        x,
        y,
        classes: 2,
        intercept: true,
        columns,
        cancel: None,
        record_steps: false,
    }
}

mod fits {
    use super::*;
    use crate::model::diagnostics::split_rhat;
    use crate::numeric::linalg::norm2;
    use crate::optim::{DrawBatch, Iterate};

    /// One gibbs-logistic method with the schedule `(chains, draws, burn_in, thin)`.
    fn method((chains, draws, burn_in, thin): (usize, usize, usize, usize)) -> MethodSpec {
        let schedule = SamplerOptions {
            chains,
            draws,
            burn_in,
            thin,
            ..SamplerOptions::default()
        };
        test_method(MethodKind::GibbsLogistic, schedule)
    }

    #[test]
    fn two_weight_posterior_matches_grid_integration() {
        // 30 rows, intercept + one feature, lambda = 1: the exact posterior moments by a
        // 400 x 400 grid over +-6 posterior sd, against the pooled Gibbs draws within 5 MCSE.
        let x = Mat::<f64>::from_fn(30, 2, |i, j| {
            if j == 0 {
                1.0
            } else {
                ((i as f64) * 0.61).sin() * 1.7
            }
        });
        let y: Vec<f64> = (0..30)
            .map(|i| f64::from(u8::from((i * 7 + 3) % 5 < 2 || i % 6 == 0)))
            .collect();
        let m = method((4, 2000, 200, 1));
        let cols = vec!["intercept".to_string(), "x".to_string()];
        let input = test_input(&m, (x.as_ref(), &y), &cols, 1.0, 5);
        let fit = crate::model::method::fit_matrix(&input, &mut |_: &str, _: &Iterate| {}).unwrap();
        let post = fit.posterior.unwrap();
        let obj = LogisticObjective::new(x.as_ref(), &y, 1.0);
        let (n, half) = (400, 4.0);
        let h = 2.0 * half / n as f64;
        let (mut z, mut m1, mut m2) = (0.0, [0.0; 2], [0.0; 2]);
        let centre = &post.mean;
        let e0 = obj.value(centre);
        for i in 0..n {
            for k in 0..n {
                let w = [
                    centre[0] - half + (i as f64 + 0.5) * h,
                    centre[1] - half + (k as f64 + 0.5) * h,
                ];
                let p = (e0 - obj.value(&w)).exp();
                z += p;
                for j in 0..2 {
                    m1[j] += p * w[j];
                    m2[j] += p * w[j] * w[j];
                }
            }
        }
        let (d_rhat, ess) = fit.predictor.diagnostics().unwrap();
        assert!(d_rhat < 1.01, "R-hat {d_rhat}");
        for j in 0..2 {
            let mean = m1[j] / z;
            let var = m2[j] / z - mean * mean;
            let mcse = (var / ess).sqrt();
            assert!(
                (post.mean[j] - mean).abs() < 5.0 * mcse,
                "w{j}: {} vs {mean} (mcse {mcse})",
                post.mean[j]
            );
            assert!(
                (post.cov_diag[j] / var - 1.0).abs() < 0.1,
                "var w{j}: {} vs {var}",
                post.cov_diag[j]
            );
        }
    }

    /// Every iterate and draw batch a sampler reports.
    #[derive(Default)]
    struct Collect {
        iterates: Vec<Iterate>,
        batches: Vec<DrawBatch>,
    }

    impl Observer for Collect {
        fn observe(&mut self, _run: &str, iterate: &Iterate) {
            self.iterates.push(iterate.clone());
        }
        fn wants_draws(&self) -> bool {
            true
        }
        fn draws(&mut self, _run: &str, batch: &DrawBatch) {
            self.batches.push(batch.clone());
        }
    }

    #[test]
    fn the_draws_sent_to_observers_are_the_draws_the_posterior_is_made_of() {
        let x = Mat::<f64>::from_fn(30, 2, |i, j| {
            if j == 0 {
                1.0
            } else {
                ((i as f64) * 0.37).cos() * 1.3
            }
        });
        let y: Vec<f64> = (0..30).map(|i| f64::from(u8::from(i % 3 != 0))).collect();
        let m = method((3, 40, 7, 3));
        let cols = vec!["intercept".to_string(), "x".to_string()];
        let input = test_input(&m, (x.as_ref(), &y), &cols, 1.0, 11);
        let mut seen = Collect::default();
        let fit = crate::model::method::fit_matrix(&input, &mut seen).unwrap();
        // Per chain: every sweep 1..=7 + 40 * 3 once, in order, and the kept ones at
        // sweeps 8, 11, ..., 125.
        let mut chains: Vec<Draws> = vec![Vec::new(); 3];
        let mut states: Vec<Draws> = vec![Vec::new(); 3];
        for b in &seen.batches {
            assert_eq!(
                b.first_sweep,
                states[b.chain].len() + 1,
                "chain {}",
                b.chain
            );
            let kept_sweeps: Vec<usize> = b.sweeps().filter(|s| s.2).map(|s| s.0).collect();
            assert!(kept_sweeps.iter().all(|n| n >= &8 && (n - 8) % 3 == 0));
            states[b.chain].extend(b.w.iter().cloned());
            chains[b.chain].extend(b.kept().map(<[f64]>::to_vec));
        }
        assert!(states.iter().all(|c| c.len() == 127));
        assert!(chains.iter().all(|c| c.len() == 40));
        // The posterior moments and R-hat, recomputed from the forwarded draws alone.
        let pooled: Draws = chains.iter().flatten().cloned().collect();
        let s = pooled.len() as f64;
        let post = fit.posterior.as_ref().unwrap();
        for j in 0..2 {
            let mean = pooled.iter().map(|w| w[j]).sum::<f64>() / s;
            let var = pooled.iter().map(|w| (w[j] - mean).powi(2)).sum::<f64>() / (s - 1.0);
            assert_eq!(post.mean[j], mean, "w{j}");
            assert_eq!(post.cov_diag[j], var, "w{j}");
        }
        let rhat = (0..2)
            .map(|j| {
                let cj: Draws = chains
                    .iter()
                    .map(|c| c.iter().map(|w| w[j]).collect())
                    .collect();
                split_rhat(&cj)
            })
            .fold(1.0, f64::max);
        assert_eq!(fit.predictor.diagnostics().unwrap().0, rhat);
        // Chain 0's iterates are E(w) and |grad E(w)| at its own draws, sweep by sweep (the
        // trace's sequential pass sums in another order than the objective's: to rounding).
        let obj = LogisticObjective::new(x.as_ref(), &y, 1.0);
        assert_eq!(seen.iterates.len(), 127);
        for (it, w) in seen.iterates.iter().zip(&states[0]) {
            let close = |a: f64, b: f64| (a - b).abs() <= 1e-13 * b.abs().max(1.0);
            assert!(
                close(it.objective, obj.value(w)),
                "E at sweep {}",
                it.iteration
            );
            let g = norm2(&obj.gradient(w));
            assert!(close(it.grad_norm, g), "|g| at sweep {}", it.iteration);
        }
        // An observer that does not ask for draws gets the same fit.
        let quiet =
            crate::model::method::fit_matrix(&input, &mut |_: &str, _: &Iterate| {}).unwrap();
        assert_eq!(quiet.posterior.unwrap().mean, post.mean);
    }

    #[test]
    fn short_chains_from_far_apart_have_a_larger_rhat_than_long_ones() {
        let x = Mat::<f64>::from_fn(40, 2, |i, j| {
            if j == 0 {
                1.0
            } else {
                (i as f64 - 20.0) / 10.0
            }
        });
        let y: Vec<f64> = (0..40).map(|i| f64::from(u8::from(i % 3 == 0))).collect();
        let cols = vec!["intercept".to_string(), "x".to_string()];
        let rhat = |draws: usize| {
            let m = method((4, draws, 0, 1));
            let input = test_input(&m, (x.as_ref(), &y), &cols, 0.01, 2);
            crate::model::method::fit_matrix(&input, &mut |_: &str, _: &Iterate| {})
                .unwrap()
                .predictor
                .diagnostics()
                .unwrap()
                .0
        };
        let (short, long) = (rhat(4), rhat(2000));
        assert!(short > long, "{short} vs {long}");
        assert!(long < 1.01, "{long}");
    }
}

mod probit {
    use rand::RngExt;
    use rand_distr::{Distribution, StandardNormal};

    use super::super::chain::positive_normal;
    use super::*;
    use crate::numeric::rng::stream;
    use crate::numeric::special::norm_cdf;
    use crate::optim::Iterate;

    #[test]
    fn albert_chib_agrees_with_probit_laplace_on_a_large_well_conditioned_problem() {
        // 3,000 rows, an intercept and two independent standard-normal features, labels from
        // the probit model itself under lambda = 1: the posterior is close to Gaussian
        // (Bernstein-von Mises), so the Laplace approximation's means and sds must match the
        // exact sampler's up to the sampler's Monte-Carlo error (about 1/sqrt(ESS) = 0.03 sd
        // for the means here, half that relative for the sds).
        let n = 3000;
        let mut rng = stream(21, "albert-chib/data");
        let x = Mat::<f64>::from_fn(n, 3, |_, j| {
            if j == 0 {
                1.0
            } else {
                StandardNormal.sample(&mut rng)
            }
        });
        let w = [-0.3, 0.8, -0.5];
        let y: Vec<f64> = (0..n)
            .map(|i| {
                let a: f64 = (0..3).map(|j| x[(i, j)] * w[j]).sum();
                f64::from(u8::from(rng.random::<f64>() < norm_cdf(a)))
            })
            .collect();
        let cols = vec!["intercept".to_string(), "a".to_string(), "b".to_string()];
        let posterior = |kind: MethodKind, schedule: SamplerOptions| {
            let m = test_method(kind, schedule);
            let input = test_input(&m, (x.as_ref(), &y), &cols, 1.0, 8);
            let fit =
                crate::model::method::fit_matrix(&input, &mut |_: &str, _: &Iterate| {}).unwrap();
            if let Some((rhat, ess)) = fit.predictor.diagnostics() {
                assert!(rhat < 1.01 && ess > 500.0, "R-hat {rhat}, ESS {ess}");
            }
            fit.posterior.unwrap()
        };
        let gold = posterior(
            MethodKind::GibbsProbit,
            SamplerOptions {
                draws: 1000,
                burn_in: 200,
                ..SamplerOptions::default()
            },
        );
        let laplace = posterior(MethodKind::ProbitLaplace, SamplerOptions::default());
        for j in 0..3 {
            let sd = gold.cov_diag[j].sqrt();
            let error = (laplace.mean[j] - gold.mean[j]).abs() / sd;
            let ratio = laplace.cov_diag[j].sqrt() / sd;
            // measured: errors 0.040, 0.011, 0.061 sd; ratios 0.997, 1.007, 0.990
            assert!(error < 0.12, "w{j}: mean off by {error} gold sds");
            assert!((ratio - 1.0).abs() < 0.04, "w{j}: sd ratio {ratio}");
        }
    }

    #[test]
    fn truncated_normal_moments_match_the_closed_form() {
        // E[Z | Z > 0] for Z ~ N(m, 1) is m + phi(m) / Phi(m) (the inverse Mills ratio), in both
        // the rejection (m > -0.5) and the exponential-proposal (m <= -0.5) regimes.
        for m in [1.0, 0.0, -0.4, -0.6, -3.0, -8.0] {
            let mut rng = stream(4, &format!("tn{m}"));
            let n = 40_000;
            let draws: Vec<f64> = (0..n).map(|_| positive_normal(m, &mut rng)).collect();
            assert!(draws.iter().all(|&z| z > 0.0));
            let mean = draws.iter().sum::<f64>() / n as f64;
            let want = m + crate::numeric::special::inv_mills(m);
            let var = draws.iter().map(|z| (z - mean).powi(2)).sum::<f64>() / n as f64;
            assert!(
                (mean - want).abs() < 5.0 * (var / n as f64).sqrt(),
                "m = {m}: {mean} vs {want}"
            );
        }
    }
}
