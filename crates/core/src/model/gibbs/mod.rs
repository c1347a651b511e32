//! Exact posterior sampling, the gold standard the approximations are measured against, under
//! the same prior w ~ N(0, lambda^{-1} I):
//! - `gibbs-logistic`, Pólya-Gamma data augmentation (Polson, Scott & Windle 2013): with
//!   kappa = y - 1/2, omega_n | w ~ PG(1, x_n^T w) and w | omega ~ N(m, V),
//!   V^{-1} = X^T Omega X + lambda I, m = V X^T kappa: one Cholesky factor per sweep;
//! - `gibbs-probit`, Albert & Chib (1993) for P(y = 1 | w) = Phi(w^T x / beta): with the rows
//!   scaled to x / beta, z_n | w ~ N(x_n^T w, 1) truncated to the side of 0 that y_n says, and
//!   w | z ~ N(V X^T z, V), V^{-1} = X^T X + lambda I, factored once.
//!
//! Several seeded chains, started far apart, run in parallel threads; their draws give the
//! posterior and predictive, with split-R-hat and bulk ESS (model/diagnostics.rs). The
//! threads send their progress to the calling thread, which alone holds the observer: chain
//! 0's E(w) at each sweep (the trace) and, to an observer that asks, every chain's draws.

mod chain;
mod feed;
mod predictor;

use std::sync::mpsc;

use faer::Mat;

use self::chain::{Problem, Sweep};
use self::feed::Report;
pub(super) use self::feed::{Feed, TraceFn};
pub use self::predictor::GibbsPredictor;
pub(super) use self::predictor::{Draws, Link};
use super::fit::{FitInput, Fitted, PosteriorSummary};
use super::logistic::LogisticObjective;
use super::options::SamplerOptions;
use super::probit::ProbitObjective;
use crate::catalog::Likelihood;
use crate::error::{Error, NumericError, Result};
use crate::numeric::glm;
use crate::numeric::linalg::{mat_t_vec, weighted_gram, Cholesky};
use crate::numeric::logistic_sums;
use crate::numeric::polya_gamma::PolyaGamma;
use crate::optim::{Objective, Observer, Outcome, Schedule, Termination};

/// A sampler of the posterior under w ~ N(0, lambda^-1 I) needs lambda > 0: the error that
/// says so (the HMC kinds share it).
pub(super) fn proper_prior(input: &FitInput<'_>) -> Result<()> {
    if input.precision <= 0.0 {
        return Err(Error::config(
            input.file,
            format!(
                "[[method]] {}: {} samples the posterior under w ~ N(0, lambda^-1 I) and needs a proper prior: set [prior] precision > 0",
                input.run(),
                input.method.kind.name()
            ),
        ));
    }
    Ok(())
}

/// The model a sampler draws from: the link of the catalogue's likelihood (Phi(w^T x / beta)
/// with the `noise` key's beta, or the logistic), and an owned copy of the design divided by
/// beta (x / 1 = x exactly for the logistic) with contiguous columns.
pub(super) fn sampled_model(input: &FitInput<'_>, options: &SamplerOptions) -> (Mat<f64>, Link) {
    let noise = options.noise;
    let (link, beta) = match input.method.kind.likelihood(noise) {
        Some(Likelihood::Probit { noise }) => (Link::Probit { beta: noise }, noise),
        Some(Likelihood::Logistic) | None => (Link::Logistic, 1.0),
    };
    let design = Mat::<f64>::from_fn(input.x.nrows(), input.x.ncols(), |i, j| {
        input.x[(i, j)] / beta
    });
    (design, link)
}

