//! Loading: the same data from Parquet, CSV or .npy into a design matrix. Parquet and CSV go
//! through the loader `bayeslab run` uses ([`bayeslab_data::load`]: the training file and its
//! `STEM.test.*` file when `bayeslab synth --test-rows` wrote one, every column but `y` a
//! feature, standardised, with an intercept), so peak / X is the run's own; a plain polars read
//! of the same file is timed beside it.

use std::path::{Path, PathBuf};
use std::time::Instant;

use super::measurement::{record, timed, Progress};
use crate::bench::files::FileSet;
use crate::bench::{median, memory, LoadDetail, Settings};
use crate::bench::{Task, TaskRecord};
use crate::config::{DataPlan, DataSource, Split};
use bayeslab_core::error::{Error, Result};

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
    let plan = plan(&file);
    let reset = memory::reset_peak();
    let mut seconds = Vec::new();
    let mut shape = (0, 0);
    for rep in 0..settings.reps {
        let (read, s) = timed(|| match task {
            Task::LoadNpy => files.load().map(|l| (l.x.nrows(), l.x.ncols())),
            _ => bayeslab_data::load(&plan).map(|d| {
                let (train, test) = (&d.train.x, &d.test.x);
                (train.nrows() + test.nrows(), train.ncols())
            }),
        })?;
        shape = read;
        seconds.push(s);
        progress(&format!(
            "load {format} {}/{}: {s:.3} s",
            rep + 1,
            settings.reps
        ));
    }
    let mut r = record(task, &file, shape, seconds, reset);
    if task == Task::LoadNpy {
        r.load = Some(LoadDetail::default());
        return Ok(r);
    }
    // After the loader's peak is recorded: the plain reads must not count in it.
    let mut polars = Vec::new();
    for _ in 0..settings.reps {
        let start = Instant::now();
        bayeslab_data::polars_read(&plan)?;
        polars.push(start.elapsed().as_secs_f64());
    }
    let bytes = plan_bytes(&plan);
    let mb_per_second = |s: f64| bytes as f64 / 1e6 / s;
    let polars_median = median(&polars);
    r.load = Some(LoadDetail {
        polars_read_median_seconds: Some(polars_median),
        file_bytes: Some(bytes),
        loader_mb_per_second: Some(mb_per_second(r.median_seconds)),
        polars_mb_per_second: Some(mb_per_second(polars_median)),
    });
    Ok(r)
}

/// The plan `bayeslab run` would make for a `bayeslab synth` file: target `y`, every other
/// column a feature; the test rows from `STEM.test.EXT` when it exists, else every fifth row.
fn plan(file: &Path) -> DataPlan {
    let source = match test_file(file) {
        Some(test) => DataSource::TrainTest {
            train: file.to_path_buf(),
            test,
        },
        None => DataSource::Single {
            path: file.to_path_buf(),
            split: Split::Every {
                every: 5,
                offset: 4,
            },
        },
    };
    DataPlan::defaults(source, "y")
}

/// STEM.test.EXT beside STEM.EXT, if `bayeslab synth --test-rows` wrote it.
fn test_file(file: &Path) -> Option<PathBuf> {
    let ext = file.extension()?.to_str()?;
    let stem = file.file_stem()?.to_str()?;
    Some(file.with_file_name(format!("{stem}.test.{ext}"))).filter(|p| p.is_file())
}

/// The bytes of the files `plan` reads.
fn plan_bytes(plan: &DataPlan) -> u64 {
    let size = |p: &Path| std::fs::metadata(p).map_or(0, |m| m.len());
    match &plan.source {
        DataSource::Single { path, .. } => size(path),
        DataSource::TrainTest { train, test } => size(train) + size(test),
    }
}
