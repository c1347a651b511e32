//! The Laplace fit: Newton to the MAP, the factor, and the posterior variances, fitted exactly
//! as `logistic-laplace` fits (the warm start and the chord policy that N and D call for),
//! timed interleaved with full Newton from w = 0 (a Hessian every step, no warm start: the fit
//! before issue 19), so that one run shows what the policy saves on the machine of the day.

use std::time::{Duration, Instant};

use faer::Mat;

use super::measurement::{record, timed, Progress};
use crate::bench::files::FileSet;
use crate::bench::{median, memory, FitDetail, FullNewton, Settings};
use crate::bench::{Task, TaskRecord, MAX_ITER, TOLERANCE};
use crate::config::Optimizer;
use bayeslab_core::error::Result;
use bayeslab_core::model::gaussian::GaussianPosterior;
use bayeslab_core::model::logistic::{self, FitSettings};
use bayeslab_core::optim::{Curvature, Iterate};

/// How a bench fit runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Fitting {
    /// As `logistic-laplace` fits in `bayeslab run` (model::logistic::fit_method's settings).
    AsRun,
    /// Full Newton from w = 0, the reference.
    FullNewton,
}

/// MAP by Newton plus the Laplace factor, then diag(H^{-1}).
pub(super) fn laplace_fit(
    x: &Mat<f64>,
    y: &[f64],
    lambda: f64,
    fitting: Fitting,
    progress: Progress<'_>,
) -> Result<(logistic::LogisticFit, GaussianPosterior, Vec<f64>)> {
    let as_run = fitting == Fitting::AsRun;
    let settings = FitSettings {
        precision: lambda,
        optimizer: Optimizer::Newton,
        max_iter: MAX_ITER,
        tolerance: TOLERANCE,
        laplace: true,
        curvature: if as_run {
            Curvature::for_columns(x.ncols())
        } else {
            Curvature::EveryStep
        },
        warm_start: as_run,
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

type Fit = (logistic::LogisticFit, GaussianPosterior, Vec<f64>);

pub(super) fn fit(
    files: &FileSet,
    settings: &Settings,
    progress: Progress<'_>,
) -> Result<TaskRecord> {
    let data = files.load()?;
    let (n, d) = (data.x.nrows(), data.x.ncols());
    let reset = memory::reset_peak();
    let (mut seconds, mut full_seconds) = (Vec::new(), Vec::new());
    let (mut last, mut last_full): (Option<Fit>, Option<Fit>) = (None, None);
    for rep in 0..settings.reps {
        for fitting in [Fitting::AsRun, Fitting::FullNewton] {
            let (out, s) =
                timed(|| laplace_fit(&data.x, &data.y, settings.lambda, fitting, progress))?;
            let p = out.0.passes;
            progress(&format!(
                "fit {}/{} ({}): {s:.3} s ({} Newton steps, {}; {} Hessian + {} gradient passes)",
                rep + 1,
                settings.reps,
                if fitting == Fitting::AsRun {
                    "as run"
                } else {
                    "full Newton from 0"
                },
                out.0.outcome.iterations,
                out.0.outcome.termination,
                p.hessian,
                p.gradient
            ));
            if fitting == Fitting::AsRun {
                seconds.push(s);
                last = Some(out);
            } else {
                full_seconds.push(s);
                last_full = Some(out);
            }
        }
    }
    let (f, _, diag) = last.expect("at least one repetition");
    let (full, _, full_diag) = last_full.expect("at least one repetition");
    let mut r = record(Task::Fit, &data.file, (n, d), seconds, reset);
    let (nf, df) = (n as f64, d as f64);
    let flops = 2.0 * f.passes.hessian as f64 * (nf * df * df + nf * df)
        + 4.0 * f.passes.gradient as f64 * nf * df;
    let full_median = median(&full_seconds);
    let full_newton = FullNewton {
        median_seconds: full_median,
        newton_iterations: full.outcome.iterations,
        hessians: full.passes.hessian,
        chord_over_full: r.median_seconds / full_median,
        max_weight_difference: max_difference(&f.weights, &full.weights, |_| 1.0),
        max_cov_diag_relative_difference: max_difference(&diag, &full_diag, f64::abs),
    };
    r.fit = Some(FitDetail {
        lambda: settings.lambda,
        newton_iterations: f.outcome.iterations,
        termination: f.outcome.termination.name().to_string(),
        hessians: f.passes.hessian,
        gradient_passes: f.passes.gradient,
        flops,
        gflops: flops / r.median_seconds / 1e9,
        objective: f.objective,
        weights: f.weights,
        cov_diag: diag,
        full_newton: Some(full_newton),
    });
    Ok(r)
}

/// max_j |a_j - b_j| / scale(b_j).
fn max_difference(a: &[f64], b: &[f64], scale: impl Fn(f64) -> f64) -> f64 {
    a.iter()
        .zip(b)
        .map(|(a, b)| (a - b).abs() / scale(*b))
        .fold(0.0, f64::max)
}
