//! Running an experiment whose data stream from disk (`[data] streaming = true`): the file is
//! read in chunks of `chunk_rows` rows and never held whole.
//!
//! Passes over the data file, in order: the statistics pass (plus one over a separate test file,
//! plus one for sampled RBF centres: [`crate::data::StreamedData`]); for each logistic/probit
//! method, one pass per point Newton evaluates (the start, and every trial step: E, g and
//! X^T S X together, [`crate::model::streaming`]); one pass per Bernoulli naive Bayes (its counts);
//! and one prediction pass that evaluates every run's predictives on each chunk of test rows,
//! accumulates the metrics ([`crate::metrics::running`]) and appends the rows to predictions.csv,
//! written into a hidden scratch directory beside the run directory ([`Scratch`]) and linked
//! into it by the output writer. Every
//! pass is timed into [`StreamingRecord`] (results.json `streaming`).

use std::cell::RefCell;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use serde::Serialize;

use crate::config::{MethodPlan, Plan};
use crate::data::{DesignChunk, Part, PassStats, StreamedData};
use crate::error::{Error, NumericError, Result};
use crate::experiment::{experiment_info, fit_record, lab_files, Monitor, Recorder};
use crate::metrics::running::Running;
use crate::model::method::{Fitted, Probabilities};
use crate::model::predictive::PredictiveSettings;
use crate::model::streaming::{ChunkFn, Chunks, StreamedInput};
use crate::numeric::rng;
use crate::output::Scratch;
use crate::provenance::Provenance;
use crate::record::{DatasetInfo, ExperimentRecord, PredictiveRecord, RunRecord, SCHEMA_VERSION};

/// results.json `streaming`: how the data were read and what each pass cost.
#[derive(Debug, Clone, Serialize)]
pub struct StreamingRecord {
    pub chunk_rows: usize,
    /// `max_memory` in bytes, when set.
    pub max_memory_bytes: Option<u64>,
    /// The estimated working set of one chunk plus the D x D matrices, checked against
    /// `max_memory` before the first pass.
    pub estimated_bytes: u64,
    /// Bytes of the test predictions kept for AUC (0 when AUC was not computed).
    pub kept_prediction_bytes: u64,
    /// Chunks in one pass over the data file.
    pub chunks_per_pass: usize,
    /// Every pass over the data, in order.
    pub passes: Vec<PassRecord>,
    /// Per method: its fit passes and their mean time.
    pub runs: Vec<RunPasses>,
    /// The streamed predictions.csv, until the output writer copies it.
    #[serde(skip)]
    pub predictions: Option<PredictionsFile>,
}

/// One pass: what it was for (`statistics`, `test labels`, `rbf centres`, `fit`, `predict`),
/// the run it served, and its cost; `read_seconds` is the part spent in polars and in turning
/// its columns into design rows, the rest is the model's own work.
#[derive(Debug, Clone, Serialize)]
pub struct PassRecord {
    pub purpose: String,
    pub run: Option<String>,
    pub chunks: usize,
    pub rows: usize,
    pub seconds: f64,
    pub read_seconds: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct RunPasses {
    pub run: String,
    pub passes: usize,
    pub seconds: f64,
    pub seconds_per_pass: f64,
    pub read_seconds_per_pass: f64,
}

/// A temporary file removed when the last handle to it goes (with the scratch directory it
/// is in, when it is in one).
#[derive(Debug, Clone)]
pub struct PredictionsFile(Arc<TempPath>);

#[derive(Debug)]
struct TempPath {
    path: PathBuf,
    _scratch: Option<Scratch>,
}

impl Drop for TempPath {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

impl PredictionsFile {
    pub fn path(&self) -> &Path {
        &self.0.path
    }
}

/// The training rows of `data` as [`Chunks`], timing each pass into `passes`.
struct TrainingChunks<'a> {
    data: &'a StreamedData,
    passes: RefCell<Vec<PassStats>>,
}

impl Chunks for TrainingChunks<'_> {
    fn each(&self, f: &mut ChunkFn<'_>) -> Result<()> {
        let stats = self
            .data
            .pass(Part::Train, &mut |c: &DesignChunk| f(c.x.as_ref(), &c.y))?;
        self.passes.borrow_mut().push(stats);
        Ok(())
    }
}

fn pass_record(purpose: &str, run: Option<&str>, s: &PassStats) -> PassRecord {
    PassRecord {
        purpose: purpose.to_string(),
        run: run.map(str::to_string),
        chunks: s.chunks,
        rows: s.rows,
        seconds: s.seconds,
        read_seconds: s.read_seconds,
    }
}