pub fn fit_method(
    input: &FitInput<'_>,
    options: &SamplerOptions,
    observer: &mut dyn Observer,
) -> Result<Fitted> {
    proper_prior(input)?;
    let (design, link) = sampled_model(input, options);
    let probit = matches!(link, Link::Probit { .. });
    let x = design.as_ref();
    let sweep = if probit {
        let mut h = weighted_gram(x, &vec![1.0; x.nrows()]);
        for i in 0..x.ncols() {
            h[(i, i)] += input.precision;
        }
        let what = format!("X^T X + lambda I of {}", input.run());
        Sweep::Probit {
            factor: Cholesky::factor(h.as_ref(), &what)?,
        }
    } else {
        let kappa: Vec<f64> = input.y.iter().map(|y| y - 0.5).collect();
        Sweep::Logistic {
            xt_kappa: mat_t_vec(x, &kappa),
            pg: PolyaGamma::new(),
        }
    };
    let problem = Problem {
        x: &design,
        y: input.y,
        sweep,
        precision: input.precision,
        schedule: options.schedule(),
        seed: input.seed,
        id: input.run(),
        cancel: input.cancel,
    };
    let logistic = LogisticObjective::new(x, input.y, input.precision);
    let probit_objective = ProbitObjective::new(x, input.y, input.precision);
    let objective: &(dyn Objective + Sync) = if probit { &probit_objective } else { &logistic };
    // Chain 0's trace. The logistic pass stays on the chain's core; the probit objective's
    // pass is glm.rs's parallel one.
    let logistic_trace = |w: &[f64]| {
        let (value, gradient) = logistic_sums::value_and_gradient(&design, input.y, w);
        let (value, gradient, _) = glm::Terms {
            value,
            gradient,
            hessian: None,
        }
        .with_prior(w, input.precision);
        (value, gradient)
    };
    let probit_trace = |w: &[f64]| {
        let (value, gradient, _) = probit_objective.terms(w, false);
        (value, gradient)
    };
    let trace: &TraceFn<'_> = if probit {
        &probit_trace
    } else {
        &logistic_trace
    };
    let results = run_chains(problem.id, problem.schedule, trace, observer, &|c, feed| {
        problem.chain(c, feed)
    });
    let mut chains = Vec::with_capacity(results.len());
    for r in results {
        match r? {
            Some(c) => chains.push(c),
            None => return Ok(cancelled(input.x.ncols(), problem.schedule.sweeps())),
        }
    }
    let predictor = GibbsPredictor::new(chains, link);
    Ok(sampled(predictor, objective, problem.schedule.sweeps()))
}

/// The fit of a sampler whose chains finished: the posterior mean (also the point estimate)
/// and covariance of the kept draws, E(w) at the mean, `sweeps` per chain.
pub(super) fn sampled(
    predictor: GibbsPredictor,
    objective: &dyn Objective,
    sweeps: usize,
) -> Fitted {
    let mean = predictor.mean.clone();
    Fitted {
        pass_times: None,
        steps: None,
        objective: Some(objective.value(&mean)),
        weights: mean.clone(),
        outcome: Outcome {
            termination: Termination::Converged,
            iterations: sweeps,
        },
        posterior: Some(PosteriorSummary {
            mean,
            cov_diag: predictor.var.clone(),
            cov: super::fit::full_cov(predictor.mean.len(), || predictor.sample_covariance()),
            precision_factor: None,
            log_evidence: None,
        }),
        predictor: Box::new(predictor),
    }
}

/// One chain's run: `(chain index, its outbox)` to its result, `None` when cancelled.
pub(super) type ChainFn<'a, T> =
    dyn Fn(usize, &mut Feed<'_>) -> std::result::Result<Option<T>, NumericError> + Sync + 'a;

/// Every chain of `schedule` in its own thread, each with its own seeded stream (so the draws
/// do not depend on the threads' timing); this thread passes their reports to `observer` under
/// the run `id` as they arrive and returns the chains' results in chain order. Chain 0's
/// outbox computes `trace` at each sweep. The Gibbs and HMC kinds share it.
pub(super) fn run_chains<T: Send>(
    id: &str,
    schedule: Schedule,
    trace: &TraceFn<'_>,
    observer: &mut dyn Observer,
    chain: &ChainFn<'_, T>,
) -> Vec<std::result::Result<Option<T>, NumericError>> {
    let draws = observer.wants_draws();
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..schedule.chains)
            .map(|c| {
                let first = (c == 0).then_some(trace);
                let mut feed = Feed::new(tx.clone(), c, schedule, first, draws);
                s.spawn(move || chain(c, &mut feed))
            })
            .collect();
        // The loop ends when every chain has finished (or panicked) and dropped its sender.
        drop(tx);
        for report in rx {
            match report {
                Report::Iterates(iterates) => {
                    for it in &iterates {
                        observer.observe(id, it);
                    }
                }
                Report::Draws(batch) => observer.draws(id, &batch),
            }
        }
        let panicked = || Err(NumericError::NonFinite("a sampler's chain panicked".into()));
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| panicked()))
            .collect()
    })
}

/// The fit of a run cancelled while its chains ran.
pub(super) fn cancelled(d: usize, sweeps: usize) -> Fitted {
    Fitted {
        pass_times: None,
        steps: None,
        objective: None,
        weights: vec![0.0; d],
        outcome: Outcome {
            termination: Termination::Cancelled,
            iterations: sweeps,
        },
        posterior: None,
        predictor: Box::new(GibbsPredictor::new(
            vec![vec![vec![0.0; d]; 4]; 2],
            Link::Logistic,
        )),
    }
}

#[cfg(test)]
mod tests;
