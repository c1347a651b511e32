//! A run's leave-one-out cross-validation (docs/maths.md §11): PSIS-LOO on the sampler's draws
//! or on draws from its Gaussian posterior corrected to the exact model (model/loglik.rs,
//! metrics/loo.rs), then each row whose Pareto k is above 0.7 refitted without the row, as
//! `loo::reloo` does, up to `[evaluation] loo_refits` rows (the worst first). Its draws come
//! from the run's own streams, `<id>/loo` and `<id>/loo/<row>`. Binary linear models held in
//! memory only: a streamed file would need a pass per row refitted.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::event::{Event, Silent};
use super::monitor::Events;
use crate::config::{MethodPlan, Plan};
use bayeslab_core::error::{Error, Result};
use bayeslab_core::metrics::loo::{
    log_predictive, posterior_log_weights, psis_loo, sum_se, LogLik, Loo,
};
use bayeslab_core::model::loglik::{
    label_log_probabilities, log_lik, log_lik_values, without_row, PosteriorDraws, Rows,
};
use bayeslab_core::model::method::{fit_matrix, FitInput, Predictor};
use bayeslab_core::model::Likelihood;
use bayeslab_core::numeric::rng;
use bayeslab_core::record::{DrawsExport, KCounts, LooDraws, LooPoint, LooRecord};
use bayeslab_data::Dataset;

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

/// The run's LOO, and the draws it used when `[evaluation] export_draws` asks for them; `None`
/// for a kind without a binary likelihood, a run without draws or a Gaussian posterior, a
/// matrix too large, or `loo_draws = 0`.
pub fn loo(
    input: &LooInput<'_>,
    predictor: &dyn Predictor,
    events: Events<'_>,
) -> Result<Option<(LooRecord, Option<Box<DrawsExport>>)>> {
    let (plan, method) = (input.plan, input.method);
    if method.kind.has_class_posterior() {
        let record = exact_loo(input, predictor, events)?;
        return Ok(record.map(|r| (r, None)));
    }
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
    events.send(Event::LooStarted {
        run: method.id.clone(),
        draws: draws.count(),
        rows: n,
    });
    let ll = log_lik(
        likelihood,
        train.x.as_ref(),
        &train.y,
        &draws,
        input.precision,
    );
    let export = plan.evaluation.export_draws.then(|| {
        Box::new(export(
            input,
            &draws,
            &ll,
            method.schedule().map_or(1, |s| s.chains),
        ))
    });
    let mut estimate = psis_loo(&ll);
    let mut bad = estimate.bad_rows();
    bad.sort_by(|&a, &b| estimate.pointwise[b].k.total_cmp(&estimate.pointwise[a].k));
    let refit_count = bad.len().min(plan.evaluation.loo_refits);
    let (refitted, unrefitted) = (bad[..refit_count].to_vec(), bad[refit_count..].to_vec());
    for (done, &row) in refitted.iter().enumerate() {
        if input.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Err(Error::Cancelled);
        }
        events.send(Event::LooRefit {
            run: method.id.clone(),
            row,
            done,
            total: refitted.len(),
        });
        if let Some(elpd) = refit_row(input, likelihood, row, draws.count())? {
            let point = &mut estimate.pointwise[row];
            let lpd = point.elpd + point.p;
            point.elpd = elpd;
            point.p = lpd - elpd;
        }
    }
    // A chain's draws are worth fewer independent ones: its worst weight's bulk ESS per draw.
    let r_eff = match (draws.exact, predictor.diagnostics()) {
        (true, Some((_, ess))) => ess / draws.count() as f64,
        _ => 1.0,
    };
    let record = record(
        &estimate,
        estimate.mcse(r_eff),
        draws.exact,
        sorted(refitted),
        sorted(unrefitted),
        start.elapsed().as_secs_f64(),
    );
    events.send(Event::LooFinished {
        run: method.id.clone(),
        loo: Box::new(record.clone()),
    });
    Ok(Some((record, export)))
}

