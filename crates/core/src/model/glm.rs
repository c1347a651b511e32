//! The GLM objective that logistic and probit regression share: with activations a = X w,
//! E(w) = sum_n l(a_n, y_n) + lambda/2 ||w||^2, g = X^T l'(a, y) + lambda w,
//! H = X^T diag(l''(a, y)) X + lambda I, where the link gives the per-row terms l, l', l''
//! (docs/maths.md 1.1 for the logistic link, 1.2 for the probit). One fused pass over X
//! (numeric/glm.rs) computes all three.

use std::marker::PhantomData;

use faer::{Mat, MatRef};

use crate::numeric::glm;
use crate::numeric::linalg::mat_vec;
use crate::optim::Objective;

/// Weights beyond this size mean the iterates are running away (quasi-separation under MLE).
const RUNAWAY_WEIGHT: f64 = 1e6;

/// A link of the binary GLM: one row's negative log likelihood and its derivatives.
pub trait GlmLink: Send + Sync {
    /// (l, dl/da, d2l/da2) at activation `a` for label `y` in {0, 1}.
    fn row_terms(a: f64, y: f64) -> (f64, f64, f64);
}

/// Whether weights `w` under lambda = 0 prove that no minimiser exists: `margins` yields each
/// row's margin (the activation of its own class minus the largest other one; for a binary
/// GLM (2y - 1) a), and when every margin is positive the weights classify every row
/// correctly, so scaling them up lowers E towards 0 without end; a weight beyond
/// [`RUNAWAY_WEIGHT`] means the iterates run away (quasi-separation). Every kind whose
/// likelihood is a product of per-row class probabilities (logistic, probit, softmax) shares it.
pub fn runaway(mut margins: impl Iterator<Item = f64>, w: &[f64]) -> bool {
    w.iter().any(|v| v.abs() > RUNAWAY_WEIGHT) || margins.all(|m| m > 0.0)
}

/// The negative log joint E(w) of a binary GLM under w ~ N(0, lambda^{-1} I); lambda = 0
/// gives the negative log likelihood (MLE).
pub struct GlmObjective<'a, L: GlmLink> {
    pub(super) x: MatRef<'a, f64>,
    pub(super) y: &'a [f64],
    precision: f64,
    link: PhantomData<L>,
}

impl<'a, L: GlmLink> GlmObjective<'a, L> {
    pub fn new(x: MatRef<'a, f64>, y: &'a [f64], precision: f64) -> Self {
        assert_eq!(x.nrows(), y.len(), "one label per row");
        GlmObjective {
            x,
            y,
            precision,
            link: PhantomData,
        }
    }
}

impl<L: GlmLink> Objective for GlmObjective<'_, L> {
    fn dim(&self) -> usize {
        self.x.ncols()
    }

    // value, gradient and Hessian all come from the one fused pass, so that the line search
    // compares values computed in the same order (they differ by rounding otherwise).
    fn value(&self, w: &[f64]) -> f64 {
        self.terms(w, false).0
    }

    fn gradient(&self, w: &[f64]) -> Vec<f64> {
        self.terms(w, false).1
    }

    fn hessian(&self, w: &[f64]) -> Mat<f64> {
        let (_, _, h) = self.terms(w, true);
        h.expect("terms with the Hessian asked for")
    }

    /// One fused pass over X (numeric/glm.rs) for E, g and H.
    fn terms(&self, w: &[f64], hessian: bool) -> (f64, Vec<f64>, Option<Mat<f64>>) {
        glm::accumulate(self.x, self.y, w, hessian, &L::row_terms).with_prior(w, self.precision)
    }

    /// The same pass with the Hessian summed in single precision (numeric/glm/single.rs), for
    /// chord Newton's steps; E and g are the exact pass's bits.
    fn step_terms(&self, w: &[f64]) -> (f64, Vec<f64>, Mat<f64>, bool) {
        let t = glm::accumulate_with(self.x, self.y, w, glm::Hessian::Single, &L::row_terms);
        let (value, gradient, h) = t.with_prior(w, self.precision);
        (value, gradient, h.expect("a pass with the Hessian"), false)
    }

    /// Under lambda = 0 (MLE, or an improper flat prior) a weight vector that classifies every
    /// row correctly proves the data separable: no minimiser exists ([`runaway`]).
    fn diverging(&self, w: &[f64]) -> bool {
        if self.precision > 0.0 {
            return false;
        }
        let a = mat_vec(self.x, w);
        runaway(a.iter().zip(self.y).map(|(&a, &y)| (2.0 * y - 1.0) * a), w)
    }

    fn scale(&self) -> f64 {
        self.y.len() as f64
    }
}
