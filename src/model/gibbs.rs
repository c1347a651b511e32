//! Exact Bayesian logistic regression by Pólya-Gamma data augmentation (Polson, Scott &
//! Windle 2013): with kappa = y - 1/2 and the same prior w ~ N(0, lambda^{-1} I),
//!   omega_n | w ~ PG(1, x_n^T w),
//!   w | omega ~ N(m, V), V^{-1} = X^T Omega X + lambda I, m = V X^T kappa,
//! one Cholesky factor of V^{-1} per sweep. Several seeded chains, started far apart, run in
//! parallel threads; their draws give the gold-standard posterior and predictive, with
//! split-R-hat and bulk ESS (model/diagnostics.rs).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use faer::{Mat, MatRef};
use rand_distr::{Distribution, StandardNormal};

use super::diagnostics::{bulk_ess, split_rhat};
use super::logistic::LogisticObjective;
use super::method::{FitInput, Fitted, PosteriorSummary, Predictor, Probabilities};
use super::predictive::{PredictiveKind, PredictiveSettings};
use crate::error::{Error, NumericError, Result};
use crate::numeric::linalg::{mat_t_vec, mat_vec, norm2, weighted_gram, Cholesky};
use crate::numeric::polya_gamma;
use crate::numeric::rng::{stream, Stream};
use crate::numeric::special::sigmoid;
use crate::optim::{Iterate, Objective, Observer, Outcome, Termination};

/// What one chain needs; shared read-only between the chain threads.
struct Problem<'a> {
    x: MatRef<'a, f64>,
    xt_kappa: Vec<f64>,
    precision: f64,
    burn_in: usize,
    draws: usize,
    thin: usize,
    seed: u64,
    id: &'a str,
    cancel: Option<&'a AtomicBool>,
}

impl Problem<'_> {
    fn sweeps(&self) -> usize {
        self.burn_in + self.draws * self.thin
    }

    /// One chain: kept draws (draws x D), or an error. Chain 0 reports each sweep to `observer`.
    fn chain(
        &self,
        c: usize,
        objective: Option<(&LogisticObjective<'_>, &mut dyn Observer)>,
    ) -> std::result::Result<Option<Vec<Vec<f64>>>, NumericError> {
        let mut rng = stream(self.seed, &format!("{}/gibbs/chain{c}", self.id));
        let d = self.x.ncols();
        // Over-dispersed starts, so that R-hat can see chains that have not met yet.
        let mut w: Vec<f64> = (0..d)
            .map(|_| {
                let z: f64 = StandardNormal.sample(&mut rng);
                2.0 * z
            })
            .collect();
        let mut kept = Vec::with_capacity(self.draws);
        let start = Instant::now();
        let mut observe = objective;
        for sweep in 0..self.sweeps() {
            if self.cancel.is_some_and(|f| f.load(Ordering::Relaxed)) {
                return Ok(None);
            }
            let a = mat_vec(self.x, &w);
            let omega: Vec<f64> = a
                .iter()
                .map(|&a| polya_gamma::sample(a, &mut rng))
                .collect();
            let mut h = weighted_gram(self.x, &omega);
            for i in 0..d {
                h[(i, i)] += self.precision;
            }
            let factor = Cholesky::factor(
                h.as_ref(),
                &format!("precision of w | omega in {}", self.id),
            )?;
            let m = factor.solve(&self.xt_kappa);
            w = factor.sample_inverse(&m, &mut rng);
            if let Some((obj, obs)) = observe.as_mut() {
                obs.observe(
                    self.id,
                    &Iterate {
                        iteration: sweep + 1,
                        objective: obj.value(&w),
                        grad_norm: norm2(&obj.gradient(&w)),
                        step: 1.0,
                        elapsed_s: start.elapsed().as_secs_f64(),
                    },
                );
            }
            if sweep >= self.burn_in && (sweep - self.burn_in).is_multiple_of(self.thin) {
                kept.push(w.clone());
            }
        }
        Ok(Some(kept))
    }
}

