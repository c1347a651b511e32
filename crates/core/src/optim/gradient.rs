use super::{Objective, Solver, Step, Termination};
use crate::error::NumericError;
use crate::numeric::linalg::norm2;

/// First-order fit (docs/maths.md 1.1): w <- w - (eta / N) g, i.e. gradient descent on the
/// per-observation objective E / N with learning rate eta. A step that would increase E
/// is not taken; the rate is halved instead (and stays halved), so a too-large rate slows
/// the fit rather than making it diverge.
pub struct GradientDescent<'a> {
    objective: &'a dyn Objective,
    rate: f64,
    w: Vec<f64>,
    value: f64,
    grad: Vec<f64>,
}

impl<'a> GradientDescent<'a> {
    pub fn new(objective: &'a dyn Objective, w0: Vec<f64>, learning_rate: f64) -> Self {
        let value = objective.value(&w0);
        let grad = objective.gradient(&w0);
        GradientDescent {
            objective,
            rate: learning_rate,
            w: w0,
            value,
            grad,
        }
    }

    pub fn into_weights(self) -> Vec<f64> {
        self.w
    }
}

impl Solver for GradientDescent<'_> {
    fn objective(&self) -> f64 {
        self.value
    }

    fn grad_norm(&self) -> f64 {
        norm2(&self.grad)
    }

    fn step(&mut self) -> Result<Step, NumericError> {
        let scale = self.objective.scale().max(1.0);
        while self.rate > 1e-12 {
            let eta = self.rate / scale;
            let w: Vec<f64> = self
                .w
                .iter()
                .zip(&self.grad)
                .map(|(w, g)| w - eta * g)
                .collect();
            let value = self.objective.value(&w);
            if value <= self.value {
                self.w = w;
                self.value = value;
                self.grad = self.objective.gradient(&self.w);
                if self.objective.diverging(&self.w) {
                    return Ok(Step::Stop(Termination::Separable));
                }
                return Ok(Step::Moved(self.rate));
            }
            self.rate *= 0.5;
        }
        Ok(Step::Stop(Termination::Stalled))
    }
}
