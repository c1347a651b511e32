//! The evidence lower bound of a Gaussian q(w) = N(m, S) for a binary GLM (docs/maths.md §6.2):
//! ELBO(m, S) = sum_n E_q[g_n(a_n)] - KL(q || N(0, lambda^{-1} I)), g_n = -l(., y_n) a row's
//! log-likelihood. Under q the activation a_n = x_n^T w is N(x_n^T m, x_n^T S x_n), so each
//! expectation is a 1-D Gaussian integral, taken by Gauss-Hermite quadrature (the nodes of the
//! `exact` predictive), and the ELBO, its gradient and its curvature are deterministic.
//! q is held by its precision P = S^{-1}: the fixed point and the Jaakkola-Jordan bound both
//! produce precisions, and one Cholesky factor of P gives every quantity of S by solves.

use faer::{Mat, MatRef};

use crate::error::NumericError;
use crate::numeric::linalg::{dot, mat_t_vec, mat_vec, weighted_gram, Cholesky};
use crate::numeric::quadrature::GaussHermite;

/// A row's negative log-likelihood l(a, y) and its first two derivatives in a
/// (`GlmLink::row_terms` of the logistic or probit link).
pub type RowTerms = fn(f64, f64) -> (f64, f64, f64);

/// Nodes of the Gauss-Hermite rule for the rows' expectations. The integrands are smooth and
/// the activation variances under a fitted q are small (far below 1 on the shipped datasets),
/// where 64 nodes are exact to rounding; the rule is fixed, so every ELBO of a run is the same
/// function of (m, S) and the guard's comparisons are exact.
pub const ELBO_NODES: usize = 64;

/// (E[g], E[g'], E[g'']) for a ~ N(mean, var), g = -l.
pub fn row_expectations(
    gh: &GaussHermite,
    terms: RowTerms,
    mean: f64,
    var: f64,
    y: f64,
) -> (f64, f64, f64) {
    let scale = (2.0 * var.max(0.0)).sqrt();
    let (mut g, mut g1, mut g2) = (0.0, 0.0, 0.0);
    for (x, w) in gh.nodes().iter().zip(gh.weights()) {
        let (l, l1, l2) = terms(mean + scale * x, y);
        g -= w * l;
        g1 -= w * l1;
        g2 -= w * l2;
    }
    let norm = std::f64::consts::PI.sqrt();
    (g / norm, g1 / norm, g2 / norm)
}

/// The ELBO at one q, and (when asked) what the fixed point needs from it.
pub struct Elbo {
    pub value: f64,
    /// The factor of q's precision P.
    pub factor: Cholesky,
    /// dELBO/dm = sum_n E[g_n'] x_n - lambda m.
    pub grad_m: Vec<f64>,
    /// lambda I - sum_n E[g_n''] x_n x_n^T: the precision the stationarity condition in S asks
    /// for, and minus the ELBO's Hessian in m. dELBO/dS = (P - target) / 2.
    pub target: Mat<f64>,
}

/// The data and prior an ELBO is a function of.
pub struct ElboProblem<'a> {
    pub x: MatRef<'a, f64>,
    /// Labels in {0, 1}.
    pub y: &'a [f64],
    pub precision: f64,
    pub terms: RowTerms,
    pub gh: GaussHermite,
}

impl ElboProblem<'_> {
    /// ELBO(m, P^{-1}) alone, with P's factor: what the guard's line search compares. `None`
    /// when P is not positive definite (a trial step the guard must shorten).
    pub fn value(&self, m: &[f64], p: MatRef<'_, f64>) -> Option<(f64, Cholesky)> {
        let factor = Cholesky::factor(p, "variational precision").ok()?;
        let (sum, _, _) = self.rows(m, &factor);
        let value = sum.iter().sum::<f64>() - self.kl(m, &factor);
        value.is_finite().then_some((value, factor))
    }

    /// The ELBO with its gradient in m and its stationary precision.
    pub fn evaluate(&self, m: &[f64], p: MatRef<'_, f64>) -> Result<Elbo, NumericError> {
        let factor = Cholesky::factor(p, "variational precision")?;
        let (g, g1, g2) = self.rows(m, &factor);
        let value = g.iter().sum::<f64>() - self.kl(m, &factor);
        let mut grad_m = mat_t_vec(self.x, &g1);
        for (gj, mj) in grad_m.iter_mut().zip(m) {
            *gj -= self.precision * mj;
        }
        let curvature: Vec<f64> = g2.iter().map(|v| (-v).max(0.0)).collect();
        let mut target = weighted_gram(self.x, &curvature);
        for j in 0..m.len() {
            target[(j, j)] += self.precision;
        }
        if !value.is_finite() {
            return Err(NumericError::NonFinite(
                "the ELBO became non-finite".to_string(),
            ));
        }
        Ok(Elbo {
            value,
            factor,
            grad_m,
            target,
        })
    }

    /// Every row's (E[g], E[g'], E[g'']) under N(m, P^{-1}).
    fn rows(&self, m: &[f64], factor: &Cholesky) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
        let mean = mat_vec(self.x, m);
        let var = factor.inverse_quad_forms(self.x);
        let mut out = (vec![], vec![], vec![]);
        for ((&mu, &v), &y) in mean.iter().zip(&var).zip(self.y) {
            let (g, g1, g2) = row_expectations(&self.gh, self.terms, mu, v, y);
            out.0.push(g);
            out.1.push(g1);
            out.2.push(g2);
        }
        out
    }

    /// KL(N(m, S) || N(0, lambda^{-1} I)) = (lambda tr S + lambda m^T m - D - D ln lambda
    /// - ln det S) / 2, with ln det S = -ln det P.
    fn kl(&self, m: &[f64], factor: &Cholesky) -> f64 {
        let lambda = self.precision;
        let d = m.len() as f64;
        let trace: f64 = factor.inverse_diag().iter().sum();
        0.5 * (lambda * trace + lambda * dot(m, m) - d - d * lambda.ln() + factor.log_det())
    }
}
