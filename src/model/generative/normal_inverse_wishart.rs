//! Gaussian class-conditionals with a Normal-inverse-Wishart prior (MATH.md section 3):
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
mod tests {
    use super::*;
    use crate::model::generative::normal_gamma::NormalGamma;
    use crate::model::generative::student::log_t;

    #[test]
    fn one_dimension_agrees_with_the_normal_gamma_predictive() {
        // In D = 1, NIW(mu0, kappa0, nu0, psi0) is NG(mu0, kappa0, alpha0 = nu0/2, beta0 = psi0/2)
        // on the precision, so the two predictives must coincide.
        let v = [0.3, -1.2, 2.0, 0.8, 1.1];
        let x = Mat::<f64>::from_fn(5, 1, |i, _| v[i]);
        let y = [0.0; 5];
        let niw = Niw {
            mu0: 0.5,
            kappa0: 2.0,
            nu0: 3.0,
            psi0: 1.5,
        };
        let g = fit(x.as_ref(), &y, 1, niw, false, "t").unwrap();
        let ng = NormalGamma {
            mu0: 0.5,
            kappa0: 2.0,
            alpha0: 1.5,
            beta0: 0.75,
        }
        .predictive(&v);
        let t = Mat::<f64>::from_fn(3, 1, |i, _| i as f64 - 1.0);
        let got = g.log_densities(t.as_ref());
        for (i, row) in got.iter().enumerate() {
            let want = log_t(i as f64 - 1.0, ng.nu, ng.loc, ng.scale2);
            assert!((row[0] - want).abs() < 1e-12, "{} vs {want}", row[0]);
        }
    }

    #[test]
    fn shared_covariance_with_one_class_is_the_per_class_model() {
        // Pooling over a single class changes nothing: nu_N = nu0 + n and Psi_N = Psi_n.
        let x = Mat::<f64>::from_fn(6, 2, |i, j| ((i * 3 + j) as f64 * 0.7).sin());
        let y = [0.0; 6];
        let niw = Niw {
            mu0: 0.0,
            kappa0: 1.0,
            nu0: 4.0,
            psi0: 1.0,
        };
        let own = fit(x.as_ref(), &y, 1, niw, false, "t").unwrap();
        let shared = fit(x.as_ref(), &y, 1, niw, true, "t").unwrap();
        let (a, b) = (
            own.log_densities(x.as_ref()),
            shared.log_densities(x.as_ref()),
        );
        for (a, b) in a.iter().zip(&b) {
            assert!((a[0] - b[0]).abs() < 1e-13);
        }
    }

    #[test]
    fn shared_covariance_pools_the_scatter_of_every_class() {
        // Two classes with mu0 = 0 and kappa0 -> 0: Psi_N = Psi0 + S_0 + S_1, so moving one
        // class's points changes the other class's predictive only through the pooled scatter.
        let x = Mat::<f64>::from_fn(8, 1, |i, _| [0.0, 1.0, 2.0, 3.0, 10.0, 10.5, 11.0, 11.5][i]);
        let y = [0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0];
        let niw = Niw {
            mu0: 0.0,
            kappa0: 1e-9,
            nu0: 2.0,
            psi0: 1.0,
        };
        let shared = fit(x.as_ref(), &y, 2, niw, true, "t").unwrap();
        // S_0 = 5, S_1 = 1.25 => Psi_N = 7.25, nu_N = 10, dof = 10; class 0: kappa = 4 + 1e-9,
        // mean 1.5, scale^2 = 7.25 * (kappa + 1) / (kappa * 10).
        let kappa = 4.0 + 1e-9;
        let want = crate::model::generative::student::log_t(
            0.5,
            10.0,
            1.5,
            7.25 * (kappa + 1.0) / (kappa * 10.0),
        );
        let probe = Mat::<f64>::from_fn(1, 1, |_, _| 0.5);
        let got = shared.log_densities(probe.as_ref())[0][0];
        // the kappa0 mean terms left out above add about 1e-7 to Psi_N
        assert!((got - want).abs() < 1e-6, "{got} vs {want}");
    }
}
