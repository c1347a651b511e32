//! The measurements. Each loads its input first (untimed), resets the peak-memory mark, then
//! times `reps` repetitions of the measured step.

use std::path::Path;
use std::time::{Duration, Instant};

use faer::linalg::matmul::matmul;
use faer::{Accum, Mat};

use super::files::FileSet;
use super::{median, memory, BoundDetail, FitDetail, LoadDetail, PredictDetail, Settings};
use super::{Task, TaskRecord, MAX_ITER, TOLERANCE};
use crate::config::Optimizer;
use crate::error::{Error, Result};
use crate::model::gaussian::GaussianPosterior;
use crate::model::logistic::{self, FitSettings};
use crate::model::predictive::{self, PredictiveKind, PredictiveSettings};
use crate::numeric::rng::stream;
use crate::optim::Iterate;

/// Progress messages for the person waiting (the command line prints them on stderr).
pub type Progress<'a> = &'a mut dyn FnMut(&str);

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

/// The shared part of every record: times, median and the peak over the input size.
fn record(
    task: Task,
    file: &Path,
    (rows, cols): (usize, usize),
    seconds: Vec<f64>,
    peak_reset: bool,
) -> TaskRecord {
    let input_bytes = (rows * cols * 8) as u64;
    let peak = memory::peak_bytes();
    TaskRecord {
        task,
        file: file.display().to_string(),
        rows,
        cols,
        input_bytes,
        median_seconds: median(&seconds),
        seconds,
        start_rss_bytes: None,
        peak_rss_bytes: peak,
        peak_reset,
        peak_over_input: peak.map(|p| p as f64 / input_bytes.max(1) as f64),
        load: None,
        fit: None,
        predict: None,
        bound: None,
    }
}

fn timed<T>(f: impl FnOnce() -> Result<T>) -> Result<(T, f64)> {
    let start = Instant::now();
    let out = f()?;
    Ok((out, start.elapsed().as_secs_f64()))
}

fn load(
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

/// MAP by Newton plus the Laplace factor, exactly as `logistic-laplace` fits, then diag(H^{-1}).
fn laplace_fit(
    x: &Mat<f64>,
    y: &[f64],
    lambda: f64,
    progress: Progress<'_>,
) -> Result<(logistic::LogisticFit, GaussianPosterior, Vec<f64>)> {
    let settings = FitSettings {
        precision: lambda,
        optimizer: Optimizer::Newton,
        max_iter: MAX_ITER,
        tolerance: TOLERANCE,
        laplace: true,
    };
    let mut last = Instant::now();
    let mut observer = |_: &str, it: &Iterate| {
        if last.elapsed() >= Duration::from_secs(1) {
            last = Instant::now();
            progress(&format!(
                "  Newton iteration {}: E = {:.6e}, |g| = {:.2e}",
                it.iteration, it.objective, it.grad_norm
            ));
        }
    };
    let f = logistic::fit(x.as_ref(), y, &settings, "bench", None, &mut observer)?;
    let posterior = f
        .posterior
        .clone()
        .expect("FitSettings::laplace asks for the posterior");
    let diag = posterior.precision.inverse_diag();
    Ok((f, posterior, diag))
}

fn fit(files: &FileSet, settings: &Settings, progress: Progress<'_>) -> Result<TaskRecord> {
    let data = files.load()?;
    let (n, d) = (data.x.nrows(), data.x.ncols());
    let reset = memory::reset_peak();
    let mut seconds = Vec::new();
    let mut last = None;
    for rep in 0..settings.reps {
        let (out, s) = timed(|| laplace_fit(&data.x, &data.y, settings.lambda, progress))?;
        progress(&format!(
            "fit {}/{}: {s:.3} s ({} Newton steps, {})",
            rep + 1,
            settings.reps,
            out.0.outcome.iterations,
            out.0.outcome.termination
        ));
        seconds.push(s);
        last = Some(out);
    }
    let (f, _, diag) = last.expect("at least one repetition");
    let mut r = record(Task::Fit, &data.file, (n, d), seconds, reset);
    let hessians = f.outcome.iterations + 1;
    let (nf, df) = (n as f64, d as f64);
    let flops = 2.0 * hessians as f64 * (nf * df * df + nf * df);
    r.fit = Some(FitDetail {
        lambda: settings.lambda,
        newton_iterations: f.outcome.iterations,
        termination: f.outcome.termination.name().to_string(),
        hessians,
        flops,
        gflops: flops / r.median_seconds / 1e9,
        objective: f.objective,
        weights: f.weights,
        cov_diag: diag,
    });
    Ok(r)
}

fn bound(files: &FileSet, settings: &Settings, progress: Progress<'_>) -> Result<TaskRecord> {
    let data = files.load()?;
    let x = data.x;
    let (n, d) = (x.nrows(), x.ncols());
    drop(data.y);
    let reset = memory::reset_peak();
    let mut seconds = Vec::new();
    for rep in 0..settings.reps {
        let (_, s) = timed(|| {
            let mut g = Mat::<f64>::zeros(d, d);
            matmul(
                g.as_mut(),
                Accum::Replace,
                x.transpose(),
                x.as_ref(),
                1.0,
                faer::get_global_parallelism(),
            );
            std::hint::black_box(&g);
            Ok(())
        })?;
        progress(&format!(
            "bound X^T X {}/{}: {s:.3} s",
            rep + 1,
            settings.reps
        ));
        seconds.push(s);
    }
    let mut r = record(Task::Bound, &data.file, (n, d), seconds, reset);
    let flops = 2.0 * n as f64 * (d * d) as f64;
    r.bound = Some(BoundDetail {
        flops,
        gflops: flops / r.median_seconds / 1e9,
    });
    Ok(r)
}

fn predict(
    train: &FileSet,
    test: &FileSet,
    settings: &Settings,
    progress: Progress<'_>,
) -> Result<TaskRecord> {
    let posterior = {
        let data = train.load()?;
        progress(&format!(
            "predict: fitting the posterior on {} (not timed)",
            data.file.display()
        ));
        laplace_fit(&data.x, &data.y, settings.lambda, progress)?.1
    };
    let data = test.load()?;
    let (n, d) = (data.x.nrows(), data.x.ncols());
    if d != posterior.mean.len() {
        return Err(Error::data(
            &data.file,
            format!(
                "the test rows have {d} columns but the training rows {}; write both with the same `bayeslab synth --features` (use --test-rows)",
                posterior.mean.len()
            ),
        ));
    }
    let reset = memory::reset_peak();
    let mut seconds = Vec::new();
    let mut mean = 0.0;
    let ps = PredictiveSettings {
        mc_samples: settings.samples,
        quadrature_nodes: 64,
        first_row: 0,
    };
    for rep in 0..settings.reps {
        let (p, s) = timed(|| {
            let act = posterior.activations(data.x.as_ref());
            let mut rng = stream(settings.seed, "bench/mc");
            Ok(predictive::predict(PredictiveKind::Mc, &act, ps, &mut rng))
        })?;
        mean = p.iter().sum::<f64>() / n as f64;
        progress(&format!("predict {}/{}: {s:.3} s", rep + 1, settings.reps));
        seconds.push(s);
    }
    let mut r = record(Task::Predict, &data.file, (n, d), seconds, reset);
    r.predict = Some(PredictDetail {
        samples: settings.samples,
        train_file: train.stem.display().to_string(),
        mean_probability: mean,
    });
    Ok(r)
}
