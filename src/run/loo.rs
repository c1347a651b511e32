//! A run's leave-one-out cross-validation (docs/maths.md §11): PSIS-LOO on the sampler's draws
//! or on draws from its Gaussian posterior corrected to the exact model (model/loglik.rs,
//! metrics/loo.rs), then each row whose Pareto k is above 0.7 refitted without the row, as
//! `loo::reloo` does, up to `[evaluation] loo_refits` rows (the worst first). Its draws come
//! from the run's own streams, `<id>/loo` and `<id>/loo/<row>`. Binary linear models held in
//! memory only: a streamed file would need a pass per row refitted.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::monitor::{Monitor, Silent};
use crate::config::{MethodPlan, Plan};
use crate::data::Dataset;
use crate::error::{Error, Result};
use crate::metrics::loo::{log_predictive, posterior_log_weights, psis_loo, Loo};
use crate::model::loglik::{log_lik, log_lik_values, without_row, PosteriorDraws};
use crate::model::method::{fit_matrix, FitInput, Predictor};
use crate::model::Likelihood;
use crate::numeric::rng;
use crate::record::{KCounts, LooDraws, LooPoint, LooRecord};

/// Draws from an approximation for its LOO by default: k judged by the 0.7 threshold needs
/// S above 2,200 (Vehtari et al. 2024, section 3.2.4).
pub const LOO_DRAWS: usize = 4000;

/// The most numbers in one run's log-likelihood matrix (draws x rows), 256 MiB.
const MAX_MATRIX: usize = 32 << 20;

/// What one LOO works on: the run, its training rows and its prior.
pub struct LooInput<'a> {
    pub plan: &'a Plan,
    pub method: &'a MethodPlan,
    pub dataset: &'a Dataset,
    pub precision: f64,
    pub cancel: Option<&'a AtomicBool>,
}

/// The run's LOO; `None` for a kind without a binary likelihood, a run without draws or a
/// Gaussian posterior, a matrix too large, or `loo_draws = 0`.
pub fn loo(
    input: &LooInput<'_>,
    predictor: &dyn Predictor,
    monitor: &mut dyn Monitor,
) -> Result<Option<LooRecord>> {
    let (plan, method) = (input.plan, input.method);
    let Some(likelihood) = method.kind.likelihood(method.options.noise()) else {
        return Ok(None);
    };
    let train = &input.dataset.train;
    let n = train.rows();
    let wanted = plan
        .evaluation
        .loo_draws
        .unwrap_or_else(|| default_draws(n));
    if wanted == 0 || n < 2 {
        return Ok(None);
    }
    let start = Instant::now();
    let mut stream = rng::stream(plan.seed, &format!("{}/loo", method.id));
    let what = format!("posterior covariance of {}", method.id);
    let draws = match PosteriorDraws::of(predictor, wanted, &mut stream, &what) {
        Ok(Some(d)) if d.count() * n <= MAX_MATRIX && d.count() >= 100 => d,
        Ok(_) | Err(_) => return Ok(None),
    };
    monitor.loo_started(&method.id, draws.count(), n);
    let ll = log_lik(
        likelihood,
        train.x.as_ref(),
        &train.y,
        &draws,
        input.precision,
    );
    let mut estimate = psis_loo(&ll);
    let counts = KCounts::of(estimate.pointwise.iter().map(|p| p.k), estimate.draws);
    let k_max = estimate.pointwise.iter().map(|p| p.k).fold(0.0, f64::max);
    let mut bad = estimate.bad_rows();
    bad.sort_by(|&a, &b| estimate.pointwise[b].k.total_cmp(&estimate.pointwise[a].k));
    let refit_count = bad.len().min(plan.evaluation.loo_refits);
    let (refitted, unrefitted) = (bad[..refit_count].to_vec(), bad[refit_count..].to_vec());
    for (done, &row) in refitted.iter().enumerate() {
        if input.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Err(Error::Cancelled);
        }
        monitor.loo_refit(&method.id, row, done, refitted.len());
        if let Some(elpd) = refit_row(input, likelihood, row, draws.count())? {
            let point = &mut estimate.pointwise[row];
            let lpd = point.elpd + point.p;
            point.elpd = elpd;
            point.p = lpd - elpd;
        }
    }
    let record = record(
        &estimate,
        draws.exact,
        counts,
        k_max,
        sorted(refitted),
        sorted(unrefitted),
        start.elapsed().as_secs_f64(),
    );
    monitor.loo_finished(&method.id, &record);
    Ok(Some(record))
}