pub fn fit_method(input: &FitInput<'_>, observer: &mut dyn Observer) -> Result<Fitted> {
    if input.precision <= 0.0 {
        return Err(Error::config(
            input.file,
            format!(
                "[[method]] {}: gibbs-logistic samples the posterior under w ~ N(0, lambda^-1 I) and needs a proper prior: set [prior] precision > 0",
                input.run()
            ),
        ));
    }
    let o = &input.method.options;
    let kappa: Vec<f64> = input.y.iter().map(|y| y - 0.5).collect();
    let problem = Problem {
        x: input.x,
        xt_kappa: mat_t_vec(input.x, &kappa),
        precision: input.precision,
        burn_in: o.burn_in,
        draws: o.draws,
        thin: o.thin,
        seed: input.seed,
        id: input.run(),
        cancel: input.cancel,
    };
    let objective = LogisticObjective::new(input.x, input.y, input.precision);
    let results: Vec<std::result::Result<Option<Vec<Vec<f64>>>, NumericError>> =
        std::thread::scope(|s| {
            let handles: Vec<_> = (1..o.chains)
                .map(|c| {
                    s.spawn({
                        let problem = &problem;
                        move || problem.chain(c, None)
                    })
                })
                .collect();
            let first = problem.chain(0, Some((&objective, observer)));
            std::iter::once(first)
                .chain(handles.into_iter().map(|h| {
                    h.join().unwrap_or_else(|_| {
                        Err(NumericError::NonFinite("a Gibbs chain panicked".into()))
                    })
                }))
                .collect()
        });
    let mut chains = Vec::with_capacity(results.len());
    for r in results {
        match r? {
            Some(c) => chains.push(c),
            None => {
                return Ok(cancelled(input.x.ncols(), problem.sweeps()));
            }
        }
    }
    let predictor = GibbsPredictor::new(chains);
    let mean = predictor.mean.clone();
    Ok(Fitted {
        objective: Some(objective.value(&mean)),
        weights: mean.clone(),
        outcome: Outcome {
            termination: Termination::Converged,
            iterations: problem.sweeps(),
        },
        posterior: Some(PosteriorSummary {
            mean,
            cov_diag: predictor.var.clone(),
            log_evidence: None,
        }),
        predictor: Box::new(predictor),
    })
}

fn cancelled(d: usize, sweeps: usize) -> Fitted {
    Fitted {
        objective: None,
        weights: vec![0.0; d],
        outcome: Outcome {
            termination: Termination::Cancelled,
            iterations: sweeps,
        },
        posterior: None,
        predictor: Box::new(GibbsPredictor::new(vec![vec![vec![0.0; d]; 4]; 2])),
    }
}

/// Predictions averaged over every kept draw of every chain.
pub struct GibbsPredictor {
    /// All kept draws, chain after chain (S x D).
    draws: Vec<Vec<f64>>,
    pub mean: Vec<f64>,
    pub var: Vec<f64>,
    rhat_max: f64,
    ess_min: f64,
}

impl GibbsPredictor {
    fn new(chains: Vec<Vec<Vec<f64>>>) -> Self {
        let d = chains[0][0].len();
        let per_weight = |j: usize| -> Vec<Vec<f64>> {
            chains
                .iter()
                .map(|c| c.iter().map(|w| w[j]).collect())
                .collect()
        };
        let (mut rhat_max, mut ess_min) = (1.0f64, f64::INFINITY);
        for j in 0..d {
            let cj = per_weight(j);
            let r = split_rhat(&cj);
            let e = bulk_ess(&cj);
            if r.is_finite() {
                rhat_max = rhat_max.max(r);
            }
            if e.is_finite() {
                ess_min = ess_min.min(e);
            }
        }
        let draws: Vec<Vec<f64>> = chains.into_iter().flatten().collect();
        let s = draws.len() as f64;
        let mean: Vec<f64> = (0..d)
            .map(|j| draws.iter().map(|w| w[j]).sum::<f64>() / s)
            .collect();
        let var: Vec<f64> = (0..d)
            .map(|j| {
                draws.iter().map(|w| (w[j] - mean[j]).powi(2)).sum::<f64>() / (s - 1.0).max(1.0)
            })
            .collect();
        GibbsPredictor {
            draws,
            mean,
            var,
            rhat_max,
            ess_min: if ess_min.is_finite() { ess_min } else { s },
        }
    }

