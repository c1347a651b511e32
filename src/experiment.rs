//! Running an experiment: load the data once, fit every method, evaluate every predictive,
//! and collect one [`ExperimentRecord`]. No I/O beyond reading the data; callers decide
//! where the record goes.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::compare;
use crate::config::{Evaluation, MethodPlan, Plan};
use crate::data::{self, Dataset};
use crate::error::{Error, Result};
use crate::lab;
use crate::metrics;
use crate::model::method::{FitInput, Probabilities};
use crate::model::predictive::PredictiveSettings;
use crate::model::{MethodKind, PredictiveKind};
use crate::numeric::rng;
use crate::optim::{Iterate, Observer, Termination};
use crate::provenance::Provenance;
use crate::record::{
    ComparisonRecord, DatasetInfo, Diagnostics, EvidencePoint, ExperimentInfo, ExperimentRecord,
    PosteriorRecord, PredictiveRecord, RunRecord, TraceRow, SCHEMA_VERSION,
};

/// Receives the progress of an experiment: iterations (as an [`Observer`]) plus the start
/// and end of each run. The CLI's progress lines and the TUI's worker implement it.
pub trait Monitor: Observer {
    /// The data are loaded and prepared; the runs start next.
    fn data_loaded(&mut self, _dataset: &Dataset) {}
    fn run_started(&mut self, _index: usize, _total: usize, _id: &str) {}
    fn run_finished(&mut self, _run: &RunRecord) {}
    /// Whether to compute the Monte-Carlo convergence curve of each `mc` predictive (extra
    /// predictions at S/128, S/64, ..., S/2 samples), reported through [`Monitor::mc_estimate`].
    fn wants_mc_curve(&self) -> bool {
        false
    }
    /// The `mc` predictive of `run` with `samples` draws per row: its mean p(y = 1) (for more
    /// than two classes, its mean top-class probability) over the test rows.
    fn mc_estimate(&mut self, _run: &str, _samples: usize, _mean: f64) {}
    /// `[data] streaming = true`: one pass over the data file finished.
    fn pass_finished(&mut self, _pass: &crate::streaming::PassRecord) {}
}

/// A monitor that ignores everything.
pub struct Silent;

impl Observer for Silent {
    fn observe(&mut self, _run: &str, _iterate: &Iterate) {}
}

impl Monitor for Silent {}

/// Records every iterate for trace.csv and forwards it, and any sampler draws, to the monitor.
pub(crate) struct Recorder<'a> {
    pub(crate) rows: Vec<TraceRow>,
    pub(crate) monitor: &'a mut dyn Monitor,
}

impl Observer for Recorder<'_> {
    fn observe(&mut self, run: &str, iterate: &Iterate) {
        self.rows.push(TraceRow {
            run: run.to_string(),
            iterate: iterate.clone(),
        });
        self.monitor.observe(run, iterate);
    }

    fn wants_draws(&self) -> bool {
        self.monitor.wants_draws()
    }

    fn draws(&mut self, run: &str, batch: &crate::optim::DrawBatch) {
        self.monitor.draws(run, batch);
    }
}

/// Load the data of `plan` and run it. An experiment with only `[[posterior]]` tables has
/// no dataset: its record's dataset section is empty and it has no runs.
pub fn run(
    plan: &Plan,
    monitor: &mut dyn Monitor,
    cancel: Option<&AtomicBool>,
) -> Result<ExperimentRecord> {
    run_for(plan, monitor, cancel, None)
}

/// [`run`] for an output that will be written to directory `out`: files made before the
/// output (a streamed predictions.csv) go into a hidden sibling of `out`
/// ([`crate::output::Scratch`]), which a later run removes if this process is killed.
pub fn run_for(
    plan: &Plan,
    monitor: &mut dyn Monitor,
    cancel: Option<&AtomicBool>,
    out: Option<&std::path::Path>,
) -> Result<ExperimentRecord> {
    let mut record = match &plan.data {
        Some(data) if !plan.methods.is_empty() && data.streaming.is_some() => {
            crate::streaming::run(plan, monitor, cancel, out)?
        }
        Some(data) if !plan.methods.is_empty() => {
            let dataset = data::load(data)?;
            monitor.data_loaded(&dataset);
            run_on(plan, &dataset, monitor, cancel)?
        }
        _ => ExperimentRecord {
            schema_version: SCHEMA_VERSION,
            experiment: experiment_info(plan),
            dataset: DatasetInfo::default(),
            runs: Vec::new(),
            approximation_error: Vec::new(),
            provenance: Provenance::collect(plan, &lab_files(plan))?,
            comparison: None,
            posteriors: lab::run_all(&plan.posteriors, plan.seed)?,
            test_y: Vec::new(),
            trace: Vec::new(),
            streaming: None,
        },
    };
    if let (Some(dir), false) = (&plan.baseline, record.runs.is_empty()) {
        let a = compare::Predictions::from_dir(dir)?;
        let b = compare::Predictions::from_record(&record);
        let resamples = plan.evaluation.resamples;
        let count = compare::Resamples {
            count: resamples,
            file: &plan.file,
            key: "[evaluation] resamples",
        };
        let rows = compare::compare(&a, &b, count, plan.seed, dir, &plan.file)?;
        record.comparison = Some(ComparisonRecord {
            baseline: dir.display().to_string(),
            resamples,
            rows,
        });
    }
    Ok(record)
}

