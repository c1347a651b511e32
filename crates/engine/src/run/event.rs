//! What a run tells whoever watches it, in one vocabulary: the engine emits [`Event`]s, the
//! CLI's progress lines match on them, and the workbench carries the same values over its
//! channel. A watcher implements [`Monitor`]: receive an event, and say which of the costly
//! ones ([`Interest`]) it wants at all.

use std::path::PathBuf;

use bayeslab_core::catalog::{Link, PredictiveKind};
use bayeslab_core::optim::{DrawBatch, Iterate};
use bayeslab_core::record::{
    DatasetInfo, EvidenceEstimate, LooRecord, PassPurpose, PassRecord, RunRecord,
};

/// Everything a run reports, in the order the engine produces it.
#[derive(Debug, Clone)]
pub enum Event {
    /// The in-memory read of `file` has gathered `rows` rows, of `total` when the file says
    /// (Parquet); sent after every chunk.
    Reading {
        file: PathBuf,
        rows: usize,
        total: Option<usize>,
    },
    /// The data are loaded and prepared (for a streamed file: its statistics pass is done);
    /// the runs start next.
    DataLoaded(Box<DatasetInfo>),
    /// Run `index` of `total` starts.
    RunStarted {
        index: usize,
        total: usize,
        id: String,
    },
    /// One iterate of a fit: the same value that becomes a row of trace.csv.
    Iterate { run: String, iterate: Iterate },
    /// Consecutive draws of one chain of a sampler (only to a monitor that wants
    /// [`Interest::Draws`]); `columns` are the design columns of each draw's values, `None`
    /// for every column in order.
    Draws {
        run: String,
        columns: Option<Vec<usize>>,
        batch: DrawBatch,
    },
    /// The run is done: fitted, scored and diagnosed (or failed, with its error).
    RunFinished(Box<RunRecord>),
    /// The run's k-hat starts after its fit: `draws` draws from its Gaussian posterior, each
    /// scored on every training row (seconds on large data, so a phase of its own).
    KhatStarted { run: String, draws: usize },
    /// The run's k-hat took `seconds`; `None` when the importance ratios had no tail to fit or
    /// the covariance was not positive definite.
    KhatFinished {
        run: String,
        khat: Option<f64>,
        seconds: f64,
    },
    /// The run's leave-one-out cross-validation starts: `draws` draws (the sampler's, or from
    /// its Gaussian posterior), each scored on each of `rows` training rows; 0 draws for the
    /// exact LOO of a conjugate kind, refitted without each row.
    LooStarted {
        run: String,
        draws: usize,
        rows: usize,
    },
    /// Refit `done` of `total` starts: the run fitted again without training row `row`, whose
    /// Pareto k was above 0.7.
    LooRefit {
        run: String,
        row: usize,
        done: usize,
        total: usize,
    },
    /// The run's leave-one-out estimate is done.
    LooFinished { run: String, loo: Box<LooRecord> },
    /// After the fits, ln p(y | X) of `model` starts: `draws` draws from the Student-t built on
    /// run `proposal`'s Gaussian, each scored on every row.
    EvidenceStarted {
        model: Link,
        proposal: String,
        draws: usize,
    },
    /// The estimate is done (its `reliable` says whether k-hat allows trusting it).
    EvidenceFinished(Box<EvidenceEstimate>),
    /// The `mc` predictive of `run` with `samples` draws per row: its mean p(y = 1) (for more
    /// than two classes, its mean top-class probability) over the test rows; only to a monitor
    /// that wants [`Interest::McCurve`].
    McEstimate {
        run: String,
        samples: usize,
        mean: f64,
    },
    /// `[data] streaming = true`: a pass over the data file has read this far (after every
    /// chunk, while the model works on it).
    Pass(PassProgress),
    /// `[data] streaming = true`: one pass over the data file finished.
    PassFinished(Box<PassRecord>),
    /// In memory, the test rows are scored: `predictive` of `run` predicts its `rows` rows
    /// ([`ScoringStep::Predict`]), then its metrics are computed ([`ScoringStep::Metrics`]).
    Scoring {
        run: String,
        predictive: PredictiveKind,
        rows: usize,
        step: ScoringStep,
    },
    /// After the fits, the weight-space picture's exact slices around `run`'s mode: pair
    /// `done` of `total` starts, each a grid of [`crate::run::exact_pairs::POINTS`]² points
    /// scoring every one of `rows` training rows; `done` = `total` when the last is drawn.
    Slicing {
        run: String,
        done: usize,
        total: usize,
        rows: usize,
    },
    /// `[sweep]`: a point starts; the runs start over.
    SweepPoint(SweepAt),
}

/// The events that cost the engine work of their own: a monitor that does not want them is
/// not sent them, and nothing is computed or copied for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Interest {
    /// [`Event::Draws`]: every chain's draws, a few times a second per chain.
    Draws,
    /// [`Event::McEstimate`]: extra predictions at S/128, S/64, ..., S/2 samples for the
    /// Monte-Carlo predictive's convergence curve.
    McCurve,
}

/// Receives a run's events.
pub trait Monitor {
    fn event(&mut self, event: Event);

    /// Whether to be sent the events of `interest` (none by default).
    fn wants(&self, _interest: Interest) -> bool {
        false
    }
}

/// What [`Event::Scoring`] announces.
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
    pub purpose: PassPurpose,
    /// The run the pass serves (`None` for the prediction pass, which serves them all).
    pub run: Option<String>,
    pub rows_read: usize,
    /// Rows in the part of the file the pass reads (training or test rows).
    pub rows_total: usize,
}

/// `[sweep]`: point `index` (from 0) of `total`, `key` = `value`.
#[derive(Debug, Clone, PartialEq)]
pub struct SweepAt {
    pub index: usize,
    pub total: usize,
    pub key: String,
    pub value: f64,
}

impl SweepAt {
    /// E.g. `point 3/7: prior.precision = 0.1`.
    pub fn label(&self) -> String {
        format!(
            "point {}/{}: {} = {}",
            self.index + 1,
            self.total,
            self.key,
            self.value
        )
    }
}

/// A monitor that ignores everything.
pub struct Silent;

impl Monitor for Silent {
    fn event(&mut self, _event: Event) {}
}

/// A fit nobody watches (a leave-one-out refit, a test) tells nothing either.
impl bayeslab_core::optim::Observer for Silent {
    fn observe(&mut self, _run: &str, _iterate: &Iterate) {}
}
