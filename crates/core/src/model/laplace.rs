//! The Laplace approximation q(w) = N(w*, H^{-1}) at a minimiser w* of a negative log joint
//! E(w) under the prior w ~ N(0, lambda^{-1} I), and its log evidence (docs/maths.md 1.1):
//! ln p(y | X) ~ -E(w*) + (D/2) ln lambda - (1/2) ln det H. The (2 pi)^{D/2} factors of the
//! prior's normaliser and of the Gaussian integral cancel. Undefined for lambda = 0.

use super::gaussian::GaussianPosterior;
use crate::error::NumericError;
use crate::numeric::linalg::Cholesky;
use crate::optim::Objective;

pub fn approximate(
    objective: &dyn Objective,
    w: &[f64],
    precision: f64,
    run: &str,
) -> Result<GaussianPosterior, NumericError> {
    let (value, _, h) = objective.terms(w, true);
    let h = h.expect("terms with the Hessian asked for");
    at_mode(w, value, h, precision, run)
}

/// The Laplace approximation from E(w*) and the Hessian at w* when the optimiser already has
/// them (Newton's last accepted step).
pub fn at_mode(
    w: &[f64],
    value: f64,
    h: faer::Mat<f64>,
    precision: f64,
    run: &str,
) -> Result<GaussianPosterior, NumericError> {
    let factor = Cholesky::factor(h.as_ref(), &format!("Hessian of {run} at the MAP"))?;
    let d = w.len() as f64;
    let log_evidence =
        (precision > 0.0).then(|| -value + 0.5 * d * precision.ln() - 0.5 * factor.log_det());
    Ok(GaussianPosterior {
        mean: w.to_vec(),
        precision: factor,
        log_evidence,
    })
}

/// Minimise `objective` from `w0` (w = 0, or a warm start: model/warm_start.rs) with the method's optimiser, reporting every iterate to
/// `observer` under the run's id. Newton recomputes the Hessian as `curvature` says.
pub fn minimise(
    objective: &dyn Objective,
    method: &super::spec::MethodSpec,
    curvature: crate::optim::Curvature,
    w0: crate::optim::Start,
    cancel: Option<&std::sync::atomic::AtomicBool>,
    observer: &mut dyn crate::optim::Observer,
) -> Result<(Vec<f64>, crate::optim::Outcome), NumericError> {
    use super::spec::Optimizer;
    use crate::optim::{drive, Control, GradientDescent, Newton, Solver};
    let control = Control {
        max_iter: method.max_iter,
        tolerance: method.tolerance,
        cancel,
    };
    let run = method.id.as_str();
    match method.optimizer {
        Optimizer::Newton => {
            let what = format!("{run} ({})", method.kind.name());
            let mut solver = Newton::with_guess(objective, w0.w, w0.guess, what, curvature);
            let outcome = drive(run, &mut solver, &control, observer)?;
            separable(outcome)?;
            Ok((solver.into_weights(), outcome))
        }
        Optimizer::Gradient { learning_rate } => {
            let mut solver = GradientDescent::new(objective, w0.w, learning_rate);
            let outcome = drive(run, &mut solver as &mut dyn Solver, &control, observer)?;
            separable(outcome)?;
            Ok((solver.into_weights(), outcome))
        }
    }
}

/// A fit that found the data separable under lambda = 0 has no mode to approximate: the
/// error, before a Laplace factor at runaway weights could fail with a misleading reason.
fn separable(outcome: crate::optim::Outcome) -> Result<(), NumericError> {
    match outcome.termination {
        crate::optim::Termination::Separable => Err(NumericError::Separable),
        _ => Ok(()),
    }
}