/// Run `plan` (whose `[data]` has `streaming` set) with the data streamed from disk. The
/// predictions are written into a [`Scratch`] directory beside `out` (where the run's output
/// will go), or into the system's temporary directory without one.
pub fn run(
    plan: &Plan,
    monitor: &mut dyn Monitor,
    cancel: Option<&AtomicBool>,
    out: Option<&Path>,
) -> Result<ExperimentRecord> {
    let data_plan = plan
        .data
        .as_ref()
        .expect("the caller checked that the experiment has data");
    let data = StreamedData::open(data_plan)?;
    crate::config::limits::check_design(plan, data.columns.len(), data.rows_test)?;
    let mut passes: Vec<PassRecord> = data
        .preparation
        .iter()
        .map(|(purpose, s)| pass_record(purpose, None, s))
        .collect();
    for p in &passes {
        monitor.pass_finished(p);
    }
    let mut recorder = Recorder {
        rows: Vec::new(),
        monitor,
    };
    let mut runs: Vec<RunRecord> = Vec::with_capacity(plan.methods.len());
    let mut fitted: Vec<Option<Fitted>> = Vec::with_capacity(plan.methods.len());
    let mut run_passes = Vec::new();
    for (i, method) in plan.methods.iter().enumerate() {
        recorder
            .monitor
            .run_started(i, plan.methods.len(), &method.id);
        let (record, fit, stats) = fit_one(plan, method, &data, &mut recorder, cancel)?;
        // The fit's passes (not k-hat's), which the in-memory fit's points match one for one.
        let fit_passes: Vec<&PassStats> = stats
            .iter()
            .filter(|(p, _)| *p == "fit")
            .map(|(_, s)| s)
            .collect();
        let seconds: f64 = fit_passes.iter().map(|s| s.seconds).sum();
        let read: f64 = fit_passes.iter().map(|s| s.read_seconds).sum();
        let n = fit_passes.len().max(1) as f64;
        run_passes.push(RunPasses {
            run: method.id.clone(),
            passes: fit_passes.len(),
            seconds,
            seconds_per_pass: seconds / n,
            read_seconds_per_pass: read / n,
        });
        for (purpose, s) in &stats {
            let p = pass_record(purpose, Some(&method.id), s);
            recorder.monitor.pass_finished(&p);
            passes.push(p);
        }
        runs.push(record);
        fitted.push(fit);
    }
    let mut notes = data.notes.clone();
    let (predictions, kept_bytes, predict_stats) =
        predict_pass(plan, &data, &mut runs, &fitted, &mut notes, out)?;
    passes.push(pass_record("predict", None, &predict_stats));
    recorder.monitor.pass_finished(&passes[passes.len() - 1]);
    for run in &runs {
        recorder.monitor.run_finished(run);
    }
    let files = [data.files.clone(), lab_files(plan)].concat();
    Ok(ExperimentRecord {
        schema_version: SCHEMA_VERSION,
        experiment: experiment_info(plan),
        dataset: DatasetInfo {
            files: data.files.iter().map(|f| f.display().to_string()).collect(),
            target: data.target.clone(),
            classes: data.classes.clone(),
            rows_train: data.rows_train,
            rows_test: data.rows_test,
            features: data.features.len(),
            columns: data.columns.clone(),
            positives_train: data.positives_train,
            positives_test: data.positives_test,
            summaries: data.summaries.clone(),
            notes,
        },
        approximation_error: crate::gold::approximation_errors(plan, &runs),
        runs,
        provenance: Provenance::collect(plan, &files)?,
        comparison: None,
        posteriors: crate::lab::run_all(&plan.posteriors, plan.seed)?,
        test_y: Vec::new(),
        trace: recorder.rows,
        streaming: Some(StreamingRecord {
            chunk_rows: data.streaming.chunk_rows,
            max_memory_bytes: data.streaming.max_memory,
            estimated_bytes: data.working_set,
            kept_prediction_bytes: kept_bytes,
            chunks_per_pass: data.preparation.first().map_or(0, |(_, s)| s.chunks),
            passes,
            runs: run_passes,
            predictions: Some(predictions),
        }),
    })
}

