//! A Gaussian posterior q(w) = N(m, H^{-1}) kept as its mean and the Cholesky factor of its
//! precision H, so moments and activations come from triangular solves.

use faer::MatRef;

use crate::numeric::linalg::{mat_vec, Cholesky};

#[derive(Debug, Clone)]
pub struct GaussianPosterior {
    pub mean: Vec<f64>,
    pub precision: Cholesky,
    /// ln p(y | X) under the approximation, when the method defines one.
    pub log_evidence: Option<f64>,
}

/// The distribution of the activation a = w^T x under q, for every row: a ~ N(mean_n, var_n)
/// with mean_n = m^T x_n and var_n = x_n^T H^{-1} x_n (docs/maths.md 1.4).
#[derive(Debug, Clone, PartialEq)]
pub struct Activations {
    pub mean: Vec<f64>,
    pub var: Vec<f64>,
}

impl GaussianPosterior {
    /// diag(H^{-1}): the marginal posterior variances.
    pub fn cov_diag(&self) -> Vec<f64> {
        self.precision.inverse_diag()
    }

    pub fn activations(&self, x: MatRef<'_, f64>) -> Activations {
        Activations {
            mean: mat_vec(x, &self.mean),
            var: self.precision.inverse_quad_forms(x),
        }
    }
}