/// The data files of the `[[posterior]]` tables (for the provenance digests).
pub(crate) fn lab_files(plan: &Plan) -> Vec<std::path::PathBuf> {
    plan.posteriors
        .iter()
        .filter_map(|p| match &p.source {
            crate::config::PosteriorSource::Column { path, .. } => Some(path.clone()),
            _ => None,
        })
        .collect()
}

pub(crate) fn experiment_info(plan: &Plan) -> ExperimentInfo {
    ExperimentInfo {
        name: plan.name.clone(),
        seed: plan.seed,
        description: plan.description.clone(),
        file: plan.file.display().to_string(),
        prior_precision: plan.prior.precision,
        prior_evidence: plan.prior.evidence,
        calibration_bins: plan.evaluation.calibration_bins,
        calibration_binning: plan.evaluation.binning,
    }
}

/// Run every method of `plan` on an already loaded dataset.
pub fn run_on(
    plan: &Plan,
    dataset: &Dataset,
    monitor: &mut dyn Monitor,
    cancel: Option<&AtomicBool>,
) -> Result<ExperimentRecord> {
    crate::config::limits::check_design(plan, dataset.columns.len(), dataset.test.rows())?;
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
        if recorder.monitor.wants_mc_curve() && method.predictives.contains(&PredictiveKind::Mc) {
            mc_curve(plan, method, dataset, &record, recorder.monitor, cancel)?;
        }
        recorder.monitor.run_finished(&record);
        runs.push(record);
    }
    Ok(ExperimentRecord {
        schema_version: SCHEMA_VERSION,
        experiment: experiment_info(plan),
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
        approximation_error: crate::gold::approximation_errors(plan, &runs),
        runs,
        provenance: Provenance::collect(plan, &[dataset.files.clone(), lab_files(plan)].concat())?,
        comparison: None,
        posteriors: lab::run_all(&plan.posteriors, plan.seed)?,
        test_y: dataset.test.y.clone(),
        trace: recorder.rows,
        streaming: None,
    })
}

/// Why maximum likelihood has no unique optimum when design column `column` is a combination of
/// the ones before it, and what to do (the same words in memory and streamed).
pub(crate) fn collinear_message(
    run: &str,
    columns: &[String],
    column: usize,
    constant: bool,
    rows: usize,
) -> String {
    let name = columns.get(column).map(String::as_str).unwrap_or("?");
    if constant {
        format!(
            "{run}: design column \"{name}\" is constant on the training rows, so under maximum likelihood its \
             weight is not identified (it duplicates the intercept). Drop it from [data] features, or use \
             logistic-map / logistic-laplace: the prior makes the optimum unique"
        )
    } else if columns.len() > rows {
        format!(
            "{run}: the design has more columns ({}) than training rows ({rows}), so the maximum-likelihood \
             weights are not unique (column \"{name}\" is a combination of the ones before it). Use \
             logistic-map / logistic-laplace (the prior makes the optimum unique) or fewer features",
            columns.len()
        )
    } else {
        format!(
            "{run}: design column \"{name}\" is a linear combination of the columns before it ({}), so the \
             maximum-likelihood weights are not unique. Drop the column from [data] features, or use logistic-map / logistic-laplace: the prior makes the optimum unique",
            columns[..column].join(", ")
        )
    }
}

