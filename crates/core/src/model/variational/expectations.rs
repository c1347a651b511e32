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

/// Activation variance below which the curvature is taken as E[g''] itself (where it equals
/// 2 dE[g]/dvar to rounding, and the quotient below would lose digits).
const TINY_VAR: f64 = 1e-10;

/// (E[g], E[g'], 2 dE[g]/dvar) for a ~ N(mean, var), g = -l, all under the same n-node
/// Gauss-Hermite rule E[f] ~ (1/sqrt(pi)) sum_i w_i f(mean + sqrt(2 var) x_i).
///
/// For the exact integrals 2 dE[g]/dvar = E[g''] (Price's theorem), and that is how
/// docs/maths.md §6.2 writes the fixed point. The rule's own derivative,
/// 2 dE[g]/dvar = (1/sqrt(pi)) sum_i w_i g'(a_i) sqrt(2 / var) x_i, differs from the rule's
/// E[g''] by the quadrature error, which grows with the variance (1e-3 and more on digits 1 vs 8,
/// whose activations are wide); with E[g''] the fixed point is not the stationary point of the
/// ELBO actually computed, the step stops being an ascent direction, and the guard stalls with
/// the gradient at 0.03. With the rule's derivative the fixed point is exactly stationary.
pub fn row_expectations(
    gh: &GaussHermite,
    terms: RowTerms,
    mean: f64,
    var: f64,
    y: f64,
) -> (f64, f64, f64) {
    let var = var.max(0.0);
    let scale = (2.0 * var).sqrt();
    let (mut g, mut g1, mut g2, mut slope_x) = (0.0, 0.0, 0.0, 0.0);
    for (x, w) in gh.nodes().iter().zip(gh.weights()) {
        let (l, l1, l2) = terms(mean + scale * x, y);
        g -= w * l;
        g1 -= w * l1;
        g2 -= w * l2;
        slope_x -= w * l1 * x;
    }
    let norm = std::f64::consts::PI.sqrt();
    let curvature = match var > TINY_VAR {
        true => slope_x * (2.0 / var).sqrt(),
        false => g2,
    };
    (g / norm, g1 / norm, curvature / norm)
}

/// The ELBO at one q, and (when asked) what the fixed point needs from it.
pub struct Elbo {
    pub value: f64,
    /// The factor of q's precision P.
    pub factor: Cholesky,
    /// dELBO/dm = sum_n E[g_n'] x_n - lambda m.
    pub grad_m: Vec<f64>,
    /// lambda I - sum_n c_n x_n x_n^T with c_n = 2 dE[g_n]/dvar_n (= E[g_n''] for exact
    /// integrals): the precision the stationarity condition in S asks for, since
    /// dELBO/dS = (P - target) / 2; it also stands in for minus the ELBO's Hessian in m.
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

    /// Every row's [`row_expectations`] under N(m, P^{-1}).
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
