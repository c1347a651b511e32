//! Logistic regression by maximum likelihood, MAP and the Laplace approximation
//! (docs/maths.md 1.1).
//!
//! E(w) = -sum_n [y_n ln sigma(a_n) + (1 - y_n) ln(1 - sigma(a_n))] + lambda/2 ||w||^2, a = X w,
//! g = X^T (sigma(a) - y) + lambda w,  H = X^T S X + lambda I with S = diag(mu_n (1 - mu_n)).

use std::sync::atomic::AtomicBool;

use faer::MatRef;

use super::gaussian::GaussianPosterior;
use super::glm::{GlmLink, GlmObjective};
use super::pass_clock::{PassClock, PassTimes};
use super::spec::Optimizer;
use crate::error::NumericError;
use crate::numeric::linalg::{self, mat_vec};
use crate::numeric::special::softplus;
use crate::optim::{
    self, Control, Curvature, GradientDescent, Newton, Objective, Observer, Outcome, Passes,
    Solver, Start,
};

/// The logistic link: l(a, y) = softplus(a) - y a.
pub struct LogitLink;

impl GlmLink for LogitLink {
    fn row_terms(a: f64, y: f64) -> (f64, f64, f64) {
        row_terms(a, y)
    }
}

/// The negative log joint E(w) of logistic regression under w ~ N(0, lambda^{-1} I);
/// lambda = 0 gives the negative log likelihood (MLE).
pub type LogisticObjective<'a> = GlmObjective<'a, LogitLink>;

impl LogisticObjective<'_> {
    /// ln p(y | X, w) = -sum_n softplus(-(2 y_n - 1) a_n).
    pub fn log_likelihood(&self, w: &[f64]) -> f64 {
        let a = mat_vec(self.x, w);
        -a.iter()
            .zip(self.y)
            .map(|(&a, &y)| y * softplus(-a) + (1.0 - y) * softplus(a))
            .sum::<f64>()
    }
}

/// One row's negative log likelihood softplus(a) - y a, its derivative sigma(a) - y and second
/// derivative sigma(a) sigma(-a) in the activation a, from one exponential e = e^{-|a|}:
/// softplus(a) = max(a, 0) + ln(1 + e), and sigma(|a|) = 1 / (1 + e).
///
/// The loss is summed as (1 - y) softplus(a) + y softplus(-a) (the same function, since
/// softplus(a) - softplus(-a) = a): for a label y in {0, 1} one term vanishes and the other has
/// no cancellation. Written as softplus(a) - y a, a well-classified row with a = 35, y = 1 gives
/// 35 + 6e-16 - 35, whose rounding (eps |a| per row) swamps E itself on nearly separable data;
/// the line search, which judges E's changes against E's rounding, then refused a Newton step
/// that shrank ‖g‖ ten thousand times (tests/it/chord_newton.rs, the scaled digits).
pub fn row_terms(a: f64, y: f64) -> (f64, f64, f64) {
    let e = (-a.abs()).exp();
    let big = 1.0 / (1.0 + e);
    let p = if a >= 0.0 { big } else { e * big };
    let loss = e.ln_1p() + (1.0 - y) * a.max(0.0) + y * (-a).max(0.0);
    (loss, p - y, e * big * big)
}

/// What to fit and how.
#[derive(Debug, Clone, Copy)]
pub struct FitSettings {
    /// lambda; 0 for maximum likelihood.
    pub precision: f64,
    pub optimizer: Optimizer,
    pub max_iter: usize,
    pub tolerance: f64,
    /// Also compute the Laplace approximation at the optimum.
    pub laplace: bool,
    /// When Newton recomputes the Hessian: [`Curvature::Chord`] for the fit kinds; full
    /// Newton ([`Curvature::EveryStep`]) is kept for comparison (tests, `bayeslab bench`).
    pub curvature: Curvature,
    /// Start Newton from a subsample's mode when N and D call for it
    /// ([`super::warm_start::stride`]); the fit kinds do, `false` is the plain fit from w = 0.
    pub warm_start: bool,
}

#[derive(Debug, Clone)]
pub struct LogisticFit {
    pub weights: Vec<f64>,
    pub outcome: Outcome,
    /// E at the returned weights.
    pub objective: f64,
    pub posterior: Option<GaussianPosterior>,
    /// The passes over the data, the Laplace factor's Hessian at the mode included (gradient
    /// descent's are not counted).
    pub passes: Passes,
    /// The wall seconds of those passes, by kind (model/pass_clock.rs).
    pub pass_times: PassTimes,
}