fn run_method(
    plan: &Plan,
    method: &MethodPlan,
    dataset: &Dataset,
    observer: &mut dyn Observer,
    cancel: Option<&AtomicBool>,
) -> Result<RunRecord> {
    let start = Instant::now();
    let uses_prior = method.kind.uses_prior();
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
        Err(Error::Numeric(crate::error::NumericError::Collinear { column, constant })) => {
            let rows = dataset.train.x.nrows();
            let message = collinear_message(&method.id, &dataset.columns, column, constant, rows);
            return Ok(RunRecord::failed(
                &method.id,
                method.kind.name(),
                start.elapsed().as_secs_f64(),
                message,
            ));
        }
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
    let mut record = fit_record(
        method,
        &fitted,
        fit_seconds,
        uses_prior.then_some(precision),
        evidence_curve,
    )?;
    if record.error.is_some() {
        return Ok(record);
    }
    let settings = PredictiveSettings {
        mc_samples: method.mc_samples,
        quadrature_nodes: method.quadrature_nodes,
        first_row: 0,
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
                 ({})",
                method.id,
                kind.name(),
                crate::config::plan::degenerate_fit_advice(method.kind)
            ));
            record.predictives.clear();
            return Ok(record);
        }
        let mut ece_stream = rng::stream(plan.seed, &format!("{}/{}/ece", method.id, kind.name()));
        let eval = &plan.evaluation;
        let mut evaluated = evaluate(kind, p, &dataset.test.y, eval, Some(&mut ece_stream));
        evaluated.mcse = fitted
            .predictor
            .mcse(kind, dataset.test.x.as_ref())
            .unwrap_or_default();
        record.predictives.push(evaluated);
    }
    record.khat = khat(plan, method, dataset, precision, fitted.predictor.as_ref());
    Ok(record)
}

/// What a run's k-hat (model/importance.rs) needs, when it has a Gaussian posterior over the
/// weights of a binary linear model and draws to spend on `rows` x `cols` training data.
pub(crate) struct KhatInput {
    pub likelihood: crate::model::Likelihood,
    pub draws: usize,
    pub mean: Vec<f64>,
    pub cov: faer::Mat<f64>,
    /// The run's own stream, `<id>/khat`, in memory and streamed alike.
    pub stream: rng::Stream,
    pub what: String,
}

pub(crate) fn khat_input(
    plan: &Plan,
    method: &MethodPlan,
    (rows, cols): (usize, usize),
    predictor: &dyn crate::model::method::Predictor,
) -> Option<KhatInput> {
    let draws = plan
        .evaluation
        .khat_draws
        .unwrap_or_else(|| crate::model::importance::default_draws(rows, cols));
    let likelihood = method.kind.likelihood(method.options.noise())?;
    if draws == 0 {
        return None;
    }
    let (mean, cov) = predictor.gaussian()?;
    Some(KhatInput {
        likelihood,
        draws,
        mean,
        cov,
        stream: rng::stream(plan.seed, &format!("{}/khat", method.id)),
        what: format!("posterior covariance of {}", method.id),
    })
}

/// The run's k-hat. A covariance that is not positive definite gives no k-hat.
fn khat(
    plan: &Plan,
    method: &MethodPlan,
    dataset: &Dataset,
    precision: f64,
    predictor: &dyn crate::model::method::Predictor,
) -> Option<f64> {
    let x = dataset.train.x.as_ref();
    let mut k = khat_input(plan, method, (x.nrows(), x.ncols()), predictor)?;
    let rows = crate::model::streaming::InMemory {
        x,
        y: &dataset.train.y,
    };
    crate::model::importance::posterior_khat(
        k.likelihood,
        k.draws,
        &rows,
        precision,
        &k.mean,
        k.cov.as_ref(),
        &mut k.stream,
        &k.what,
    )
    .ok()
    .flatten()
}

/// The run record of a finished fit, before its predictives are evaluated. A fit that stopped
/// without a minimiser (separable data under MLE, a stalled optimiser) gets its `error`;
/// cancellation is an error for the whole experiment.
pub(crate) fn fit_record(
    method: &MethodPlan,
    fitted: &crate::model::method::Fitted,
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
        prior_precision,
        evidence_curve,
        diagnostics: fitted
            .predictor
            .diagnostics()
            .map(|(rhat_max, ess_min)| Diagnostics { rhat_max, ess_min }),
        khat: None,
    };
    if termination == Termination::Separable {
        record.error = Some(format!(
            "{}: the training data are perfectly separable, so the maximum-likelihood weights do not exist \
             (they grow without bound). Use kind = \"logistic-map\" or \"logistic-laplace\": the prior keeps them finite",
            method.id
        ));
    }
    if termination == Termination::Stalled {
        record.error = Some(format!(
            "{}: the optimiser could not decrease the objective any further before the gradient norm reached \
             the tolerance {:e}; the columns may be nearly collinear or the features badly scaled: standardise them, \
             drop near-duplicate columns, use a prior (logistic-map) or raise `tolerance`",
            method.id, method.tolerance
        ));
    }
    Ok(record)
}

