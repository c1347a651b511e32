//! Where a run's rows come from. Rows always arrive in chunks: a dataset held in memory is one
//! chunk, a streamed file (`[data] streaming = true`) is read chunk by chunk on every pass.
//! "Streamed" is a property of the source; the runner above is the same for both.

use std::cell::{Cell, RefCell};

use super::event::{Event, PassProgress};
use super::monitor::Events;
use bayeslab_core::error::Result;
use bayeslab_data::{Dataset, DesignRows, Part, PassStats, StreamedData, INTERCEPT};
use std::sync::atomic::AtomicBool;

use crate::config::{MethodPlan, Plan};
use bayeslab_core::model::method::{FitRequest, Rows};
use bayeslab_core::model::streaming::{ChunkFn, Chunks};
use bayeslab_core::record::{
    ColumnScaling, DatasetInfo, FeatureCode, PassPurpose, Preparation, StreamingRecord,
};

/// The record's standardisation of the design `columns` (the intercept skipped).
fn scaling(columns: &[String], scaling: Option<Vec<(f64, f64)>>) -> Option<Vec<ColumnScaling>> {
    let names = columns.iter().filter(|c| *c != INTERCEPT);
    Some(
        names
            .zip(scaling?)
            .map(|(column, (centre, scale))| ColumnScaling {
                column: column.clone(),
                centre,
                scale,
            })
            .collect(),
    )
}