/// Fit from w = 0, reporting every iterate to `observer` under the name `run`.
pub fn fit(
    x: MatRef<'_, f64>,
    y: &[f64],
    settings: &FitSettings,
    run: &str,
    cancel: Option<&AtomicBool>,
    observer: &mut dyn Observer,
) -> Result<LogisticFit, NumericError> {
    if settings.precision == 0.0 {
        if let Some(column) = linalg::dependent_column(x, linalg::COLLINEAR_TOL) {
            let constant = (0..x.nrows()).all(|i| x[(i, column)] == x[(0, column)]);
            return Err(NumericError::Collinear { column, constant });
        }
    }
    let plain = LogisticObjective::new(x, y, settings.precision);
    let objective = PassClock::new(&plain);
    let control = Control {
        max_iter: settings.max_iter,
        tolerance: settings.tolerance,
        cancel,
    };
    let w0 = match settings.optimizer {
        Optimizer::Newton if settings.warm_start => warm_start(x, y, settings.precision),
        _ => Start::at(vec![0.0; x.ncols()]),
    };
    let what = format!("{run} (logistic regression)");
    let mut passes = Passes::default();
    let (weights, value, hessian, outcome) = match settings.optimizer {
        Optimizer::Newton => {
            let mut solver =
                Newton::with_guess(&objective, w0.w, w0.guess, what, settings.curvature);
            let outcome = optim::drive(run, &mut solver, &control, observer)?;
            passes = solver.passes();
            let (w, value, hessian) = solver.into_state();
            (w, value, hessian, outcome)
        }
        Optimizer::Gradient { learning_rate } => {
            let mut solver = GradientDescent::new(&objective, w0.w, learning_rate);
            let outcome = optim::drive(run, &mut solver as &mut dyn Solver, &control, observer)?;
            let w = solver.into_weights();
            let value = objective.value(&w);
            (w, value, None, outcome)
        }
    };
    let posterior = if settings.laplace {
        // Full Newton's last accepted full step left the Hessian at the optimum; after a
        // chord step it costs one more Hessian pass.
        let h = match hessian {
            Some(h) => h,
            None => {
                passes.count(true);
                objective.hessian(&weights)
            }
        };
        Some(super::laplace::at_mode(
            &weights,
            value,
            h,
            settings.precision,
            run,
        )?)
    } else {
        None
    };
    Ok(LogisticFit {
        weights,
        outcome,
        objective: value,
        posterior,
        passes,
        pass_times: objective.times(),
    })
}

/// Newton's start for the rows `x`, `y`: a subsample's mode when there are enough rows
/// (model/warm_start.rs), else w = 0.
fn warm_start(x: MatRef<'_, f64>, y: &[f64], precision: f64) -> Start {
    let (n, d) = (x.nrows(), x.ncols());
    super::warm_start::stride(n, d)
        .and_then(|k| {
            let mut subsample = super::warm_start::Subsample::new(k, d);
            subsample.add(x, y);
            let (xs, ys) = subsample.finish();
            super::warm_start::start::<LogitLink>(&xs, &ys, n, precision)
        })
        .unwrap_or_else(|| Start::at(vec![0.0; d]))
}

/// The `logistic-*` kinds through the method interface (MLE has lambda = 0).
pub fn fit_method(
    input: &super::fit::FitInput<'_>,
    observer: &mut dyn Observer,
) -> crate::error::Result<super::fit::Fitted> {
    let m = input.method;
    let settings = FitSettings {
        precision: if m.kind.uses_prior() {
            input.precision
        } else {
            0.0
        },
        optimizer: m.optimizer,
        max_iter: m.max_iter,
        tolerance: m.tolerance,
        laplace: m.kind.has_posterior(),
        curvature: Curvature::for_columns(input.x.ncols()),
        warm_start: true,
    };
    let (f, steps) = match input.record_steps {
        true => {
            let mut recorder = super::steps::PointRecorder::new(observer);
            let f = fit(
                input.x,
                input.y,
                &settings,
                input.run(),
                input.cancel,
                &mut recorder,
            )?;
            let objective = LogisticObjective::new(input.x, input.y, settings.precision);
            (
                f,
                Some(super::steps::newton_steps(&objective, recorder.points)),
            )
        }
        false => {
            let f = fit(
                input.x,
                input.y,
                &settings,
                input.run(),
                input.cancel,
                observer,
            )?;
            (f, None)
        }
    };
    let predictor = super::linear::LinearPredictor {
        weights: f.weights.clone(),
        posterior: f.posterior,
        link: crate::catalog::Link::Logistic,
    };
    Ok(super::fit::Fitted {
        weights: f.weights,
        objective: Some(f.objective),
        outcome: f.outcome,
        posterior: predictor.summary(),
        predictor: Box::new(predictor),
        pass_times: Some(f.pass_times),
        steps,
    })
}

#[cfg(test)]
mod tests;
