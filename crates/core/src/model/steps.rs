//! Newton's iterates recorded for the step-by-step picture (docs/maths.md §18): an observer
//! that keeps each iterate's weights while passing everything on, and the steps it makes, each
//! the Gaussian N(w_k, H(w_k)^-1) that the curvature at the iterate defines, the Laplace
//! approximation's form at every step (at the last, the mode, it is the Laplace posterior).
//! EP's and ADF's site updates are recorded by EP itself (ep/trace.rs).

use faer::Mat;

use crate::numeric::linalg::Cholesky;
use crate::optim::{DrawBatch, Iterate, Objective, Observer};
use crate::record::{FitStep, FitSteps, StepKind, STEPS_MAX};

/// Passes every call on to `inner` and keeps every iterate's weights.
pub struct PointRecorder<'o> {
    inner: &'o mut dyn Observer,
    pub points: Vec<(usize, Vec<f64>)>,
}

impl<'o> PointRecorder<'o> {
    pub fn new(inner: &'o mut dyn Observer) -> Self {
        PointRecorder {
            inner,
            points: Vec::new(),
        }
    }
}

impl Observer for PointRecorder<'_> {
    fn observe(&mut self, run: &str, iterate: &Iterate) {
        self.inner.observe(run, iterate);
    }

    fn wants_draws(&self) -> bool {
        self.inner.wants_draws()
    }

    fn draws(&mut self, run: &str, batch: &DrawBatch) {
        self.inner.draws(run, batch);
    }

    fn wants_points(&self) -> bool {
        true
    }

    fn point(&mut self, run: &str, iteration: usize, w: &[f64]) {
        if self.inner.wants_points() {
            self.inner.point(run, iteration, w);
        }
        self.points.push((iteration, w.to_vec()));
    }
}

/// The first [`STEPS_MAX`] iterates as steps N(w_k, H(w_k)^-1) of `objective`; the record
/// ends early at an iterate whose Hessian is not positive definite (no Gaussian there).
pub fn newton_steps(objective: &dyn Objective, points: Vec<(usize, Vec<f64>)>) -> FitSteps {
    let total = points.len();
    let steps = points
        .into_iter()
        .take(STEPS_MAX)
        .map_while(|(index, w)| {
            let h = objective.hessian(&w);
            let factor = Cholesky::factor(h.as_ref(), "Hessian at a Newton iterate").ok()?;
            Some(FitStep {
                index,
                mean: w,
                cov: rows(&factor.inverse()),
                site: None,
            })
        })
        .collect();
    FitSteps {
        kind: StepKind::Newton,
        total,
        steps,
    }
}

/// A matrix row by row.
pub fn rows(m: &Mat<f64>) -> Vec<Vec<f64>> {
    (0..m.nrows())
        .map(|i| (0..m.ncols()).map(|j| m[(i, j)]).collect())
        .collect()
}

#[cfg(test)]
#[path = "steps_tests.rs"]
mod tests;