    /// sigma(x_n^T w_s) for every test row n and draw s, as rows.
    fn row_probabilities(&self, x: MatRef<'_, f64>) -> Vec<Vec<f64>> {
        let d = x.ncols();
        let w = Mat::<f64>::from_fn(d, self.draws.len(), |j, s| self.draws[s][j]);
        let a = x * &w;
        (0..x.nrows())
            .map(|n| (0..self.draws.len()).map(|s| sigmoid(a[(n, s)])).collect())
            .collect()
    }
}

impl Predictor for GibbsPredictor {
    fn predict(
        &self,
        kind: PredictiveKind,
        x: MatRef<'_, f64>,
        _: PredictiveSettings,
        _: &mut Stream,
    ) -> Probabilities {
        match kind {
            PredictiveKind::Plugin => {
                Probabilities::Binary(mat_vec(x, &self.mean).into_iter().map(sigmoid).collect())
            }
            _ => Probabilities::Binary(
                self.row_probabilities(x)
                    .iter()
                    .map(|p| p.iter().sum::<f64>() / p.len() as f64)
                    .collect(),
            ),
        }
    }

    /// sd over draws of sigma(x^T w_s) divided by sqrt(ESS), with the smallest bulk ESS of the
    /// weights standing in for the row's own (a conservative choice: autocorrelation of a
    /// prediction is at most that of its slowest-mixing direction, in practice).
    fn mcse(&self, kind: PredictiveKind, x: MatRef<'_, f64>) -> Option<Vec<f64>> {
        if kind != PredictiveKind::Exact {
            return None;
        }
        let ess = self.ess_min.max(1.0);
        Some(
            self.row_probabilities(x)
                .iter()
                .map(|p| {
                    let m = p.iter().sum::<f64>() / p.len() as f64;
                    let v = p.iter().map(|q| (q - m).powi(2)).sum::<f64>()
                        / (p.len() as f64 - 1.0).max(1.0);
                    (v / ess).sqrt()
                })
                .collect(),
        )
    }

    fn diagnostics(&self) -> Option<(f64, f64)> {
        Some((self.rhat_max, self.ess_min))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{self};

    /// A plan with one gibbs-logistic method (the data file is not read here).
    fn method(extra: &str) -> crate::config::MethodPlan {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let text = format!("[data]\npath = \"../datasets/pima.csv\"\ntarget = \"y\"\n\n[[method]]\nkind = \"gibbs-logistic\"\n{extra}\n");
        config::parse(&text, &root.join("experiments/t.toml"))
            .unwrap()
            .methods
            .remove(0)
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
        let m = method("chains = 4\ndraws = 2000\nburn_in = 200");
        let cols = vec!["intercept".to_string(), "x".to_string()];
        let input = FitInput {
            file: std::path::Path::new("t.toml"),
            method: &m,
            precision: 1.0,
            seed: 5,
            x: x.as_ref(),
            y: &y,
            classes: 2,
            intercept: true,
            columns: &cols,
            cancel: None,
        };
        let fit = fit_method(&input, &mut |_: &str, _: &Iterate| {}).unwrap();
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
            let m = method(&format!("chains = 4\ndraws = {draws}\nburn_in = 0"));
            let input = FitInput {
                file: std::path::Path::new("t.toml"),
                method: &m,
                precision: 0.01,
                seed: 2,
                x: x.as_ref(),
                y: &y,
                classes: 2,
                intercept: true,
                columns: &cols,
                cancel: None,
            };
            fit_method(&input, &mut |_: &str, _: &Iterate| {})
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