/// A run's passes over the training rows, each with its purpose ("fit", "khat").
type Passes = Vec<(&'static str, PassStats)>;

/// Fit one method from the streamed training rows: its record (predictives still empty), the
/// fit when it succeeded, and the passes it made with their purposes ("fit", "khat").
fn fit_one(
    plan: &Plan,
    method: &MethodPlan,
    data: &StreamedData,
    observer: &mut Recorder<'_>,
    cancel: Option<&AtomicBool>,
) -> Result<(RunRecord, Option<Fitted>, Passes)> {
    let start = Instant::now();
    let chunks = TrainingChunks {
        data,
        passes: RefCell::new(Vec::new()),
    };
    let input = StreamedInput {
        method,
        precision: plan.prior.precision,
        columns: &data.columns,
        rows: data.rows_train,
        classes: data.classes.len(),
        intercept: data.columns.first().map(String::as_str) == Some(crate::data::INTERCEPT),
        file: &plan.file,
        cancel,
    };
    let result = crate::model::streaming::fit(&chunks, &input, observer);
    let mut stats: Passes = chunks
        .passes
        .take()
        .into_iter()
        .map(|s| ("fit", s))
        .collect();
    let seconds = start.elapsed().as_secs_f64();
    let fit = match result {
        Ok(fit) => fit.fitted,
        Err(Error::Numeric(NumericError::Collinear { column, constant })) => {
            let message = crate::experiment::collinear_message(
                &method.id,
                &data.columns,
                column,
                constant,
                data.rows_train,
            );
            let record = RunRecord::failed(&method.id, method.kind.name(), seconds, message);
            return Ok((record, None, stats));
        }
        Err(Error::Numeric(e)) => {
            let record = RunRecord::failed(&method.id, method.kind.name(), seconds, e.to_string());
            return Ok((record, None, stats));
        }
        Err(e) => return Err(e),
    };
    let uses_prior = method.kind.uses_prior();
    let mut record = fit_record(
        method,
        &fit,
        seconds,
        uses_prior.then_some(plan.prior.precision),
        Vec::new(),
    )?;
    let fit = record.error.is_none().then_some(fit);
    // k-hat as in memory (the same draws), its log posteriors from one more pass.
    let shape = (data.rows_train, data.columns.len());
    let input = fit
        .as_ref()
        .and_then(|f| crate::experiment::khat_input(plan, method, shape, f.predictor.as_ref()));
    if let Some(mut k) = input {
        let found = crate::model::importance::posterior_khat(
            k.likelihood,
            k.draws,
            &chunks,
            plan.prior.precision,
            &k.mean,
            k.cov.as_ref(),
            &mut k.stream,
            &k.what,
        );
        stats.extend(chunks.passes.take().into_iter().map(|s| ("khat", s)));
        record.khat = match found {
            Ok(khat) => khat,
            // as in memory: a covariance that is not positive definite gives no k-hat
            Err(Error::Numeric(_)) => None,
            Err(e) => return Err(e),
        };
    }
    Ok((record, fit, stats))
}

/// One predictive of one run during the prediction pass.
struct Column {
    run: usize,
    kind: crate::model::PredictiveKind,
    settings: PredictiveSettings,
    stream: rng::Stream,
    metrics: Running,
    non_finite: bool,
}

/// The prediction pass: every successful run's predictives on each chunk of test rows, their
/// metrics accumulated and their rows appended to predictions.csv (a temporary file). Returns
/// the file, the bytes kept for AUC and the pass's cost.
fn predict_pass(
    plan: &Plan,
    data: &StreamedData,
    runs: &mut [RunRecord],
    fitted: &[Option<Fitted>],
    notes: &mut Vec<String>,
    out: Option<&Path>,
) -> Result<(PredictionsFile, u64, PassStats)> {
    let k = data.classes.len();
    let mut columns: Vec<Column> = Vec::new();
    let mut header = String::from("row,y");
    let binary_columns = plan
        .methods
        .iter()
        .zip(fitted)
        .filter(|(_, f)| f.is_some())
        .map(|(m, _)| m.predictives.len())
        .sum::<usize>() as u64;
    // AUC ranks every test prediction: keep p(y = 1) per row and predictive, and the labels,
    // when that fits beside the chunk's working set.
    let kept_bytes = if k == 2 {
        8 * data.rows_test as u64 * (binary_columns + 1)
    } else {
        0
    };
    let keep = match data.streaming.max_memory {
        Some(budget) if data.working_set + kept_bytes > budget && kept_bytes > 0 => {
            notes.push(format!(
                "AUC not computed: it ranks every test prediction, and keeping the {} test rows' predictions ({:.1} MiB) \
                 beside the working set would exceed [data] max_memory; raise max_memory to get AUC",
                data.rows_test,
                kept_bytes as f64 / (1u64 << 20) as f64
            ));
            false
        }
        _ => k == 2,
    };
    for (r, (method, fit)) in plan.methods.iter().zip(fitted).enumerate() {
        if fit.is_none() {
            continue;
        }
        for &kind in &method.predictives {
            if k > 2 {
                for c in 0..k {
                    let _ = write!(header, ",{}/{}/p{c}", method.id, kind.name());
                }
            } else {
                let _ = write!(header, ",{}/{}", method.id, kind.name());
            }
            columns.push(Column {
                run: r,
                kind,
                settings: PredictiveSettings {
                    mc_samples: method.mc_samples,
                    quadrature_nodes: method.quadrature_nodes,
                    first_row: 0,
                },
                stream: rng::stream(plan.seed, &format!("{}/{}", method.id, kind.name())),
                metrics: Running::new(plan.evaluation.calibration_bins, keep),
                non_finite: false,
            });
        }
    }
    header.push('\n');
    let (path, scratch) = match out {
        Some(out) => {
            let scratch = Scratch::beside(out)?;
            (scratch.path().join("predictions.csv"), Some(scratch))
        }
        None => (
            std::env::temp_dir().join(format!(
                "bayeslab-{}-{}-{}.predictions.csv",
                plan.name,
                std::process::id(),
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos())
            )),
            None,
        ),
    };
    let out_err = |e: std::io::Error| Error::Output {
        path: path.clone(),
        source: e,
    };
    let file = PredictionsFile(Arc::new(TempPath {
        path: path.clone(),
        _scratch: scratch,
    }));
    let mut out = std::io::BufWriter::new(std::fs::File::create(&path).map_err(out_err)?);
    out.write_all(header.as_bytes()).map_err(out_err)?;
    let mut labels: Vec<f64> = Vec::new();
    let mut row = 0usize;
    let stats = data.pass(Part::Test, &mut |chunk: &DesignChunk| {
        let n = chunk.y.len();
        // per column, per row: the values written (p(y = 1), or K class probabilities)
        let mut values: Vec<Vec<f64>> = Vec::with_capacity(columns.len());
        for c in columns.iter_mut() {
            let fit = fitted[c.run]
                .as_ref()
                .expect("only fitted runs have columns");
            let p = fit.predictor.predict(
                c.kind,
                chunk.x.as_ref(),
                PredictiveSettings {
                    first_row: row,
                    ..c.settings
                },
                &mut c.stream,
            );
            let flat: Vec<f64> = match p {
                Probabilities::Binary(v) => {
                    for (&p, &y) in v.iter().zip(&chunk.y) {
                        c.metrics.push_binary(p, y);
                    }
                    v
                }
                Probabilities::Classes(rows) if k == 2 => {
                    let v: Vec<f64> = rows.iter().map(|r| r[1]).collect();
                    for (&p, &y) in v.iter().zip(&chunk.y) {
                        c.metrics.push_binary(p, y);
                    }
                    v
                }
                Probabilities::Classes(rows) => {
                    for (r, &y) in rows.iter().zip(&chunk.y) {
                        c.metrics.push_classes(r, y);
                    }
                    rows.into_iter().flatten().collect()
                }
            };
            c.non_finite |= flat.iter().any(|v| !v.is_finite());
            values.push(flat);
        }
        let width = if k > 2 { k } else { 1 };
        let mut text = String::new();
        for i in 0..n {
            let _ = write!(text, "{},{}", row + i, chunk.y[i]);
            for v in &values {
                for p in &v[i * width..(i + 1) * width] {
                    let _ = write!(text, ",{p}");
                }
            }
            text.push('\n');
        }
        out.write_all(text.as_bytes()).map_err(out_err)?;
        if keep {
            labels.extend_from_slice(&chunk.y);
        }
        row += n;
        Ok(())
    })?;
    out.into_inner()
        .map_err(|e| out_err(e.into_error()))?
        .sync_all()
        .map_err(out_err)?;
    for c in columns {
        let run = &mut runs[c.run];
        if c.non_finite {
            run.error = Some(format!(
                "{}: predictive \"{}\" produced non-finite probabilities; the fit is numerically degenerate \
                 ({})",
                run.id,
                c.kind.name(),
                crate::config::plan::degenerate_fit_advice(plan.methods[c.run].kind)
            ));
        }
        // With the predictions kept, the bootstrap interval of the ECE is the in-memory one (same
        // rows, same stream); without them it would need every row again.
        let ece_ci = c.metrics.kept().filter(|_| keep).map(|p| {
            let mut stream = rng::stream(plan.seed, &format!("{}/{}/ece", run.id, c.kind.name()));
            let e = &plan.evaluation;
            crate::metrics::ece_interval(
                p,
                &labels,
                e.calibration_bins,
                e.binning,
                e.resamples,
                &mut stream,
            )
        });
        let (metrics, reliability) = c.metrics.finish(keep.then_some(labels.as_slice()));
        run.predictives.push(PredictiveRecord {
            name: c.kind.name().to_string(),
            metrics,
            calibration: reliability.bins,
            ece_ci,
            probabilities: Vec::new(),
            class_probabilities: Vec::new(),
            mcse: Vec::new(),
        });
    }
    for run in runs.iter_mut().filter(|r| r.error.is_some()) {
        run.predictives.clear();
    }
    Ok((file, if keep { kept_bytes } else { 0 }, stats))
}
