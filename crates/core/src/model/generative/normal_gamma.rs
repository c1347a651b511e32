//! Gaussian naive Bayes with a Normal-Gamma(mu0, kappa0, alpha0, beta0) prior per feature and
//! class (docs/maths.md section 3). With n rows, mean xbar and sum of squares SS:
//! kappa_n = kappa0 + n, mu_n = (kappa0 mu0 + n xbar) / kappa_n, alpha_n = alpha0 + n/2,
//! beta_n = beta0 + SS/2 + kappa0 n (xbar - mu0)^2 / (2 kappa_n); the predictive of a feature is
//! a t with 2 alpha_n degrees of freedom, location mu_n, scale^2 = beta_n (kappa_n + 1) / (alpha_n kappa_n).

use faer::MatRef;

use super::student::log_t;
use super::{rows_by_class, ClassDensity};

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NormalGamma {
    pub mu0: f64,
    pub kappa0: f64,
    pub alpha0: f64,
    pub beta0: f64,
}

/// The posterior predictive of one feature in one class: (degrees of freedom, location, scale^2).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FeaturePredictive {
    pub nu: f64,
    pub loc: f64,
    pub scale2: f64,
}

impl NormalGamma {
    pub fn predictive(&self, values: &[f64]) -> FeaturePredictive {
        let n = values.len() as f64;
        let xbar = if n > 0.0 {
            values.iter().sum::<f64>() / n
        } else {
            0.0
        };
        let ss: f64 = values.iter().map(|v| (v - xbar).powi(2)).sum();
        let kappa_n = self.kappa0 + n;
        let mu_n = (self.kappa0 * self.mu0 + n * xbar) / kappa_n;
        let alpha_n = self.alpha0 + 0.5 * n;
        let beta_n =
            self.beta0 + 0.5 * ss + self.kappa0 * n * (xbar - self.mu0).powi(2) / (2.0 * kappa_n);
        FeaturePredictive {
            nu: 2.0 * alpha_n,
            loc: mu_n,
            scale2: beta_n * (kappa_n + 1.0) / (alpha_n * kappa_n),
        }
    }
}

/// Per class, per feature predictives.
pub struct NaiveGaussian {
    classes: Vec<Vec<FeaturePredictive>>,
}

impl NaiveGaussian {
    pub fn fit(x: MatRef<'_, f64>, y: &[f64], k: usize, prior: NormalGamma) -> Self {
        let classes = rows_by_class(y, k)
            .iter()
            .map(|rows| {
                (0..x.ncols())
                    .map(|j| {
                        let v: Vec<f64> = rows.iter().map(|&i| x[(i, j)]).collect();
                        prior.predictive(&v)
                    })
                    .collect()
            })
            .collect();
        NaiveGaussian { classes }
    }
}

impl ClassDensity for NaiveGaussian {
    fn log_densities(&self, x: MatRef<'_, f64>) -> Vec<Vec<f64>> {
        (0..x.nrows())
            .map(|n| {
                self.classes
                    .iter()
                    .map(|feats| {
                        feats
                            .iter()
                            .enumerate()
                            .map(|(j, p)| log_t(x[(n, j)], p.nu, p.loc, p.scale2))
                            .sum()
                    })
                    .collect()
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn predictive_matches_the_closed_form_written_out_by_hand() {
        // Prior NG(mu0 = 1, kappa0 = 2, alpha0 = 3, beta0 = 4), data 0, 2, 4:
        // n = 3, xbar = 2, SS = 8; kappa_n = 5, mu_n = (2 + 6)/5 = 1.6, alpha_n = 4.5,
        // beta_n = 4 + 4 + 2*3*1/(2*5) = 8.6; nu = 9, scale^2 = 8.6 * 6 / (4.5 * 5) = 2.29333...
        let p = NormalGamma {
            mu0: 1.0,
            kappa0: 2.0,
            alpha0: 3.0,
            beta0: 4.0,
        }
        .predictive(&[0.0, 2.0, 4.0]);
        assert!((p.nu - 9.0).abs() < 1e-15);
        assert!((p.loc - 1.6).abs() < 1e-15);
        assert!((p.scale2 - 8.6 * 6.0 / 22.5).abs() < 1e-14);
        // The t density at x = 3 by hand: Gamma(5) / Gamma(4.5) / sqrt(9 pi s2) * (1 + 1.96/(9 s2))^-5
        let s2 = 8.6 * 6.0 / 22.5;
        // Gamma(5) = 4! = 24, Gamma(4.5) = (7/2)(5/2)(3/2)(1/2) sqrt(pi) = 6.5625 sqrt(pi)
        let gamma_ratio = 24.0 / (6.5625 * std::f64::consts::PI.sqrt());
        let want = gamma_ratio / (9.0 * std::f64::consts::PI * s2).sqrt()
            * (1.0 + 1.96 / (9.0 * s2)).powf(-5.0);
        let got = log_t(3.0, p.nu, p.loc, p.scale2).exp();
        assert!((got - want).abs() < 1e-12, "{got} vs {want}");
    }
}
