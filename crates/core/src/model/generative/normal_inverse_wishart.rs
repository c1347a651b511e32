//! Gaussian class-conditionals with a Normal-inverse-Wishart prior (docs/maths.md section 3):
//! Sigma_c ~ IW(nu0, Psi0 = psi0 I), mu_c | Sigma_c ~ N(mu0 1, Sigma_c / kappa0). With n rows,
//! mean xbar and scatter S: kappa_n = kappa0 + n, nu_n = nu0 + n, mu_n = (kappa0 mu0 + n xbar)/kappa_n,
//! Psi_n = Psi0 + S + kappa0 n / kappa_n (xbar - mu0)(xbar - mu0)^T, and the predictive is a
//! multivariate t with nu_n - D + 1 degrees of freedom, location mu_n and scale
//! Psi_n (kappa_n + 1) / (kappa_n (nu_n - D + 1)) (Murphy 2007, "Conjugate Bayesian analysis
//! of the Gaussian distribution", eq. 258). With `shared_covariance` one Sigma serves every class:
//! nu_N = nu0 + N and Psi_N pools every class's S and mean term, while each class keeps its
//! own kappa_c and mu_c.

use faer::{Mat, MatRef};

use super::student::MultivariateT;
use super::{rows_by_class, ClassDensity};
use crate::error::NumericError;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Niw {
    pub mu0: f64,
    pub kappa0: f64,
    pub nu0: f64,
    pub psi0: f64,
}

/// Per-class sufficient statistics: count, mean, and the NIW update term S + kappa0 n/kappa_n d d^T.
struct ClassStats {
    n: f64,
    mean: Vec<f64>,
    scatter: Mat<f64>,
}

fn stats(x: MatRef<'_, f64>, rows: &[usize], prior: &Niw) -> ClassStats {
    let d = x.ncols();
    let n = rows.len() as f64;
    let xbar: Vec<f64> = (0..d)
        .map(|j| {
            if n > 0.0 {
                rows.iter().map(|&i| x[(i, j)]).sum::<f64>() / n
            } else {
                0.0
            }
        })
        .collect();
    let kappa_n = prior.kappa0 + n;
    let dev: Vec<f64> = xbar.iter().map(|m| m - prior.mu0).collect();
    let shrink = prior.kappa0 * n / kappa_n;
    let scatter = Mat::from_fn(d, d, |a, b| {
        rows.iter()
            .map(|&i| (x[(i, a)] - xbar[a]) * (x[(i, b)] - xbar[b]))
            .sum::<f64>()
            + shrink * dev[a] * dev[b]
    });
    let mean = xbar
        .iter()
        .map(|m| (prior.kappa0 * prior.mu0 + n * m) / kappa_n)
        .collect();
    ClassStats { n, mean, scatter }
}

pub struct GaussianClasses {
    classes: Vec<MultivariateT>,
}

pub fn fit(
    x: MatRef<'_, f64>,
    y: &[f64],
    k: usize,
    prior: Niw,
    shared: bool,
    run: &str,
) -> Result<GaussianClasses, NumericError> {
    let d = x.ncols();
    let per_class: Vec<ClassStats> = rows_by_class(y, k)
        .iter()
        .map(|rows| stats(x, rows, &prior))
        .collect();
    let psi = |extra: &dyn Fn(usize, usize) -> f64| {
        Mat::from_fn(d, d, |a, b| {
            extra(a, b) + if a == b { prior.psi0 } else { 0.0 }
        })
    };
    let pooled = shared.then(|| psi(&|a, b| per_class.iter().map(|c| c.scatter[(a, b)]).sum()));
    let total_n: f64 = per_class.iter().map(|c| c.n).sum();
    let classes = per_class
        .iter()
        .enumerate()
        .map(|(c, st)| {
            let kappa_n = prior.kappa0 + st.n;
            let (nu_n, psi_n) = match &pooled {
                Some(p) => (prior.nu0 + total_n, p.clone()),
                None => (prior.nu0 + st.n, psi(&|a, b| st.scatter[(a, b)])),
            };
            let dof = nu_n - d as f64 + 1.0;
            let factor = (kappa_n + 1.0) / (kappa_n * dof);
            let scale = Mat::from_fn(d, d, |a, b| psi_n[(a, b)] * factor);
            MultivariateT::new(
                dof,
                st.mean.clone(),
                scale.as_ref(),
                &format!("predictive scale matrix of class {c} in {run}"),
            )
            .map_err(|e| match e {
                // psi0 I + scatter is positive definite in exact arithmetic: a failure means
                // psi0 is lost beside the scatter of collinear or constant features.
                NumericError::NotPositiveDefinite { pivot, .. } => NumericError::NonFinite(format!(
                    "{run}: the predictive scale matrix of class {c} (psi0 I plus the class scatter) is not \
                     positive definite (Cholesky pivot {pivot} failed): psi0 = {:e} is too small beside collinear \
                     or constant features; raise psi0 (1 by default) or remove duplicated columns",
                    prior.psi0
                )),
                other => other,
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(GaussianClasses { classes })
}

impl ClassDensity for GaussianClasses {
    fn log_densities(&self, x: MatRef<'_, f64>) -> Vec<Vec<f64>> {
        let per_class: Vec<Vec<f64>> = self.classes.iter().map(|t| t.log_density(x)).collect();
        (0..x.nrows())
            .map(|n| per_class.iter().map(|c| c[n]).collect())
            .collect()
    }
}

#[cfg(test)]
#[path = "normal_inverse_wishart_tests.rs"]
mod tests;
