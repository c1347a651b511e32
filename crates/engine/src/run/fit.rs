//! Fitting one method from its source: the prior precision (given, or chosen by evidence), the
//! fit itself, the run record of the fit, its k-hat and its leave-one-out estimate (run/loo.rs). A fit that fails on these data is a
//! failed run with its reason; bad input aborts the experiment.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::monitor::Recorder;
use super::source::Source;
use crate::config::{MethodPlan, Plan};
use bayeslab_core::error::{Error, NumericError, Result};
use bayeslab_core::model::method::Fitted;
use bayeslab_core::model::options::Options;
use bayeslab_core::optim::{Observer, Termination};
use bayeslab_core::record::{EvidencePoint, FitPassTimes, PassPurpose, RunRecord};
use bayeslab_data::PassStats;

/// A fitted run: its record (predictives still empty), the fit when it succeeded, and the
/// streamed passes it made with their purposes (`fit`, `khat`).
pub struct FitOutcome {
    pub record: RunRecord,
    pub fitted: Option<Fitted>,
    pub passes: Vec<(PassPurpose, PassStats)>,
}

/// Fit `method` on the training rows of `source`; `recorder` keeps its iterates and passes
/// them, and the k-hat phase, to the monitor.
pub fn fit(
    plan: &Plan,
    method: &MethodPlan,
    source: Source<'_>,
    recorder: &mut Recorder<'_>,
    cancel: Option<&AtomicBool>,
) -> Result<FitOutcome> {
    let start = Instant::now();
    let failed = |message: String| FitOutcome {
        record: RunRecord::failed(
            &method.id,
            method.kind,
            start.elapsed().as_secs_f64(),
            message,
        ),
        fitted: None,
        passes: Vec::new(),
    };
    let (precision, evidence_curve) = match source.whole() {
        Some(dataset) if plan.prior.evidence && method.kind.laplace_evidence() => {
            match super::evidence::choose_precision(plan, method, dataset, cancel) {
                Ok(found) => found,
                Err(Error::Numeric(e)) => {
                    return Ok(failed(format!(
                        "choosing the prior precision by evidence: {e}"
                    )))
                }
                Err(e) => return Err(e),
            }
        }
        _ => (plan.prior.precision, Vec::new()),
    };
    let rows = source.training(&method.id, Some(recorder.events));
    recorder.chains = None;
    let result = dispatch(plan, method, source, &rows, precision, recorder, cancel);
    let mut passes = rows.take_passes();
    let fitted = match result {
        Ok(fitted) => fitted,
        Err(Error::Numeric(NumericError::Collinear { column, constant })) => {
            let message = super::failure::collinear_message(
                method,
                source.columns(),
                column,
                constant,
                source.rows_train(),
            );
            return Ok(FitOutcome {
                passes,
                ..failed(message)
            });
        }
        Err(Error::Numeric(NumericError::Separable)) => {
            let message = super::failure::termination_error(method, Termination::Separable);
            let mut outcome = failed(message.unwrap_or_default());
            // the record says how the fit stopped, as for the kinds that report it as an outcome
            outcome.record.termination = Some(Termination::Separable);
            return Ok(FitOutcome { passes, ..outcome });
        }
        Err(Error::Numeric(e)) => {
            return Ok(FitOutcome {
                passes,
                ..failed(e.to_string())
            })
        }
        Err(e) => return Err(e),
    };
    let uses_prior = method.kind.uses_prior();
    let searched = !evidence_curve.is_empty();
    let mut record = fit_record(
        method,
        &fitted,
        start.elapsed().as_secs_f64(),
        uses_prior.then_some(precision),
        evidence_curve,
    )?;
    if let (Some(draws), Some(d)) = (recorder.chains.take(), &record.weight_diagnostics) {
        record.chains = draws.finish(source.columns(), &d.rhat);
    }
    if searched {
        record.prior_precision_edge = bayeslab_core::optim::log_grid::edge(precision);
    }
    if record.error.is_some() {
        return Ok(FitOutcome {
            record,
            fitted: None,
            passes,
        });
    }
    rows.purpose(PassPurpose::Khat);
    let shape = (source.rows_train(), source.columns().len());
    let predictor = fitted.predictor.as_ref();
    let events = recorder.events;
    let phase = super::khat::khat(plan, method, &rows, shape, precision, predictor, events)?;
    record.khat = phase.khat;
    record.khat_seconds = phase.seconds;
    record.khat_draws = phase.draws;
    passes.extend(rows.take_passes());
    if let Some(dataset) = source.whole() {
        let input = super::loo::LooInput {
            plan,
            method,
            dataset,
            precision,
            cancel,
        };
        if let Some((loo, draws)) = super::loo::loo(&input, predictor, events)? {
            record.loo = Some(loo);
            record.draws = draws;
        }
    }
    Ok(FitOutcome {
        record,
        fitted: Some(fitted),
        passes,
    })
}

