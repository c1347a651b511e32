//! Exact posterior sampling by Hamiltonian Monte Carlo (Duane, Kennedy, Pendleton & Roweth
//! 1987; Neal 2011, "MCMC using Hamiltonian dynamics"), under w ~ N(0, lambda^-1 I):
//! `hmc-logistic` and `hmc-probit` (P(y = 1 | w) = Phi(w^T x / beta)).
//!
//! The mass matrix is the Hessian H of E(w) at the mode, the Laplace approximation's
//! precision: the chains move in coordinates where the posterior is close to N(0, I), so one
//! step size suits every direction, and a trajectory of fixed length in those units gives
//! nearly independent draws where Gibbs creeps along correlated weights. The step size is
//! adapted in the burn-in by dual averaging and then frozen; every trajectory's end is
//! accepted with probability min(1, e^{-ΔH}), so the kept draws are exact for any step size
//! and mass matrix (docs/maths.md §20).
//!
//! The chains run as the Gibbs chains do (model/gibbs/): seeded per chain from the experiment
//! seed, started over-dispersed, in threads of their own, reporting through the same outbox;
//! the draws make the same predictor, so every view of a sampler reads them.

mod adapt;
mod chain;

use faer::Mat;

use self::chain::{Moves, Sampler, Target};
use super::fit::{FitInput, Fitted};
use super::gibbs::{self, GibbsPredictor, Link, TraceFn};
use super::logistic::LogisticObjective;
use super::options::SamplerOptions;
use super::probit::ProbitObjective;
use crate::error::Result;
use crate::numeric::linalg::Cholesky;
use crate::optim::{Curvature, Iterate, Objective, Observer, Start, Termination};
use crate::record::HmcDiagnostics;

pub fn fit_method(
    input: &FitInput<'_>,
    options: &SamplerOptions,
    observer: &mut dyn Observer,
) -> Result<Fitted> {
    gibbs::proper_prior(input)?;
    let (design, link) = gibbs::sampled_model(input, options);
    let probit = matches!(link, Link::Probit { .. });
    let x = design.as_ref();
    let logistic = LogisticObjective::new(x, input.y, input.precision);
    let probit_objective = ProbitObjective::new(x, input.y, input.precision);
    let objective: &(dyn Objective + Sync) = if probit { &probit_objective } else { &logistic };
    let schedule = options.schedule();
    let Some((mode, l)) = laplace(objective, input)? else {
        return Ok(gibbs::cancelled(input.x.ncols(), schedule.sweeps()));
    };
    let sampler = Sampler {
        target: Target {
            x: &design,
            y: input.y,
            probit,
            precision: input.precision,
        },
        mode,
        l,
        schedule,
        seed: input.seed,
        id: input.run(),
        cancel: input.cancel,
    };
    // Chain 0's outbox records E(w) and |grad E(w)|, which every HMC state already has.
    let trace: &TraceFn<'_> = &|w: &[f64]| sampler.target.energy(w);
    let results = gibbs::run_chains(input.run(), schedule, trace, observer, &|c, feed| {
        sampler.chain(c, feed)
    });
    let (mut chains, mut moves) = (Vec::with_capacity(results.len()), Vec::new());
    for r in results {
        match r? {
            Some((draws, m)) => {
                chains.push(draws);
                moves.push(m);
            }
            None => return Ok(gibbs::cancelled(input.x.ncols(), schedule.sweeps())),
        }
    }
    let predictor = GibbsPredictor::new(chains, link).with_hmc(summary(&moves));
    Ok(gibbs::sampled(predictor, objective, schedule.sweeps()))
}

/// The mode m of E(w) by the method's Newton and a lower-triangular L with L L^T = H^{-1} at
/// m; `None` when cancelled. The iterates are not reported: the run's trace is its chains'.
fn laplace(
    objective: &(dyn Objective + Sync),
    input: &FitInput<'_>,
) -> Result<Option<(Vec<f64>, Mat<f64>)>> {
    let start = Start::at(vec![0.0; objective.dim()]);
    let mut quiet = |_: &str, _: &Iterate| {};
    let (mode, outcome) = super::laplace::minimise(
        objective,
        input.method,
        Curvature::EveryStep,
        start,
        input.cancel,
        &mut quiet,
    )?;
    if outcome.termination == Termination::Cancelled {
        return Ok(None);
    }
    // A mode short of full convergence still gives a positive-definite H (lambda > 0): the
    // mass matrix only sets how fast the chains move, never what they sample.
    let q = super::laplace::approximate(objective, &mode, input.precision, input.run())?;
    let cov = q.precision.inverse();
    let what = format!("Laplace covariance of {}", input.run());
    let l = Cholesky::factor(cov.as_ref(), &what)?.lower().to_owned();
    Ok(Some((mode, l)))
}

/// Every chain's moves after the burn-in, pooled.
fn summary(moves: &[Moves]) -> HmcDiagnostics {
    let iterations: usize = moves.iter().map(|m| m.iterations).sum();
    let per = |v: f64| v / iterations.max(1) as f64;
    HmcDiagnostics {
        acceptance: per(moves.iter().map(|m| m.acceptance).sum()),
        step_size: moves.iter().map(|m| m.step).sum::<f64>() / moves.len().max(1) as f64,
        leapfrog_steps: per(moves.iter().map(|m| m.leapfrog as f64).sum()),
        divergent: moves.iter().map(|m| m.divergent).sum(),
    }
}

#[cfg(test)]
mod tests;
