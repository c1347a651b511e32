//! Loading: the same data from Parquet, CSV or .npy into a design matrix.

use super::measurement::{record, timed, Progress};
use crate::bench::files::FileSet;
use crate::bench::{median, memory, LoadDetail, Settings};
use crate::bench::{Task, TaskRecord};
use crate::error::{Error, Result};

pub(super) fn load(
    task: Task,
    files: &FileSet,
    settings: &Settings,
    progress: Progress<'_>,
) -> Result<TaskRecord> {
    let (file, format) = match task {
        Task::LoadParquet => (files.parquet.clone(), "Parquet"),
        Task::LoadCsv => (files.csv.clone(), "CSV"),
        _ => (files.npy.as_ref().map(|n| n.0.clone()), ".npy"),
    };
    let file = file.ok_or_else(|| {
        Error::config(
            &files.stem,
            format!(
                "{}: there is no {format} file for this data set; write it with `bayeslab synth` (--csv / --npy) or leave the task out",
                task.name()
            ),
        )
    })?;
    let reset = memory::reset_peak();
    let (mut seconds, mut polars) = (Vec::new(), Vec::new());
    let mut shape = (0, 0);
    for rep in 0..settings.reps {
        let (read, s) = timed(|| match task {
            Task::LoadNpy => files.load().map(|l| (l.x, None)),
            _ => crate::data::dense::read_dense(&file, "y").map(|d| (d.x, Some(d.read_seconds))),
        })?;
        shape = (read.0.nrows(), read.0.ncols());
        polars.extend(read.1);
        seconds.push(s);
        progress(&format!(
            "load {format} {}/{}: {s:.3} s",
            rep + 1,
            settings.reps
        ));
    }
    let mut r = record(task, &file, shape, seconds, reset);
    r.load = Some(LoadDetail {
        polars_read_median_seconds: (!polars.is_empty()).then(|| median(&polars)),
    });
    Ok(r)
}
