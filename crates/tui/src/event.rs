//! The one event type of the workbench loop. Keys, resizes and ticks come from the input
//! thread; progress, results and failures come from the worker, a selected experiment's
//! dataset from the describer. Worker events carry the job
//! number they belong to, so that late messages from a cancelled job are ignored.

use std::path::PathBuf;

use ratatui::crossterm::event::KeyEvent;

use bayeslab_core::record::{DatasetInfo, ExperimentRecord, SweepRecord};

#[derive(Debug)]
pub enum Event {
    Key(KeyEvent),
    Resize(u16, u16),
    /// Nothing happened for one tick; the loop redraws anyway (cheap) so the clock moves.
    Tick,
    /// What the engine told the worker of job `job`, as it told it.
    Progress {
        job: u64,
        event: bayeslab_engine::run::Event,
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
