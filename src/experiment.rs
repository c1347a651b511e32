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
use crate::model::gaussian::Activations;
use crate::model::logistic::{self, FitSettings};
use crate::model::predictive::{self, PredictiveSettings};
use crate::model::{MethodKind, PredictiveKind};
use crate::numeric::rng;
use crate::optim::{Iterate, Observer, Termination};
use crate::provenance::Provenance;
use crate::record::{
    ComparisonRecord, DatasetInfo, ExperimentInfo, ExperimentRecord, PosteriorRecord,
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

/// Load the data of `plan` and run it. An experiment with only `[[posterior]]` tables has
/// no dataset: its record's dataset section is empty and it has no runs.
pub fn run(
    plan: &Plan,
    monitor: &mut dyn Monitor,
    cancel: Option<&AtomicBool>,
) -> Result<ExperimentRecord> {
    let mut record = match &plan.data {
        Some(data) if !plan.methods.is_empty() => {
            let dataset = data::load(data)?;
            run_on(plan, &dataset, monitor, cancel)?
        }
        _ => ExperimentRecord {
            schema_version: SCHEMA_VERSION,
            experiment: experiment_info(plan),
            dataset: DatasetInfo {
                files: Vec::new(),
                target: String::new(),
                rows_train: 0,
                rows_test: 0,
                features: 0,
                columns: Vec::new(),
                positives_train: 0,
                positives_test: 0,
                summaries: Vec::new(),
                notes: Vec::new(),
            },
            runs: Vec::new(),
            provenance: Provenance::collect(plan, &lab_files(plan))?,
            comparison: None,
            posteriors: lab::run_all(&plan.posteriors, plan.seed)?,
            test_y: Vec::new(),
            trace: Vec::new(),
        },
    };
    if let (Some(dir), false) = (&plan.baseline, record.runs.is_empty()) {
        let a = compare::Predictions::from_dir(dir)?;
        let b = compare::Predictions::from_record(&record);
        let resamples = plan.evaluation.resamples;
        let rows = compare::compare(&a, &b, resamples, plan.seed, dir, &plan.file)?;
        record.comparison = Some(ComparisonRecord {
            baseline: dir.display().to_string(),
            resamples,
            rows,
        });
    }
    Ok(record)
}

/// The data files of the `[[posterior]]` tables (for the provenance digests).
fn lab_files(plan: &Plan) -> Vec<std::path::PathBuf> {
    plan.posteriors
        .iter()
        .filter_map(|p| match &p.source {
            crate::config::PosteriorSource::Column { path, .. } => Some(path.clone()),
            _ => None,
        })
        .collect()
}

fn experiment_info(plan: &Plan) -> ExperimentInfo {
    ExperimentInfo {
        name: plan.name.clone(),
        seed: plan.seed,
        description: plan.description.clone(),
        file: plan.file.display().to_string(),
        prior_precision: plan.prior.precision,
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
        experiment: experiment_info(plan),
        dataset: DatasetInfo {
            files: dataset
                .files
                .iter()
                .map(|f| f.display().to_string())
                .collect(),
            target: dataset.target.clone(),
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
        provenance: Provenance::collect(plan, &[dataset.files.clone(), lab_files(plan)].concat())?,
        comparison: None,
        posteriors: lab::run_all(&plan.posteriors, plan.seed)?,
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
    let settings = FitSettings {
        precision: match method.kind {
            MethodKind::LogisticMle => 0.0,
            _ => plan.prior.precision,
        },
        optimizer: method.optimizer,
        max_iter: method.max_iter,
        tolerance: method.tolerance,
        laplace: method.kind.has_posterior(),
    };
    let x = dataset.train.x.as_ref();
    let fit = match logistic::fit(x, &dataset.train.y, &settings, &method.id, cancel, observer) {
        Ok(fit) => fit,
        Err(crate::error::NumericError::Collinear { column }) => {
            let name = dataset
                .columns
                .get(column)
                .map(String::as_str)
                .unwrap_or("?");
            let x = &dataset.train.x;
            let constant = (0..x.nrows()).all(|i| x[(i, column)] == x[(0, column)]);
            let message = if constant {
                format!(
                    "{}: design column \"{name}\" is constant on the training rows, so under maximum likelihood its \
                     weight is not identified (it duplicates the intercept). Drop it from [data] features, or use \
                     logistic-map / logistic-laplace: the prior makes the optimum unique",
                    method.id
                )
            } else {
                format!(
                "{}: design column \"{name}\" is a linear combination of the columns before it ({}), so the \
                 maximum-likelihood weights are not unique. Drop the column from [data] features, or use logistic-map / logistic-laplace: the prior makes the optimum unique",
                method.id,
                dataset.columns[..column].join(", ")
            )
            };
            return Ok(RunRecord::failed(
                &method.id,
                method.kind.name(),
                start.elapsed().as_secs_f64(),
                message,
            ));
        }
        Err(e) => {
            return Ok(RunRecord::failed(
                &method.id,
                method.kind.name(),
                start.elapsed().as_secs_f64(),
                e.to_string(),
            ))
        }
    };
    let fit_seconds = start.elapsed().as_secs_f64();
    let termination = fit.outcome.termination;
    if termination == Termination::Cancelled {
        return Err(Error::Cancelled);
    }
    let mut record = RunRecord {
        id: method.id.clone(),
        kind: method.kind.name().to_string(),
        converged: termination.converged(),
        termination: Some(termination),
        iterations: fit.outcome.iterations,
        fit_seconds,
        objective: Some(fit.objective),
        error: None,
        weights: fit.weights.clone(),
        posterior: None,
        predictives: Vec::new(),
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
             the tolerance {:e}; the columns may be nearly collinear or the features badly scaled: standardise them, \
             drop near-duplicate columns, use a prior (logistic-map) or raise `tolerance`",
            method.id, method.tolerance
        ));
        return Ok(record);
    }
    let test_x = dataset.test.x.as_ref();
    let activations = match &fit.posterior {
        Some(post) => {
            record.posterior = Some(PosteriorRecord {
                mean: post.mean.clone(),
                cov_diag: post.cov_diag(),
                log_evidence: post.log_evidence,
            });
            post.activations(test_x)
        }
        None => Activations {
            mean: crate::numeric::linalg::mat_vec(test_x, &fit.weights),
            var: vec![0.0; dataset.test.rows()],
        },
    };
    let settings = PredictiveSettings {
        mc_samples: method.mc_samples,
        quadrature_nodes: method.quadrature_nodes,
    };
    for &kind in &method.predictives {
        let mut stream = rng::stream(plan.seed, &format!("{}/{}", method.id, kind.name()));
        let p = predictive::predict(kind, &activations, settings, &mut stream);
        let mut ece_stream = rng::stream(plan.seed, &format!("{}/{}/ece", method.id, kind.name()));
        let eval = &plan.evaluation;
        record
            .predictives
            .push(evaluate(kind, p, &dataset.test.y, eval, &mut ece_stream));
    }
    Ok(record)
}

fn evaluate(
    kind: PredictiveKind,
    p: Vec<f64>,
    y: &[f64],
    eval: &Evaluation,
    stream: &mut rng::Stream,
) -> PredictiveRecord {
    let (bins, binning) = (eval.calibration_bins, eval.binning);
    let (metrics, reliability) = metrics::evaluate(&p, y, bins, binning);
    let ece_ci = Some(metrics::ece_interval(
        &p,
        y,
        bins,
        binning,
        eval.resamples,
        stream,
    ));
    PredictiveRecord {
        name: kind.name().to_string(),
        metrics,
        calibration: reliability.bins,
        ece_ci,
        probabilities: p,
    }
}