/// The prepared data of a run.
#[derive(Clone, Copy)]
pub enum Source<'a> {
    Memory(&'a Dataset),
    Streamed(&'a StreamedData),
}

impl<'a> Source<'a> {
    /// The dataset section of the record: what was read and how it was prepared (with the
    /// preparation's learned state when `plan` is given).
    pub fn info(&self, plan: Option<&crate::config::DataPlan>) -> DatasetInfo {
        let mut info = self.info_without_preparation();
        info.preparation = plan.and_then(|p| self.preparation(p));
        info
    }

    fn info_without_preparation(&self) -> DatasetInfo {
        let files = |f: &[std::path::PathBuf]| f.iter().map(|f| f.display().to_string()).collect();
        match self {
            Source::Memory(d) => DatasetInfo {
                files: files(&d.files),
                target: d.target.clone(),
                classes: d.classes.clone(),
                rows_train: d.train.rows(),
                rows_test: d.test.rows(),
                features: d.features.len(),
                columns: d.columns.clone(),
                positives_train: d.train.positives(),
                positives_test: d.test.positives(),
                class_counts_train: d.train.class_counts(d.classes.len()),
                class_counts_test: d.test.class_counts(d.classes.len()),
                summaries: d.summaries.clone(),
                encoding: d.encoding.clone(),
                standardisation: scaling(&d.columns, d.scaling.clone()),
                preparation: None,
                notes: d.notes.clone(),
                // the plan's `[data] standardize`, which the caller fills in (run/experiment.rs)
                standardized: false,
            },
            Source::Streamed(d) => DatasetInfo {
                files: files(&d.files),
                target: d.target.clone(),
                classes: d.classes.clone(),
                rows_train: d.rows_train,
                rows_test: d.rows_test,
                features: d.features.len(),
                columns: d.columns.clone(),
                positives_train: d.positives_train,
                positives_test: d.positives_test,
                class_counts_train: d.class_counts_train.clone(),
                class_counts_test: d.class_counts_test.clone(),
                summaries: d.summaries.clone(),
                encoding: d.encoding.clone(),
                standardisation: scaling(&d.columns, d.scaling()),
                preparation: None,
                notes: d.notes.clone(),
                // the plan's `[data] standardize`, which the caller fills in (run/experiment.rs)
                standardized: false,
            },
        }
    }

    /// The preparation's learned state for `dataset.preparation` (none with a feature map).
    pub fn preparation(&self, plan: &crate::config::DataPlan) -> Option<Preparation> {
        let (features, codes, scaled) = match self {
            Source::Memory(d) => (&d.features, &d.codes[..], d.scaling.is_some()),
            Source::Streamed(d) => (&d.features, d.codes(), d.scaling().is_some()),
        };
        scaled.then(|| Preparation {
            features: features
                .iter()
                .zip(codes)
                .map(|(column, code)| FeatureCode {
                    column: column.clone(),
                    code: code.clone(),
                })
                .collect(),
            intercept: plan.intercept,
            unseen_levels: plan.encoding.unseen.name().to_string(),
            separator: (plan.separator as char).to_string(),
        })
    }

    pub fn files(&self) -> &'a [std::path::PathBuf] {
        match self {
            Source::Memory(d) => &d.files,
            Source::Streamed(d) => &d.files,
        }
    }

    pub fn columns(&self) -> &'a [String] {
        match self {
            Source::Memory(d) => &d.columns,
            Source::Streamed(d) => &d.columns,
        }
    }

    pub fn classes(&self) -> usize {
        match self {
            Source::Memory(d) => d.classes.len(),
            Source::Streamed(d) => d.classes.len(),
        }
    }

    pub fn rows_train(&self) -> usize {
        match self {
            Source::Memory(d) => d.train.rows(),
            Source::Streamed(d) => d.rows_train,
        }
    }

    pub fn rows_test(&self) -> usize {
        match self {
            Source::Memory(d) => d.test.rows(),
            Source::Streamed(d) => d.rows_test,
        }
    }

    /// The first design column is the intercept (generative methods skip it).
    pub fn intercept(&self) -> bool {
        self.columns().first().map(String::as_str) == Some(INTERCEPT)
    }

    /// Every row of the held-in-memory source at once: what the methods that need the whole
    /// matrix (EP, Gibbs, softmax, the generative kinds, the evidence search) ask for.
    pub fn whole(&self) -> Option<&'a Dataset> {
        match self {
            Source::Memory(d) => Some(d),
            Source::Streamed(_) => None,
        }
    }

    /// The streamed file, when the rows are not in memory.
    pub fn streamed(&self) -> Option<&'a StreamedData> {
        match self {
            Source::Memory(_) => None,
            Source::Streamed(d) => Some(d),
        }
    }

    /// The training rows as [`Chunks`] for run `run`, timing each pass and telling `events`
    /// its progress.
    pub fn training(&self, run: &str, events: Option<Events<'a>>) -> TrainingRows<'a> {
        TrainingRows {
            source: *self,
            run: run.to_string(),
            purpose: Cell::new(PassPurpose::Fit),
            gradient_only: Cell::new(false),
            events,
            passes: RefCell::new(Vec::new()),
        }
    }

    /// What the model's dispatcher needs besides the rows, for `method` under `precision`.
    pub fn fit_request<'p>(
        &self,
        plan: &'p Plan,
        method: &'p MethodPlan,
        precision: f64,
        cancel: Option<&'p AtomicBool>,
    ) -> FitRequest<'p>
    where
        'a: 'p,
    {
        FitRequest {
            file: &plan.file,
            method,
            precision,
            seed: plan.seed,
            columns: self.columns(),
            rows: self.rows_train(),
            classes: self.classes(),
            intercept: self.intercept(),
            cancel,
            record_steps: plan.evaluation.record_steps
                && self.columns().len() <= bayeslab_core::record::STEPS_MAX_WEIGHTS,
        }
    }

    /// The training rows for the dispatcher: as `chunks`, and all at once when in memory.
    pub fn rows<'p>(&self, chunks: &'p dyn Chunks) -> Rows<'p>
    where
        'a: 'p,
    {
        let whole = self
            .whole()
            .map(|d| (d.train.x.as_ref(), d.train.y.as_slice()));
        Rows { chunks, whole }
    }

    /// One pass over the test rows, chunk by chunk (a dataset in memory is one chunk). Returns
    /// the pass's cost for a streamed file.
    pub fn each_test(
        &self,
        events: Option<Events<'_>>,
        f: &mut ChunkFn<'_>,
    ) -> Result<Option<PassStats>> {
        self.each_test_rows(events, &mut |c| f(c.x, c.y))
    }

    /// [`Source::each_test`] with each chunk's rows' places in their data file.
    pub fn each_test_rows(
        &self,
        events: Option<Events<'_>>,
        f: &mut dyn FnMut(DesignRows<'_>) -> Result<()>,
    ) -> Result<Option<PassStats>> {
        match self {
            Source::Memory(d) => f(DesignRows {
                x: d.test.x.as_ref(),
                y: &d.test.y,
                source_rows: &d.test.source_rows,
            })
            .map(|()| None),
            Source::Streamed(d) => {
                let mut read = 0;
                let stats = d.pass(Part::Test, &mut |c: DesignRows<'_>| {
                    let n = c.y.len();
                    f(c)?;
                    read += n;
                    report(events, PassPurpose::Predict, None, read, d.rows_test);
                    Ok(())
                })?;
                Ok(Some(stats))
            }
        }
    }

    /// `[data] id`: the key column's name and its value in every test row (in memory only:
    /// a streamed source refuses the key when the plan is made).
    pub fn key(&self) -> Option<(&'a str, &'a [String])> {
        match self {
            Source::Memory(d) => d.test_key.as_ref().map(|(k, v)| (k.as_str(), &v[..])),
            Source::Streamed(_) => None,
        }
    }

    /// results.json `streaming` without its passes, for a streamed source.
    pub fn streaming_record(&self) -> Option<StreamingRecord> {
        let d = self.streamed()?;
        Some(StreamingRecord {
            chunk_rows: d.streaming.chunk_rows,
            max_memory_bytes: d.streaming.max_memory,
            estimated_bytes: d.working_set,
            kept_prediction_bytes: 0,
            chunks_per_pass: d.preparation.first().map_or(0, |(_, s)| s.chunks),
            passes: Vec::new(),
            runs: Vec::new(),
        })
    }
}