/// The default `loo_draws` for N training rows: [`LOO_DRAWS`], fewer on large data so that
/// the matrix stays within 256 MiB, and none (0) below 1,000 draws.
pub fn default_draws(rows: usize) -> usize {
    let affordable = MAX_MATRIX / rows.max(1);
    if affordable < 1000 {
        0
    } else {
        affordable.min(LOO_DRAWS)
    }
}

fn sorted(mut rows: Vec<usize>) -> Vec<usize> {
    rows.sort_unstable();
    rows
}

fn record(
    loo: &Loo,
    exact: bool,
    k_counts: KCounts,
    k_max: f64,
    refitted_rows: Vec<usize>,
    unrefitted_rows: Vec<usize>,
    seconds: f64,
) -> LooRecord {
    LooRecord {
        elpd_loo: loo.elpd(),
        se: loo.se(),
        p_loo: loo.p_loo(),
        draws: loo.draws,
        draws_from: if exact {
            LooDraws::Posterior
        } else {
            LooDraws::CorrectedApproximation
        },
        k_counts,
        k_max,
        refitted_rows,
        unrefitted_rows,
        seconds,
        pointwise: loo
            .pointwise
            .iter()
            .map(|p| LooPoint {
                elpd: p.elpd,
                p: p.p,
                k: p.k,
            })
            .collect(),
    }
}

/// ln p(y_row | y_-row) from the run fitted again without training row `row`: the mean of
/// p(y_row | w_s) over a sampler's draws, or over `draws` draws of the refitted Gaussian
/// weighted by their Pareto-smoothed p(y_-row, w_s) / q_-row(w_s). `None` when the refit
/// fails on the reduced data (the PSIS estimate stays).
pub fn refit_row(
    input: &LooInput<'_>,
    likelihood: Likelihood,
    row: usize,
    draws: usize,
) -> Result<Option<f64>> {
    let train = &input.dataset.train;
    let (x, y) = without_row(&train.x, &train.y, row);
    let fitted = match fit_matrix(
        &FitInput {
            file: &input.plan.file,
            method: input.method,
            precision: input.precision,
            seed: input.plan.seed,
            x: x.as_ref(),
            y: &y,
            classes: input.dataset.classes.len(),
            intercept: input.dataset.columns.first().map(String::as_str)
                == Some(crate::data::INTERCEPT),
            columns: &input.dataset.columns,
            cancel: input.cancel,
        },
        &mut Silent,
    ) {
        Ok(f) => f,
        Err(Error::Numeric(_)) => return Ok(None),
        Err(e) => return Err(e),
    };
    let label = format!("{}/loo/{row}", input.method.id);
    let mut stream = rng::stream(input.plan.seed, &label);
    let Ok(Some(w)) = PosteriorDraws::of(fitted.predictor.as_ref(), draws, &mut stream, &label)
    else {
        return Ok(None);
    };
    let rest = log_lik(likelihood, x.as_ref(), &y, &w, input.precision);
    let weights = posterior_log_weights(w.count(), rest.correction.as_deref());
    let held_out = train.x.as_ref().subrows(row, 1);
    let values = log_lik_values(likelihood, held_out, &train.y[row..=row], w.w.as_ref());
    Ok(Some(log_predictive(&weights, &values)))
}
