//! What EP's state implies as a whole: the Gaussian (mu, Sigma) the sites define, and the EP
//! approximation of the log evidence (docs/maths.md section 2). Both are the same for every
//! site likelihood; only the tilted normaliser ln Z_i comes from the row's [`super::Site`].

use faer::Mat;

use super::{cov_times, Ep};
use crate::error::NumericError;
use crate::numeric::linalg::{dot, Cholesky};

impl Ep {
    /// The precision I / tau^2 + sum_i b_i phi_i phi_i^T (lower triangle filled) and
    /// h = sum_i y_i a_i phi_i, so that Sigma = precision^{-1} and mu = Sigma h.
    pub(super) fn site_sums(&self) -> (Mat<f64>, Vec<f64>) {
        let d = self.mu.len();
        let mut precision =
            Mat::<f64>::from_fn(d, d, |j, k| if j == k { 1.0 / self.prior_var } else { 0.0 });
        let mut h = vec![0.0; d];
        for ((phi, &yi), (&ai, &bi)) in self
            .rows
            .iter()
            .zip(&self.y)
            .zip(self.a.iter().zip(&self.b))
        {
            for j in 0..d {
                h[j] += yi * ai * phi[j];
                for k in 0..=j {
                    precision[(j, k)] += bi * phi[j] * phi[k];
                }
            }
        }
        (precision, h)
    }

    /// The Cholesky factor of the posterior precision the sites define: what the logistic
    /// kind's Gaussian predictor keeps.
    pub fn precision_factor(&self) -> Result<Cholesky, NumericError> {
        let (precision, _) = self.site_sums();
        Cholesky::factor(precision.as_ref(), "EP posterior precision")
    }

    /// ln Z_EP = ln int N(w; 0, tau^2 I) prod_i exp(a_i t_i - b_i t_i^2 / 2) dw
    /// plus sum_i ln [Z_i / int N(t; m_i, v_i) exp(a_i t - b_i t^2 / 2) dt],
    /// with Z_i the tilted normaliser of site i at its cavity (m_i, v_i). The first term is
    /// mu^T h / 2 + (ln det Sigma - D ln tau^2) / 2 with h = sum_i y_i a_i phi_i; the Gaussian
    /// integral is (1 + b v)^{-1/2} exp((2 a m + a^2 v - b m^2) / (2 (1 + b v))).
    pub(super) fn compute_log_evidence(&self) -> Result<f64, NumericError> {
        let (n, d) = (self.rows.len(), self.mu.len());
        let chol = Cholesky::factor(self.covariance().as_ref(), "EP posterior covariance")?;
        let mut h = vec![0.0; d];
        let mut sites = 0.0;
        for i in 0..n {
            let phi = &self.rows[i];
            let (ai, bi, yi) = (self.a[i], self.b[i], self.y[i]);
            for (h, p) in h.iter_mut().zip(phi) {
                *h += yi * ai * p;
            }
            let e = dot(phi, &cov_times(&self.cov, phi));
            let f = dot(phi, &self.mu);
            let c = 1.0 - bi * e;
            let m = (yi * f - ai * e) / c;
            let v = e / c;
            let bv = 1.0 + bi * v;
            sites += self.site.log_normaliser(m, v) + 0.5 * bv.ln()
                - 0.5 * (2.0 * ai * m + ai * ai * v - bi * m * m) / bv;
        }
        Ok(0.5 * dot(&self.mu, &h)
            + 0.5 * (chol.log_det() - d as f64 * self.prior_var.ln())
            + sites)
    }
}