/// The Monte-Carlo convergence curve of `method`'s `mc` predictive: the mean prediction over
/// the test rows at S/128, S/64, ..., S samples (S = `mc_samples`), each size from its own
/// seeded stream. It refits the method silently (fits are deterministic), so only a monitor
/// that asks for the curve pays for it.
fn mc_curve(
    plan: &Plan,
    method: &MethodPlan,
    dataset: &Dataset,
    record: &RunRecord,
    monitor: &mut dyn Monitor,
    cancel: Option<&AtomicBool>,
) -> Result<()> {
    if record.error.is_some() {
        return Ok(());
    }
    let precision = record.prior_precision.unwrap_or(plan.prior.precision);
    let input = fit_input(plan, method, dataset, precision, cancel);
    let Ok(fitted) = crate::model::method::fit(&input, &mut |_: &str, _: &Iterate| {}) else {
        return Ok(());
    };
    let full = method.mc_samples;
    let sizes: Vec<usize> = (0..=7)
        .rev()
        .map(|k| full >> k)
        .filter(|&s| s >= 1)
        .collect();
    for s in sizes {
        if cancel.is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed)) {
            return Err(Error::Cancelled);
        }
        let settings = PredictiveSettings {
            mc_samples: s,
            quadrature_nodes: method.quadrature_nodes,
            first_row: 0,
        };
        // The full size reuses the predictive's own stream, so the curve ends on the reported value.
        let label = if s == full {
            format!("{}/mc", method.id)
        } else {
            format!("{}/mc/curve/{s}", method.id)
        };
        let mut stream = rng::stream(plan.seed, &label);
        let p = fitted.predictor.predict(
            PredictiveKind::Mc,
            dataset.test.x.as_ref(),
            settings,
            &mut stream,
        );
        let mean = match &p {
            Probabilities::Binary(v) => v.iter().sum::<f64>() / v.len().max(1) as f64,
            Probabilities::Classes(rows) => {
                rows.iter()
                    .map(|r| r.iter().copied().fold(0.0, f64::max))
                    .sum::<f64>()
                    / rows.len().max(1) as f64
            }
        };
        monitor.mc_estimate(&method.id, s, mean);
    }
    Ok(())
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
                first_row: 0,
            },
            &mut rng::stream(plan.seed, "evidence"),
        );
        let test_log_loss = evaluate(
            PredictiveKind::Plugin,
            p,
            &dataset.test.y,
            &plan.evaluation,
            None,
        )
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
/// With a `stream`, predictions also get the bootstrap interval of their ECE (for K classes the
/// top-label ECE, a function of each row's (max_k p_k, top class right): the same bootstrap over
/// rows).
fn evaluate(
    kind: PredictiveKind,
    p: Probabilities,
    y: &[f64],
    eval: &Evaluation,
    stream: Option<&mut rng::Stream>,
) -> PredictiveRecord {
    let (bins, binning) = (eval.calibration_bins, eval.binning);
    let p = match p {
        Probabilities::Classes(rows) if rows.first().is_none_or(|r| r.len() == 2) => {
            Probabilities::Binary(rows.iter().map(|r| r[1]).collect())
        }
        other => other,
    };
    match p {
        Probabilities::Binary(p) => {
            let (metrics, reliability) = metrics::evaluate(&p, y, bins, binning);
            let ece_ci =
                stream.map(|s| metrics::ece_interval(&p, y, bins, binning, eval.resamples, s));
            PredictiveRecord {
                name: kind.name().to_string(),
                metrics,
                calibration: reliability.bins,
                ece_ci,
                probabilities: p,
                class_probabilities: Vec::new(),
                mcse: Vec::new(),
            }
        }
        Probabilities::Classes(rows) => {
            let (metrics, reliability) = metrics::multiclass::evaluate(&rows, y, bins, binning);
            let (top, hit): (Vec<f64>, Vec<f64>) = rows
                .iter()
                .zip(y)
                .map(|(r, &y)| metrics::multiclass::top_hit(r, y))
                .unzip();
            let ece_ci =
                stream.map(|s| metrics::ece_interval(&top, &hit, bins, binning, eval.resamples, s));
            PredictiveRecord {
                name: kind.name().to_string(),
                metrics,
                calibration: reliability.bins,
                ece_ci,
                probabilities: top,
                class_probabilities: rows,
                mcse: Vec::new(),
            }
        }
    }
}