fn report(
    events: Option<Events<'_>>,
    purpose: PassPurpose,
    run: Option<&str>,
    read: usize,
    total: usize,
) {
    if let Some(events) = events {
        events.send(Event::Pass(PassProgress {
            purpose,
            run: run.map(str::to_string),
            rows_read: read,
            rows_total: total,
        }));
    }
}

/// The training rows of one run: replayed once per call, with each streamed pass's cost kept
/// under its purpose (`fit`, or `fit-grad` for a GLM fit's pass without the Hessian; then
/// `khat`).
pub struct TrainingRows<'a> {
    source: Source<'a>,
    run: String,
    purpose: Cell<PassPurpose>,
    /// The next fit pass computes E and g only (chord Newton's cheap pass).
    gradient_only: Cell<bool>,
    events: Option<Events<'a>>,
    passes: RefCell<Vec<(PassPurpose, PassStats)>>,
}

impl TrainingRows<'_> {
    /// Label the passes made from now on (`khat` after the fit).
    pub fn purpose(&self, purpose: PassPurpose) {
        self.purpose.set(purpose);
    }

    /// The streamed passes made so far, with their purposes.
    pub fn take_passes(&self) -> Vec<(PassPurpose, PassStats)> {
        self.passes.take()
    }
}

impl Chunks for TrainingRows<'_> {
    fn each(&self, f: &mut ChunkFn<'_>) -> Result<()> {
        match self.source {
            Source::Memory(d) => f(d.train.x.as_ref(), &d.train.y),
            Source::Streamed(d) => {
                let purpose = match self.purpose.get() {
                    PassPurpose::Fit if self.gradient_only.get() => PassPurpose::FitGrad,
                    p => p,
                };
                let mut read = 0;
                let stats = d.pass(Part::Train, &mut |c: DesignRows<'_>| {
                    f(c.x, c.y)?;
                    read += c.y.len();
                    report(self.events, purpose, Some(&self.run), read, d.rows_train);
                    Ok(())
                })?;
                self.passes.borrow_mut().push((purpose, stats));
                Ok(())
            }
        }
    }

    fn hessian_next(&self, hessian: bool) {
        self.gradient_only.set(!hessian);
    }
}