/// The draws of the run (`chains` chains of equal length, chain after chain), their log joint
/// and log q, and the training rows' log likelihoods, as the `draws/` export writes them.
fn export(input: &LooInput<'_>, draws: &PosteriorDraws, ll: &LogLik, chains: usize) -> DrawsExport {
    let w = &draws.w;
    DrawsExport {
        weights: input.dataset.columns.clone(),
        chains: if draws.exact { chains.max(1) } else { 1 },
        w: (0..w.ncols())
            .flat_map(|s| w.col(s).iter().copied())
            .collect(),
        log_joint: draws.log_joint(ll, input.precision),
        log_q: draws.log_q(),
        log_lik: ll.values.clone(),
        data_rows: input.dataset.train.source_rows.clone(),
    }
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
    mcse: f64,
    exact: bool,
    refitted_rows: Vec<usize>,
    unrefitted_rows: Vec<usize>,
    seconds: f64,
) -> LooRecord {
    LooRecord {
        elpd_loo: loo.elpd(),
        se: loo.se(),
        p_loo: loo.p_loo(),
        mcse,
        draws: loo.draws,
        draws_from: if exact {
            LooDraws::Posterior
        } else {
            LooDraws::CorrectedApproximation
        },
        // the k's of the PSIS estimate: refitting changes a row's elpd, not its k
        k_counts: KCounts::of(loo.pointwise.iter().map(|p| p.k), loo.draws),
        k_max: loo.pointwise.iter().map(|p| p.k).fold(0.0, f64::max),
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

/// The most work exact LOO may take, in N^2 D^2 (N refits of O(N D^2) each): about a minute.
const MAX_EXACT_WORK: f64 = 2e10;

/// Exact LOO of a conjugate generative kind: the closed-form posterior of the training rows
/// without row i, refitted for each i, and its exact predictive's ln p(y_i | x_i, rest);
/// `None` when that would take too long or a refit fails.
fn exact_loo(
    input: &LooInput<'_>,
    predictor: &dyn Predictor,
    events: Events<'_>,
) -> Result<Option<LooRecord>> {
    let train = &input.dataset.train;
    let (n, d) = (train.rows(), train.x.ncols());
    if n < 2
        || (n * n) as f64 * (d * d) as f64 > MAX_EXACT_WORK
        || input.plan.evaluation.loo_draws == Some(0)
    {
        return Ok(None);
    }
    let start = Instant::now();
    events.send(Event::LooStarted {
        run: input.method.id.clone(),
        draws: 0,
        rows: n,
    });
    let full = label_log_probabilities(predictor, train.x.as_ref(), &train.y);
    let mut pointwise = Vec::with_capacity(n);
    for i in 0..n {
        if input.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Err(Error::Cancelled);
        }
        let Some(fitted) = fit_without(input, &without_row(&train.x, &train.y, i))? else {
            return Ok(None);
        };
        let held_out = train.x.as_ref().subrows(i, 1);
        let y = &train.y[i..=i];
        let elpd = label_log_probabilities(fitted.predictor.as_ref(), held_out, y)[0];
        pointwise.push(LooPoint {
            elpd,
            p: full[i] - elpd,
            k: 0.0,
        });
    }
    let elpd: Vec<f64> = pointwise.iter().map(|p| p.elpd).collect();
    let record = LooRecord {
        elpd_loo: elpd.iter().sum(),
        se: sum_se(&elpd),
        p_loo: pointwise.iter().map(|p| p.p).sum(),
        mcse: 0.0,
        draws: 0,
        draws_from: LooDraws::Exact,
        k_counts: KCounts {
            good: n,
            ..KCounts::default()
        },
        k_max: 0.0,
        refitted_rows: Vec::new(),
        unrefitted_rows: Vec::new(),
        seconds: start.elapsed().as_secs_f64(),
        pointwise,
    };
    events.send(Event::LooFinished {
        run: input.method.id.clone(),
        loo: Box::new(record.clone()),
    });
    Ok(Some(record))
}

/// The run fitted again on `rest`, its training rows without one ([`without_row`]); `None`
/// when the fit fails numerically on them.
fn fit_without(
    input: &LooInput<'_>,
    rest: &Rows,
) -> Result<Option<bayeslab_core::model::fit::Fitted>> {
    let (x, y) = rest;
    let fitted = fit_matrix(
        &FitInput {
            file: &input.plan.file,
            method: input.method,
            precision: input.precision,
            seed: input.plan.seed,
            x: x.as_ref(),
            y,
            classes: input.dataset.classes.len(),
            intercept: input.dataset.columns.first().map(String::as_str)
                == Some(bayeslab_data::INTERCEPT),
            columns: &input.dataset.columns,
            cancel: input.cancel,
            record_steps: false,
        },
        &mut Silent,
    );
    match fitted {
        Ok(f) => Ok(Some(f)),
        Err(Error::Numeric(_)) => Ok(None),
        Err(e) => Err(e),
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
    let rest = without_row(&train.x, &train.y, row);
    let Some(fitted) = fit_without(input, &rest)? else {
        return Ok(None);
    };
    let (x, y) = &rest;
    let label = format!("{}/loo/{row}", input.method.id);
    let mut stream = rng::stream(input.plan.seed, &label);
    let Ok(Some(w)) = PosteriorDraws::of(fitted.predictor.as_ref(), draws, &mut stream, &label)
    else {
        return Ok(None);
    };
    let ll = log_lik(likelihood, x.as_ref(), y, &w, input.precision);
    let weights = posterior_log_weights(w.count(), ll.correction.as_deref());
    let held_out = train.x.as_ref().subrows(row, 1);
    let values = log_lik_values(likelihood, held_out, &train.y[row..=row], w.w.as_ref());
    Ok(Some(log_predictive(&weights, &values)))
}
