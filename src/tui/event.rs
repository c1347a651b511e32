//! The one event type of the workbench loop. Keys, resizes and ticks come from the input
//! thread; progress, results and failures come from the worker. Worker events carry the job
//! number they belong to, so that late messages from a cancelled job are ignored.

use ratatui::crossterm::event::KeyEvent;

use crate::data::FileDescription;
use crate::optim::{DrawBatch, Iterate};
use crate::record::{ExperimentRecord, PassRecord, RunRecord, SweepRecord};
use crate::run::PassProgress;

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
}

/// Owned snapshots of a running experiment, in the order the engine produces them.
#[derive(Debug)]
pub enum Progress {
    DataLoaded(Box<DatasetView>),
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

/// What the Dataset screen shows: the polars description of the data file plus the
/// train/test split as the experiment prepared it.
#[derive(Debug, Clone)]
pub struct DatasetView {
    pub file: String,
    /// The polars summary, or why it could not be computed.
    pub description: Result<FileDescription, String>,
    pub target: String,
    pub rows_train: usize,
    pub rows_test: usize,
    pub positives_train: usize,
    pub positives_test: usize,
    pub columns: Vec<String>,
    pub notes: Vec<String>,
}
