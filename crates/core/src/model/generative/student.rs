//! Student-t log densities: the posterior predictives of Gaussian data under conjugate priors.

use faer::MatRef;
use libm::lgamma;

use crate::error::NumericError;
use crate::numeric::linalg::Cholesky;

/// ln t_nu(x | loc, scale2) for a univariate t with nu degrees of freedom and squared scale
/// scale2: lnG((nu+1)/2) - lnG(nu/2) - ln(nu pi scale2)/2 - (nu+1)/2 ln(1 + (x-loc)^2/(nu scale2)).
pub fn log_t(x: f64, nu: f64, loc: f64, scale2: f64) -> f64 {
    let r = (x - loc).powi(2) / (nu * scale2);
    lgamma(0.5 * (nu + 1.0))
        - lgamma(0.5 * nu)
        - 0.5 * (nu * std::f64::consts::PI * scale2).ln()
        - 0.5 * (nu + 1.0) * r.ln_1p()
}

/// A multivariate t with nu degrees of freedom, location `loc` and scale matrix S (factored).
pub struct MultivariateT {
    nu: f64,
    loc: Vec<f64>,
    scale: Cholesky,
}

impl MultivariateT {
    pub fn new(
        nu: f64,
        loc: Vec<f64>,
        scale: MatRef<'_, f64>,
        what: &str,
    ) -> Result<Self, NumericError> {
        Ok(MultivariateT {
            nu,
            loc,
            scale: Cholesky::factor(scale, what)?,
        })
    }

    /// ln t for every row of `x`: lnG((nu+D)/2) - lnG(nu/2) - (D/2) ln(nu pi) - (1/2) ln det S
    /// - (nu+D)/2 ln(1 + delta^2/nu), delta^2 = (x-loc)^T S^{-1} (x-loc) by triangular solves.
    pub fn log_density(&self, x: MatRef<'_, f64>) -> Vec<f64> {
        let d = self.loc.len() as f64;
        let centred =
            faer::Mat::<f64>::from_fn(x.nrows(), x.ncols(), |i, j| x[(i, j)] - self.loc[j]);
        let c = lgamma(0.5 * (self.nu + d))
            - lgamma(0.5 * self.nu)
            - 0.5 * d * (self.nu * std::f64::consts::PI).ln()
            - 0.5 * self.scale.log_det();
        self.scale
            .inverse_quad_forms(centred.as_ref())
            .iter()
            .map(|q| c - 0.5 * (self.nu + d) * (q / self.nu).ln_1p())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn univariate_t_integrates_to_one_and_matches_a_known_value() {
        // t_1 is the Cauchy: density at 0 with unit scale is 1/pi.
        assert!((log_t(0.0, 1.0, 0.0, 1.0) - (1.0 / std::f64::consts::PI).ln()).abs() < 1e-14);
        let h = 1e-3;
        let total: f64 = (0..200_000)
            .map(|i| log_t(-100.0 + (i as f64 + 0.5) * h, 5.0, 0.3, 2.0).exp() * h)
            .sum();
        assert!((total - 1.0).abs() < 1e-6, "{total}");
    }

    #[test]
    fn multivariate_t_with_diagonal_scale_in_one_dimension_is_univariate() {
        let s = faer::Mat::<f64>::from_fn(1, 1, |_, _| 2.5);
        let t = MultivariateT::new(4.0, vec![0.7], s.as_ref(), "scale").unwrap();
        let x = faer::Mat::<f64>::from_fn(3, 1, |i, _| i as f64 - 1.0);
        for (i, v) in t.log_density(x.as_ref()).iter().enumerate() {
            assert!((v - log_t(i as f64 - 1.0, 4.0, 0.7, 2.5)).abs() < 1e-13);
        }
    }
}
