use super::{Objective, Solver, Step, Termination};
use crate::error::NumericError;
use crate::numeric::linalg::{dot, norm2, Cholesky};

/// Newton's method with step halving (docs/maths.md 1.1): d = -H^{-1} g from one Cholesky
/// factor of H, then t = 1, 1/2, 1/4, ... until E(w + t d) <= E(w). A step that leaves E
/// unchanged to rounding is accepted only if it shrinks the gradient, so the objective never
/// increases beyond rounding error, and more than three such steps in a row count as stalled.
///
/// The full step t = 1 is evaluated with [`Objective::terms`] including the Hessian, so an
/// accepted full step (the usual case) costs one pass over the data per iteration; shorter
/// steps are tried without it.
pub struct Newton<'a> {
    objective: &'a dyn Objective,
    what: String,
    w: Vec<f64>,
    value: f64,
    grad: Vec<f64>,
    /// The Hessian at `w`, when the last evaluation computed it.
    hessian: Option<faer::Mat<f64>>,
    /// Accepted steps in a row that left E unchanged to rounding.
    level_steps: usize,
}

/// Level steps in a row after which the problem counts as stalled.
const MAX_LEVEL_STEPS: usize = 3;

/// Smallest step multiplier tried before the line search gives up.
const MIN_STEP: f64 = 1e-10;

impl<'a> Newton<'a> {
    /// Start at `w0`. `what` names the problem in a not-positive-definite error.
    pub fn new(objective: &'a dyn Objective, w0: Vec<f64>, what: impl Into<String>) -> Self {
        let (value, grad, hessian) = objective.terms(&w0, true);
        Newton {
            objective,
            what: what.into(),
            w: w0,
            value,
            grad,
            hessian,
            level_steps: 0,
        }
    }

    pub fn weights(&self) -> &[f64] {
        &self.w
    }

    pub fn into_weights(self) -> Vec<f64> {
        self.w
    }

    /// The weights, E at them and the Hessian there when it is at hand.
    pub fn into_state(self) -> (Vec<f64>, f64, Option<faer::Mat<f64>>) {
        (self.w, self.value, self.hessian)
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
        let h = match self.hessian.take() {
            Some(h) => h,
            None => self.objective.hessian(&self.w),
        };
        let factor = Cholesky::factor(h.as_ref(), &format!("Hessian of {}", self.what))?;
        let d: Vec<f64> = factor.solve(&self.grad).iter().map(|v| -v).collect();
        if dot(&d, &self.grad) >= 0.0 {
            return Ok(Step::Stop(Termination::Stalled));
        }
        let old_norm = norm2(&self.grad);
        let mut t = 1.0;
        while t >= MIN_STEP {
            let w: Vec<f64> = self.w.iter().zip(&d).map(|(w, d)| w + t * d).collect();
            let (value, grad, hessian) = if t == 1.0 {
                self.objective.terms(&w, true)
            } else {
                (self.objective.value(&w), Vec::new(), None)
            };
            // Changes within the rounding of E are not progress. E sums N terms, so its
            // rounding grows like sqrt(N) ulp (a random walk of N roundings); with a
            // tolerance of 4 ulp alone, a large data set's last real decrease, smaller than
            // that noise, could be rejected step after step.
            let noise =
                4.0 * f64::EPSILON * self.value.abs() * self.objective.scale().max(1.0).sqrt();
            let decreased = value < self.value - noise;
            let level = value <= self.value + noise;
            if decreased || level {
                let grad = if grad.is_empty() {
                    self.objective.gradient(&w)
                } else {
                    grad
                };
                if decreased || norm2(&grad) < old_norm {
                    // Level steps in a row mean the iterates wander at the rounding-noise floor
                    // of E and g (badly scaled features): stop there rather than forever.
                    self.level_steps = if decreased { 0 } else { self.level_steps + 1 };
                    if self.level_steps > MAX_LEVEL_STEPS {
                        return Ok(Step::Stop(Termination::Stalled));
                    }
                    self.w = w;
                    self.value = value;
                    self.grad = grad;
                    self.hessian = hessian;
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
