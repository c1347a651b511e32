//! What a run tells whoever watches it: the CLI's progress lines and the TUI's worker implement
//! [`Monitor`]; [`Recorder`] keeps every iterate for trace.csv on the way through.

use crate::optim::{DrawBatch, Iterate, Observer};
use crate::record::{DatasetInfo, EvidenceEstimate, LooRecord, PassRecord, RunRecord, TraceRow};

/// Receives the progress of an experiment: iterations (as an [`Observer`]) plus the start
/// and end of each run, each pass over a streamed file, and each point of a sweep.
pub trait Monitor: Observer {
    /// The in-memory read of `file` has gathered `rows` rows, of `total` when the file says
    /// (Parquet); told after every chunk.
    fn reading(&mut self, _file: &std::path::Path, _rows: usize, _total: Option<usize>) {}
    /// The data are loaded and prepared (for a streamed file: its statistics pass is done);
    /// the runs start next.
    fn data_loaded(&mut self, _dataset: &DatasetInfo) {}
    fn run_started(&mut self, _index: usize, _total: usize, _id: &str) {}
    fn run_finished(&mut self, _run: &RunRecord) {}
    /// The run's k-hat starts after its fit: `draws` draws from its Gaussian posterior, each
    /// scored on every training row (seconds on large data, so it is a phase of its own).
    fn khat_started(&mut self, _run: &str, _draws: usize) {}
    /// The run's k-hat took `seconds`; `None` when the importance ratios had no tail to fit or
    /// the covariance was not positive definite.
    fn khat_finished(&mut self, _run: &str, _khat: Option<f64>, _seconds: f64) {}
    /// The run's leave-one-out cross-validation starts: `draws` draws (the sampler's, or from
    /// its Gaussian posterior), each scored on each of `rows` training rows; 0 draws for the
    /// exact LOO of a conjugate kind, refitted without each row.
    fn loo_started(&mut self, _run: &str, _draws: usize, _rows: usize) {}
    /// Refit `done` of `total` starts: the run fitted again without training row `row`,
    /// whose Pareto k was above 0.7.
    fn loo_refit(&mut self, _run: &str, _row: usize, _done: usize, _total: usize) {}
    /// The run's leave-one-out estimate is done.
    fn loo_finished(&mut self, _run: &str, _loo: &LooRecord) {}
    /// After the fits, ln p(y | X) of the `model` ("logistic" or "probit") starts: `draws`
    /// draws from the Student-t built on run `proposal`'s Gaussian, each scored on every row.
    fn evidence_started(&mut self, _model: &str, _proposal: &str, _draws: usize) {}
    /// The estimate is done (its `reliable` says whether k-hat allows trusting it).
    fn evidence_finished(&mut self, _estimate: &EvidenceEstimate) {}
    /// Whether to compute the Monte-Carlo convergence curve of each `mc` predictive (extra
    /// predictions at S/128, S/64, ..., S/2 samples), reported through [`Monitor::mc_estimate`].
    fn wants_mc_curve(&self) -> bool {
        false
    }
    /// The `mc` predictive of `run` with `samples` draws per row: its mean p(y = 1) (for more
    /// than two classes, its mean top-class probability) over the test rows.
    fn mc_estimate(&mut self, _run: &str, _samples: usize, _mean: f64) {}
    /// `[data] streaming = true`: where a pass reports the rows it has read, chunk by chunk,
    /// while the model works on them (the monitor itself is busy then, so the probe is a
    /// separate, thread-safe handle). `None`: no progress within a pass.
    fn pass_probe(&self) -> Option<PassProbe> {
        None
    }
    /// `[data] streaming = true`: one pass over the data file finished.
    fn pass_finished(&mut self, _pass: &PassRecord) {}
    /// In memory, the test rows are scored: `predictive` of `run` predicts its `rows` rows
    /// ([`ScoringStep::Predict`]), then its metrics are computed from them
    /// ([`ScoringStep::Metrics`]); a streamed pass reports its rows by [`Monitor::pass_probe`].
    fn scoring(&mut self, _run: &str, _predictive: &str, _rows: usize, _step: ScoringStep) {}
    /// After the fits, the weight-space picture's exact slices around `run`'s mode (no sampler
    /// or quadrature run gave them): pair `done` of `total` starts, each a grid of
    /// [`crate::run::exact_pairs::POINTS`]² points scoring every one of `rows` training rows
    /// (minutes on a million rows); `done` = `total` when the last is drawn.
    fn slicing(&mut self, _run: &str, _done: usize, _total: usize, _rows: usize) {}
    /// `[sweep]`: point `index` of `total` (`key` = `value`) starts.
    fn sweep_point(&mut self, _index: usize, _total: usize, _key: &str, _value: f64) {}
}

/// What [`Monitor::scoring`] announces.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ScoringStep {
    /// The predictive's probabilities of every test row.
    Predict,
    /// Its metrics, with `resamples` bootstrap resamples of the rows for the ECE's interval.
    Metrics { resamples: usize },
}

/// How far a pass over a streamed data file has got.
#[derive(Debug, Clone, PartialEq)]
pub struct PassProgress {
    /// `fit`, `khat` or `predict`.
    pub purpose: &'static str,
    /// The run the pass serves (`None` for the prediction pass, which serves them all).
    pub run: Option<String>,
    pub rows_read: usize,
    /// Rows in the part of the file the pass reads (training or test rows).
    pub rows_total: usize,
}

/// Receives [`PassProgress`] from inside a pass.
pub type PassProbe = std::sync::Arc<dyn Fn(&PassProgress) + Send + Sync>;

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
    /// The draws of the sampler being fitted, for its record's trace and rank plots.
    pub(crate) chains: Option<super::chains::ChainDraws>,
}

impl Observer for Recorder<'_> {
    fn observe(&mut self, run: &str, iterate: &Iterate) {
        self.rows.push(TraceRow {
            run: run.to_string(),
            iterate: iterate.clone(),
        });
        self.monitor.observe(run, iterate);
    }

    /// Always: a sampler's record holds its trace and rank plots.
    fn wants_draws(&self) -> bool {
        true
    }

    fn draws(&mut self, run: &str, batch: &DrawBatch) {
        self.chains
            .get_or_insert_with(|| super::chains::ChainDraws::new(batch.schedule))
            .push(batch);
        if self.monitor.wants_draws() {
            self.monitor.draws(run, batch);
        }
    }
}
