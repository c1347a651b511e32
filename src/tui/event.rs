//! The one event type of the workbench loop. Keys, resizes and ticks come from the input
//! thread; progress, results and failures come from the worker, a selected experiment's
//! dataset from the describer. Worker events carry the job
//! number they belong to, so that late messages from a cancelled job are ignored.

use std::path::PathBuf;

use ratatui::crossterm::event::KeyEvent;

use crate::optim::{DrawBatch, Iterate};
use crate::record::{
    DatasetInfo, EvidenceEstimate, ExperimentRecord, PassRecord, RunRecord, SweepRecord,
};
use crate::run::{PassProgress, ScoringStep};

#[derive(Debug)]
pub enum Event {
    Key(KeyEvent),
    Resize(u16, u16),
    /// Nothing happened for one tick; the loop redraws anyway (cheap) so the clock moves.
    Tick,
    Progress {
        job: u64,
        progress: Progress,
    },
    Finished {
        job: u64,
        record: Box<ExperimentRecord>,
    },
    /// A `[sweep]` finished: every point's record.
    SweepFinished {
        job: u64,
        sweep: Box<SweepRecord>,
    },
    Failed {
        job: u64,
        error: String,
        cancelled: bool,
    },
    /// The dataset of the experiment file at `path`, loaded in the background when it was
    /// selected (before any run), or why it could not be.
    Described {
        path: PathBuf,
        dataset: Result<Box<DatasetInfo>, String>,
    },
    /// The process was sent this signal (SIGTERM, SIGHUP, SIGINT, SIGQUIT): the loop ends, the
    /// terminal is restored and the process exits with 128 + the signal (tui/signals.rs).
    Signal(i32),
}

/// Owned snapshots of a running experiment, in the order the engine produces them.
#[derive(Debug)]
pub enum Progress {
    /// The in-memory read of `file` has gathered `rows` rows (of `total`, when the file says).
    Reading {
        file: PathBuf,
        rows: usize,
        total: Option<usize>,
    },
    DataLoaded(Box<DatasetInfo>),
    /// In memory, the test rows are scored by `predictive` of `run`, or its metrics computed.
    Scoring {
        run: String,
        predictive: String,
        rows: usize,
        step: ScoringStep,
    },
    RunStarted {
        index: usize,
        total: usize,
        id: String,
    },
    /// One optimiser iterate: the same value that becomes a row of trace.csv.
    Iterate {
        run: String,
        iterate: Iterate,
    },
    /// Draws of one chain of a sampler, reduced to the traced weights: `weights` are their
    /// design-column indices, in the order of each draw's values.
    Draws {
        run: String,
        weights: Vec<usize>,
        batch: DrawBatch,
    },
    RunFinished(Box<RunRecord>),
    /// The run's fit is done and its k-hat starts: `draws` draws scored on every training row.
    KhatStarted {
        run: String,
        draws: usize,
    },
    /// The run's k-hat is done (`None`: no tail to fit); its predictives come next.
    KhatFinished {
        run: String,
        khat: Option<f64>,
        seconds: f64,
    },
    /// The run's leave-one-out cross-validation: its draws scored on every training row, then
    /// refit `done` of `total` (`refit` = Some) without a row whose Pareto k was above 0.7.
    Loo(LooProgress),
    /// The run's leave-one-out estimate is done.
    LooFinished {
        run: String,
    },
    /// After the fits, ln p(y | X) of `model` starts: `draws` draws from a Student-t around
    /// run `proposal`'s Gaussian, each scored on every training row.
    EvidenceStarted {
        model: String,
        proposal: String,
        draws: usize,
    },
    /// The estimate of ln p(y | X) is done.
    EvidenceFinished(Box<EvidenceEstimate>),
    /// After the fits, the exact slices of the weight-space picture around `run`'s mode: pair
    /// `done` of `total` starts, each scoring `rows` training rows at every grid point.
    Slicing {
        run: String,
        done: usize,
        total: usize,
        rows: usize,
    },
    /// The `mc` predictive of a run with this many samples: its mean prediction over test rows.
    McEstimate {
        run: String,
        samples: usize,
        mean: f64,
    },
    /// `[sweep]`: a point starts; the runs start over.
    SweepPoint(SweepAt),
    /// A pass over a streamed data file has read this far (after every chunk).
    Pass(PassProgress),
    /// A pass over a streamed data file finished.
    PassFinished(Box<PassRecord>),
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

/// How far a run's leave-one-out cross-validation has got.
#[derive(Debug, Clone, PartialEq)]
pub struct LooProgress {
    pub run: String,
    pub draws: usize,
    pub rows: usize,
    /// (training row, refits done, refits in all) while a row is refitted.
    pub refit: Option<(usize, usize, usize)>,
}