/// The fit through the model's one dispatcher: the rows as chunks, and all at once when the
/// source holds them in memory.
fn dispatch(
    plan: &Plan,
    method: &MethodPlan,
    source: Source<'_>,
    rows: &super::source::TrainingRows<'_>,
    precision: f64,
    observer: &mut dyn Observer,
    cancel: Option<&AtomicBool>,
) -> Result<Fitted> {
    let request = source.fit_request(plan, method, precision, cancel);
    let rows = source.rows(rows);
    bayeslab_core::model::method::fit(&request, rows, observer)
}

/// The run record of a finished fit, before its predictives are evaluated. A fit that stopped
/// without a minimiser (separable data under MLE, a stalled optimiser) gets its `error`;
/// cancellation is an error for the whole experiment.
fn fit_record(
    method: &MethodPlan,
    fitted: &Fitted,
    fit_seconds: f64,
    prior_precision: Option<f64>,
    evidence_curve: Vec<EvidencePoint>,
) -> Result<RunRecord> {
    let termination = fitted.outcome.termination;
    if termination == Termination::Cancelled {
        return Err(Error::Cancelled);
    }
    let mut record = RunRecord {
        id: method.id.clone(),
        kind: method.kind,
        converged: termination.converged(),
        termination: Some(termination),
        iterations: fitted.outcome.iterations,
        fit_seconds,
        khat_seconds: None,
        objective: fitted.objective,
        error: None,
        weights: fitted.weights.clone(),
        posterior: fitted
            .posterior
            .as_ref()
            .map(|p| bayeslab_core::record::PosteriorRecord {
                mean: p.mean.clone(),
                cov_diag: p.cov_diag.clone(),
                cov: p.cov.as_ref().map(|c| {
                    (0..c.nrows())
                        .map(|i| (0..c.ncols()).map(|j| c[(i, j)]).collect())
                        .collect()
                }),
                precision_factor: p.precision_factor.as_ref().map(|l| {
                    (0..l.nrows())
                        .map(|i| (0..=i).map(|j| l[(i, j)]).collect())
                        .collect()
                }),
                log_evidence: p.log_evidence,
            }),
        predictives: Vec::new(),
        mc_samples: Some(method.mc_samples),
        quadrature_nodes: Some(method.quadrature_nodes),
        prior_precision,
        evidence_curve,
        prior_precision_edge: None,
        diagnostics: fitted.predictor.diagnostics().map(|(rhat_max, ess_min)| {
            bayeslab_core::record::Diagnostics {
                rhat_max,
                ess_min,
                hmc: fitted.predictor.hmc(),
            }
        }),
        weight_diagnostics: fitted.predictor.per_weight().map(|p| {
            bayeslab_core::record::WeightDiagnostics {
                rhat: p.rhat,
                ess_bulk: p.ess_bulk,
                ess_tail: p.ess_tail,
            }
        }),
        chains: None,
        khat: None,
        khat_draws: None,
        mean_field: matches!(method.options, Options::Variational(o) if o.mean_field),
        noise: method.kind.accepts("noise").then(|| method.options.noise()),
        passes: fitted.pass_times.map(|t| FitPassTimes {
            hessian: t.hessian,
            hessian_seconds: t.hessian_seconds,
            gradient: t.gradient,
            gradient_seconds: t.gradient_seconds,
        }),
        loo: None,
        draws: None,
        pair_densities: fitted.predictor.pair_densities(),
        steps: fitted.steps.clone(),
    };
    record.error = super::failure::termination_error(method, termination);
    Ok(record)
}
