//! Iterative optimisation as step functions driven by one shared loop.
//!
//! A solver only knows how to take one step; [`drive`] owns counting, timing,
//! cancellation, the stopping rule and the observer calls, so the trace recorder,
//! the progress printer and the TUI's live plots all see the same iterations. Samplers
//! report through the same observers: an iterate per sweep of their first chain and, to an
//! observer that asks, the draws of every chain ([`DrawBatch`]).

mod draws;
mod driver;
mod gradient;
pub mod log_grid;
mod newton;

pub use draws::{DrawBatch, Schedule};
pub use driver::{
    drive, Control, Iterate, Observer, Outcome, Solver, Step, Termination, STALL_WINDOW,
};
pub use gradient::GradientDescent;
pub use newton::{
    Curvature, Guess, Newton, Passes, Start, CHORD_MIN_COLUMNS, CHORD_RATIO, FLOOR_RATIO,
    KEEP_RATIO, MAX_REUSE, POLISH,
};

use faer::Mat;

/// A smooth objective E(w) to minimise (a negative log joint density).
pub trait Objective {
    fn dim(&self) -> usize;
    fn value(&self, w: &[f64]) -> f64;
    fn gradient(&self, w: &[f64]) -> Vec<f64>;
    fn hessian(&self, w: &[f64]) -> Mat<f64>;
    /// E, its gradient and, when `hessian`, its Hessian at `w`. Objectives that sum over data
    /// rows override it to read the data once for all three (numeric/glm.rs).
    fn terms(&self, w: &[f64], hessian: bool) -> (f64, Vec<f64>, Option<Mat<f64>>) {
        (
            self.value(w),
            self.gradient(w),
            hessian.then(|| self.hessian(w)),
        )
    }
    /// E, g and a Hessian to take a Newton step with at `w`, and whether that Hessian is the
    /// exact one. Objectives with a cheaper Hessian that is good enough to step with (the binary
    /// GLMs' single-precision sums, numeric/glm/single.rs) return it; chord Newton asks for it
    /// (optim/newton/curvature.rs), and never returns it as the Hessian at the mode.
    fn step_terms(&self, w: &[f64]) -> (f64, Vec<f64>, Mat<f64>, bool) {
        let (value, gradient, hessian) = self.terms(w, true);
        (
            value,
            gradient,
            hessian.expect("terms with the Hessian asked for"),
            true,
        )
    }
    /// True when the minimiser does not exist and the iterates run away from here
    /// (for example perfectly separable data under maximum likelihood).
    fn diverging(&self, _w: &[f64]) -> bool {
        false
    }
    /// Number of observations the objective sums over (gradient descent scales its
    /// learning rate by 1/scale so that the rate is per observation).
    fn scale(&self) -> f64 {
        1.0
    }
}
