//! Running an experiment: load the data once, fit every method, evaluate every predictive,
//! and collect one [`ExperimentRecord`]. No I/O beyond reading the data; callers decide
//! where the record goes.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::config::{MethodPlan, Plan};
use crate::data::{self, Dataset};
use crate::error::{Error, Result};
use crate::metrics;
use crate::model::method::{FitInput, Probabilities};
use crate::model::predictive::PredictiveSettings;
use crate::model::{MethodKind, PredictiveKind};
use crate::numeric::rng;
use crate::optim::{Iterate, Observer, Termination};
use crate::record::{
    DatasetInfo, EvidencePoint, ExperimentInfo, ExperimentRecord, PosteriorRecord,
    PredictiveRecord, RunRecord, TraceRow, SCHEMA_VERSION,
};

/// Receives the progress of an experiment: iterations (as an [`Observer`]) plus the start
/// and end of each run. The CLI's progress lines and the TUI's worker implement it.
pub trait Monitor: Observer {
    fn run_started(&mut self, _index: usize, _total: usize, _id: &str) {}
    fn run_finished(&mut self, _run: &RunRecord) {}
}

/// A monitor that ignores everything.
pub struct Silent;

impl Observer for Silent {
    fn observe(&mut self, _run: &str, _iterate: &Iterate) {}
}

impl Monitor for Silent {}

/// Records every iterate for trace.csv and forwards it to the monitor.
struct Recorder<'a> {
    rows: Vec<TraceRow>,
    monitor: &'a mut dyn Monitor,
}

impl Observer for Recorder<'_> {
    fn observe(&mut self, run: &str, iterate: &Iterate) {
        self.rows.push(TraceRow {
            run: run.to_string(),
            iterate: iterate.clone(),
        });
        self.monitor.observe(run, iterate);
    }
}

/// Load the data of `plan` and run it.
pub fn run(
    plan: &Plan,
    monitor: &mut dyn Monitor,
    cancel: Option<&AtomicBool>,
) -> Result<ExperimentRecord> {
    let dataset = data::load(&plan.data)?;
    run_on(plan, &dataset, monitor, cancel)
}

/// Run every method of `plan` on an already loaded dataset.
pub fn run_on(
    plan: &Plan,
    dataset: &Dataset,
    monitor: &mut dyn Monitor,
    cancel: Option<&AtomicBool>,
) -> Result<ExperimentRecord> {
    let mut recorder = Recorder {
        rows: Vec::new(),
        monitor,
    };
    let mut runs = Vec::with_capacity(plan.methods.len());
    for (i, method) in plan.methods.iter().enumerate() {
        recorder
            .monitor
            .run_started(i, plan.methods.len(), &method.id);
        let record = run_method(plan, method, dataset, &mut recorder, cancel)?;
        recorder.monitor.run_finished(&record);
        runs.push(record);
    }
    Ok(ExperimentRecord {
        schema_version: SCHEMA_VERSION,
        experiment: ExperimentInfo {
            name: plan.name.clone(),
            seed: plan.seed,
            description: plan.description.clone(),
            file: plan.file.display().to_string(),
            prior_precision: plan.prior.precision,
            prior_evidence: plan.prior.evidence,
            calibration_bins: plan.evaluation.calibration_bins,
        },
        dataset: DatasetInfo {
            files: dataset
                .files
                .iter()
                .map(|f| f.display().to_string())
                .collect(),
            target: dataset.target.clone(),
            classes: dataset.classes.clone(),
            rows_train: dataset.train.rows(),
            rows_test: dataset.test.rows(),
            features: dataset.features.len(),
            columns: dataset.columns.clone(),
            positives_train: dataset.train.positives(),
            positives_test: dataset.test.positives(),
            summaries: dataset.summaries.clone(),
            notes: dataset.notes.clone(),
        },
        runs,
        test_y: dataset.test.y.clone(),
        trace: recorder.rows,
    })
}

