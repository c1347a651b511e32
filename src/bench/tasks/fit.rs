//! The Laplace fit: Newton to the MAP, the factor, and the posterior variances.

use std::time::{Duration, Instant};

use faer::Mat;

use super::measurement::{record, timed, Progress};
use crate::bench::files::FileSet;
use crate::bench::{memory, FitDetail, Settings};
use crate::bench::{Task, TaskRecord, MAX_ITER, TOLERANCE};
use crate::config::Optimizer;
use crate::error::Result;
use crate::model::gaussian::GaussianPosterior;
use crate::model::logistic::{self, FitSettings};
use crate::optim::Iterate;

/// MAP by Newton plus the Laplace factor, exactly as `logistic-laplace` fits, then diag(H^{-1}).
pub(super) fn laplace_fit(
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

pub(super) fn fit(
    files: &FileSet,
    settings: &Settings,
    progress: Progress<'_>,
) -> Result<TaskRecord> {
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
