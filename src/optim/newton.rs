use super::{Objective, Solver, Step, Termination};
use crate::error::NumericError;
use crate::numeric::linalg::{dot, norm2, Cholesky};

/// Newton's method with step halving (MATH.md 1.1): d = -H^{-1} g from one Cholesky
/// factor of H, then t = 1, 1/2, 1/4, ... until E(w + t d) <= E(w). A step that leaves E
/// unchanged to rounding is accepted only if it shrinks the gradient, so the objective never
/// increases beyond rounding error and the method cannot cycle.
pub struct Newton<'a> {
    objective: &'a dyn Objective,
    what: String,
    w: Vec<f64>,
    value: f64,
    grad: Vec<f64>,
}

/// Smallest step multiplier tried before the line search gives up.
const MIN_STEP: f64 = 1e-10;

impl<'a> Newton<'a> {
    /// Start at `w0`. `what` names the problem in a not-positive-definite error.
    pub fn new(objective: &'a dyn Objective, w0: Vec<f64>, what: impl Into<String>) -> Self {
        let value = objective.value(&w0);
        let grad = objective.gradient(&w0);
        Newton {
            objective,
            what: what.into(),
            w: w0,
            value,
            grad,
        }
    }

    pub fn weights(&self) -> &[f64] {
        &self.w
    }

    pub fn into_weights(self) -> Vec<f64> {
        self.w
    }
}

impl Solver for Newton<'_> {
    fn objective(&self) -> f64 {
        self.value
    }

    fn grad_norm(&self) -> f64 {
        norm2(&self.grad)
    }

    fn step(&mut self) -> Result<Step, NumericError> {
        let h = self.objective.hessian(&self.w);
        let factor = Cholesky::factor(h.as_ref(), &format!("Hessian of {}", self.what))?;
        let d: Vec<f64> = factor.solve(&self.grad).iter().map(|v| -v).collect();
        if dot(&d, &self.grad) >= 0.0 {
            return Ok(Step::Stop(Termination::Stalled));
        }
        let old_norm = norm2(&self.grad);
        let mut t = 1.0;
        while t >= MIN_STEP {
            let w: Vec<f64> = self.w.iter().zip(&d).map(|(w, d)| w + t * d).collect();
            let value = self.objective.value(&w);
            let decreased = value < self.value;
            let level = value <= self.value + 4.0 * f64::EPSILON * self.value.abs();
            if decreased || level {
                let grad = self.objective.gradient(&w);
                if decreased || norm2(&grad) < old_norm {
                    self.w = w;
                    self.value = value;
                    self.grad = grad;
                    if self.objective.diverging(&self.w) {
                        return Ok(Step::Stop(Termination::Separable));
                    }
                    return Ok(Step::Moved(t));
                }
            }
            t *= 0.5;
        }
        Ok(Step::Stop(Termination::Stalled))
    }
}
