//! One-dimensional distributions of a scalar parameter: the exact posteriors and their
//! approximations, all on the original parameter scale. Each gives its log density
//! ([`density`]), CDF ([`cdf`]), quantiles ([`quantile`]) and support; means and sds come
//! from [`super::moments`].

mod cdf;
mod density;
mod quantile;
#[cfg(test)]
mod tests;

use statrs::distribution::{Continuous, ContinuousCDF, Normal};

use super::cauchy::CauchyPosterior;
pub use super::map::Map;
use bayeslab_core::numeric::special::norm_cdf;

/// A distribution of one scalar parameter.
#[derive(Debug, Clone)]
pub enum Dist {
    Normal {
        mean: f64,
        sd: f64,
    },
    StudentT {
        loc: f64,
        scale: f64,
        df: f64,
    },
    /// Gamma with rate parameterisation.
    Gamma {
        shape: f64,
        rate: f64,
    },
    Beta {
        a: f64,
        b: f64,
    },
    /// exp(Z) with Z ~ N(mu, sigma²).
    LogNormal {
        mu: f64,
        sigma: f64,
    },
    /// sigmoid(Z) with Z ~ N(mu, sigma²).
    LogitNormal {
        mu: f64,
        sigma: f64,
    },
    /// Σ w_k N(mean_k, sd_k²), weights summing to 1.
    Mixture(Vec<Component>),
    /// The Gini coefficient G = 2Φ(σ/√2) - 1 when log σ² ~ N(mu, sd²).
    GiniNormal {
        mu: f64,
        sd: f64,
    },
    /// The Gini coefficient when σ² ~ scaled-inv-χ²(nu, s2), i.e. nu s2 / σ² ~ χ²_nu.
    GiniExact {
        nu: f64,
        s2: f64,
    },
    /// log σ² when σ² ~ scaled-inv-χ²(nu, s2): the Gini posterior's working scale.
    LogScaledInvChi2 {
        nu: f64,
        s2: f64,
    },
    /// The exact Cauchy-location posterior, normalised by quadrature.
    Cauchy(Box<CauchyPosterior>),
    /// u = T(x) for x ~ base, T = log or logit: the same distribution on a working scale
    /// where densities with a singular or skewed edge at 0 or 1 are smooth. Mass of the base
    /// outside T's domain (a normal's θ < 0) has no density here but stays in the CDF, so
    /// that F(lo) + 1 - F(hi) is the base's mass outside [T⁻¹(lo), T⁻¹(hi)].
    Mapped {
        base: Box<Dist>,
        map: Map,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub struct Component {
    pub weight: f64,
    pub mean: f64,
    pub sd: f64,
}

fn normal(mean: f64, sd: f64) -> Normal {
    Normal::new(mean, sd).expect("validated: sd > 0")
}

/// G(σ) = 2Φ(σ/√2) - 1 and its inverse σ(G) = √2 Φ^{-1}((G + 1)/2).
fn gini_of_sigma(sigma: f64) -> f64 {
    2.0 * norm_cdf(sigma / std::f64::consts::SQRT_2) - 1.0
}

fn sigma_of_gini(g: f64) -> f64 {
    std::f64::consts::SQRT_2 * normal(0.0, 1.0).inverse_cdf(0.5 * (g + 1.0))
}

/// log dσ/dG = -log(√2 φ(σ/√2)), from dG/dσ = √2 φ(σ/√2).
fn ln_dsigma_dgini(sigma: f64) -> f64 {
    -(std::f64::consts::SQRT_2.ln() + normal(0.0, 1.0).ln_pdf(sigma / std::f64::consts::SQRT_2))
}

impl Dist {
    /// The closed interval outside which the density is zero.
    pub fn support(&self) -> (f64, f64) {
        match self {
            Dist::Gamma { .. } | Dist::LogNormal { .. } => (0.0, f64::INFINITY),
            Dist::Beta { .. }
            | Dist::LogitNormal { .. }
            | Dist::GiniNormal { .. }
            | Dist::GiniExact { .. } => (0.0, 1.0),
            _ => (f64::NEG_INFINITY, f64::INFINITY),
        }
    }

    /// Closed-form mean and sd where they exist in a simple form.
    pub fn closed_moments(&self) -> Option<(f64, f64)> {
        match self {
            Dist::Normal { mean, sd } => Some((*mean, *sd)),
            Dist::StudentT { loc, scale, df } if *df > 2.0 => {
                Some((*loc, scale * (df / (df - 2.0)).sqrt()))
            }
            Dist::Gamma { shape, rate } => Some((shape / rate, shape.sqrt() / rate)),
            Dist::Beta { a, b } => {
                let s = a + b;
                Some((a / s, (a * b / (s * s * (s + 1.0))).sqrt()))
            }
            Dist::LogNormal { mu, sigma } => {
                let v = sigma * sigma;
                Some((
                    (mu + 0.5 * v).exp(),
                    ((v.exp() - 1.0) * (2.0 * mu + v).exp()).sqrt(),
                ))
            }
            Dist::Mixture(cs) => {
                let mean: f64 = cs.iter().map(|c| c.weight * c.mean).sum();
                let second: f64 = cs
                    .iter()
                    .map(|c| c.weight * (c.sd * c.sd + c.mean * c.mean))
                    .sum();
                Some((mean, (second - mean * mean).max(0.0).sqrt()))
            }
            _ => None,
        }
    }
}