fn run_method(
    plan: &Plan,
    method: &MethodPlan,
    dataset: &Dataset,
    observer: &mut dyn Observer,
    cancel: Option<&AtomicBool>,
) -> Result<RunRecord> {
    let start = Instant::now();
    let uses_prior = method.kind != MethodKind::LogisticMle && !method.kind.generative();
    let (precision, evidence_curve) = if plan.prior.evidence && method.kind.laplace_evidence() {
        match choose_precision(plan, method, dataset, cancel) {
            Ok(found) => found,
            Err(Error::Numeric(e)) => {
                return Ok(RunRecord::failed(
                    &method.id,
                    method.kind.name(),
                    start.elapsed().as_secs_f64(),
                    format!("choosing the prior precision by evidence: {e}"),
                ))
            }
            Err(e) => return Err(e),
        }
    } else {
        (plan.prior.precision, Vec::new())
    };
    let input = fit_input(plan, method, dataset, precision, cancel);
    let fitted = match crate::model::method::fit(&input, observer) {
        Ok(fit) => fit,
        Err(Error::Numeric(e)) => {
            return Ok(RunRecord::failed(
                &method.id,
                method.kind.name(),
                start.elapsed().as_secs_f64(),
                e.to_string(),
            ))
        }
        Err(e) => return Err(e),
    };
    let fit_seconds = start.elapsed().as_secs_f64();
    let termination = fitted.outcome.termination;
    if termination == Termination::Cancelled {
        return Err(Error::Cancelled);
    }
    let mut record = RunRecord {
        id: method.id.clone(),
        kind: method.kind.name().to_string(),
        converged: termination.converged(),
        termination: Some(termination),
        iterations: fitted.outcome.iterations,
        fit_seconds,
        objective: fitted.objective,
        error: None,
        weights: fitted.weights.clone(),
        posterior: fitted.posterior.as_ref().map(|p| PosteriorRecord {
            mean: p.mean.clone(),
            cov_diag: p.cov_diag.clone(),
            log_evidence: p.log_evidence,
        }),
        predictives: Vec::new(),
        prior_precision: uses_prior.then_some(precision),
        evidence_curve,
    };
    if termination == Termination::Separable {
        record.error = Some(format!(
            "{}: the training data are perfectly separable, so the maximum-likelihood weights do not exist \
             (they grow without bound). Use kind = \"logistic-map\" or \"logistic-laplace\": the prior keeps them finite",
            method.id
        ));
        return Ok(record);
    }
    if termination == Termination::Stalled {
        record.error = Some(format!(
            "{}: the optimiser could not decrease the objective any further before the gradient norm reached \
             the tolerance {:e}; raise `tolerance` or standardise the features",
            method.id, method.tolerance
        ));
        return Ok(record);
    }
    let settings = PredictiveSettings {
        mc_samples: method.mc_samples,
        quadrature_nodes: method.quadrature_nodes,
    };
    for &kind in &method.predictives {
        let mut stream = rng::stream(plan.seed, &format!("{}/{}", method.id, kind.name()));
        let p = fitted
            .predictor
            .predict(kind, dataset.test.x.as_ref(), settings, &mut stream);
        let finite = match &p {
            Probabilities::Binary(v) => v.iter().all(|p| p.is_finite()),
            Probabilities::Classes(rows) => rows.iter().flatten().all(|p| p.is_finite()),
        };
        if !finite {
            record.error = Some(format!(
                "{}: predictive \"{}\" produced non-finite probabilities; the fit is numerically degenerate \
                 (try a larger [prior] precision or fewer features)",
                method.id,
                kind.name()
            ));
            record.predictives.clear();
            return Ok(record);
        }
        record.predictives.push(evaluate(
            kind,
            p,
            &dataset.test.y,
            plan.evaluation.calibration_bins,
        ));
    }
    Ok(record)
}

