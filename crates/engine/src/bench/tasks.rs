//! The measurements. Each loads its input first (untimed), resets the peak-memory mark, then
//! times `reps` repetitions of the measured step.

mod bound;
mod fit;
mod khat;
mod load;
mod measurement;
mod predict;

pub use measurement::Progress;

use super::files::FileSet;
use super::{memory, Settings, Task, TaskRecord};
use bayeslab_core::error::{Error, Result};
use bound::bound;
use fit::fit;
use khat::khat;
use load::load;
use predict::predict;

/// Run one task on the training set `train` (and `test` for the predictive).
pub fn run(
    task: Task,
    train: &FileSet,
    test: Option<&FileSet>,
    settings: &Settings,
    progress: Progress<'_>,
) -> Result<TaskRecord> {
    let start_rss_bytes = memory::resident_bytes();
    let mut r = match task {
        Task::LoadParquet | Task::LoadCsv | Task::LoadNpy => load(task, train, settings, progress)?,
        Task::Fit => fit(train, settings, progress)?,
        Task::Bound => bound(train, settings, progress)?,
        Task::Khat => khat(train, settings, progress)?,
        Task::Predict => {
            let test = test.ok_or_else(|| {
                Error::config(
                    &train.stem,
                    "the predict task needs --test (e.g. the STEM.test.parquet of `bayeslab synth --test-rows M`)",
                )
            })?;
            predict(train, test, settings, progress)?
        }
    };
    r.start_rss_bytes = start_rss_bytes;
    Ok(r)
}
