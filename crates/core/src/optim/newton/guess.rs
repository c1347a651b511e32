//! A first step without the Hessian at the start: a Cholesky factor of a Hessian that
//! approximates it, from a cheaper problem.
//!
//! The warm start (model/warm_start.rs) fits every k-th of N rows, m in all, with the prior's
//! precision scaled by m / N. Its Hessian at its mode is H_m = X_m^T S_m X_m + lambda (m / N) I,
//! so (N / m) H_m = (N / m) X_m^T S_m X_m + lambda I estimates the full Hessian
//! X^T S X + lambda I there, to the subsample's sampling error (about sqrt(D / m) relative).
//! Its factor is already at hand, so the full-data Newton's first step
//! d = -((N / m) H_m)^{-1} g = -(m / N) H_m^{-1} g costs no Hessian pass: the start costs a
//! gradient pass (E and g at the warm start) instead of a Hessian pass. This is the
//! subsampled-Hessian Newton step of Byrd, Chin, Neveitt and Nocedal (2011, "On the use of
//! stochastic Hessian information in optimization methods for machine learning", SIAM J.
//! Optim. 21(3)) taken once, where it is cheapest; every later step is the solver's own
//! (docs/maths.md §1.1), so the mode and its Hessian are those of a start from the Hessian.

use crate::numeric::linalg::Cholesky;

/// An approximate Hessian for the first step: `scale` x the solve with `factor`.
pub struct Guess {
    pub factor: Cholesky,
    pub scale: f64,
}

/// Where Newton starts, and the curvature its first step may use instead of a Hessian pass.
pub struct Start {
    pub w: Vec<f64>,
    pub guess: Option<Guess>,
}

impl Start {
    /// Start at `w`; the first step factors the Hessian there.
    pub fn at(w: Vec<f64>) -> Start {
        Start { w, guess: None }
    }
}