/// What `method` fits on: the training rows of `dataset` under prior precision `precision`.
fn fit_input<'a>(
    plan: &'a Plan,
    method: &'a MethodPlan,
    dataset: &'a Dataset,
    precision: f64,
    cancel: Option<&'a AtomicBool>,
) -> FitInput<'a> {
    FitInput {
        file: &plan.file,
        method,
        precision,
        seed: plan.seed,
        x: dataset.train.x.as_ref(),
        y: &dataset.train.y,
        classes: dataset.classes.len(),
        intercept: dataset.columns.first().map(String::as_str) == Some(crate::data::INTERCEPT),
        columns: &dataset.columns,
        cancel,
    }
}

/// lambda maximising the method's Laplace evidence (logistic-map uses logistic-laplace's), and
/// the evidence curve on the grid of [`crate::evidence::grid`] with the held-out log-loss of the
/// plug-in predictive at each point. These fits are not traced: only the final fit is.
fn choose_precision(
    plan: &Plan,
    method: &MethodPlan,
    dataset: &Dataset,
    cancel: Option<&AtomicBool>,
) -> Result<(f64, Vec<EvidencePoint>)> {
    let mut laplace = method.clone();
    if laplace.kind == MethodKind::LogisticMap {
        laplace.kind = MethodKind::LogisticLaplace;
    }
    let mut points: Vec<EvidencePoint> = Vec::new();
    let mut evaluate_at = |precision: f64| -> Result<f64> {
        let input = fit_input(plan, &laplace, dataset, precision, cancel);
        let fitted = crate::model::method::fit(&input, &mut |_: &str, _: &Iterate| {})?;
        if fitted.outcome.termination == Termination::Cancelled {
            return Err(Error::Cancelled);
        }
        // A fit that stopped short of the mode (e.g. max-iterations on near-separable data at a
        // tiny lambda) has no trustworthy Laplace evidence: it is left out of the search.
        let log_evidence = fitted
            .posterior
            .and_then(|p| p.log_evidence)
            .filter(|_| fitted.outcome.termination.converged());
        let p = fitted.predictor.predict(
            PredictiveKind::Plugin,
            dataset.test.x.as_ref(),
            PredictiveSettings {
                mc_samples: 1,
                quadrature_nodes: 1,
            },
            &mut rng::stream(plan.seed, "evidence"),
        );
        let test_log_loss = evaluate(PredictiveKind::Plugin, p, &dataset.test.y, 1)
            .metrics
            .log_loss;
        points.push(EvidencePoint {
            precision,
            log_evidence,
            test_log_loss,
        });
        Ok(log_evidence.unwrap_or(f64::NEG_INFINITY))
    };
    let ((best, value), _) = crate::evidence::maximise(&mut evaluate_at)?;
    if !value.is_finite() {
        return Err(Error::Numeric(crate::error::NumericError::NonFinite(format!(
            "{}: no fit on the lambda grid converged, so no Laplace evidence is available; raise `max_iter`",
            method.id
        ))));
    }
    points.truncate(crate::evidence::GRID_POINTS);
    Ok((best, points))
}

/// Binary predictions (or two-class rows, reduced to p(y = 1)) get the binary metrics; more
/// classes the multiclass ones.
fn evaluate(kind: PredictiveKind, p: Probabilities, y: &[f64], bins: usize) -> PredictiveRecord {
    let p = match p {
        Probabilities::Classes(rows) if rows.first().is_none_or(|r| r.len() == 2) => {
            Probabilities::Binary(rows.iter().map(|r| r[1]).collect())
        }
        other => other,
    };
    match p {
        Probabilities::Binary(p) => {
            let (metrics, reliability) = metrics::evaluate(&p, y, bins);
            PredictiveRecord {
                name: kind.name().to_string(),
                metrics,
                calibration: reliability.bins,
                probabilities: p,
                class_probabilities: Vec::new(),
            }
        }
        Probabilities::Classes(rows) => {
            let (metrics, reliability) = metrics::multiclass::evaluate(&rows, y, bins);
            PredictiveRecord {
                name: kind.name().to_string(),
                metrics,
                calibration: reliability.bins,
                probabilities: rows
                    .iter()
                    .map(|r| r[metrics::multiclass::argmax(r)])
                    .collect(),
                class_probabilities: rows,
            }
        }
    }
}
