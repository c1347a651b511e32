//! The CDF of each [`Dist`]; a Gini coefficient's through the monotone map G -> σ.

use statrs::distribution::{Beta, ChiSquared, ContinuousCDF, StudentsT};

use super::{normal, sigma_of_gini, Dist};
use crate::lab::{beta_large, beta_lopsided, gamma};

impl Dist {
    pub fn cdf(&self, x: f64) -> f64 {
        let (lo, hi) = self.support();
        if x <= lo {
            return 0.0;
        }
        if x >= hi {
            return 1.0;
        }
        match self {
            Dist::Normal { mean, sd } => normal(*mean, *sd).cdf(x),
            Dist::StudentT { loc, scale, df } => {
                StudentsT::new(*loc, *scale, *df).expect("validated").cdf(x)
            }
            Dist::Gamma { shape, rate } => gamma::cdf(*shape, *rate, x),
            Dist::Beta { a, b } if beta_large::applies(*a, *b) => beta_large::cdf(*a, *b, x),
            Dist::Beta { a, b } if beta_lopsided::applies(*a, *b) => beta_lopsided::cdf(*a, *b, x),
            Dist::Beta { a, b } => Beta::new(*a, *b).expect("validated").cdf(x),
            Dist::LogNormal { mu, sigma } => normal(*mu, *sigma).cdf(x.ln()),
            Dist::LogitNormal { mu, sigma } => normal(*mu, *sigma).cdf(x.ln() - (-x).ln_1p()),
            Dist::Mixture(cs) => cs
                .iter()
                .map(|c| c.weight * normal(c.mean, c.sd).cdf(x))
                .sum(),
            Dist::GiniNormal { mu, sd } => normal(*mu, *sd).cdf(2.0 * sigma_of_gini(x).ln()),
            // G <= g  <=>  σ <= σ_g  <=>  X >= nu s2 / σ_g².
            Dist::GiniExact { nu, s2 } => {
                let sigma = sigma_of_gini(x);
                ChiSquared::new(*nu)
                    .expect("validated")
                    .sf(nu * s2 / (sigma * sigma))
            }
            Dist::LogScaledInvChi2 { nu, s2 } => ChiSquared::new(*nu)
                .expect("validated")
                .sf(nu * s2 * (-x).exp()),
            Dist::Cauchy(c) => c.cdf(x),
            Dist::Mapped { base, map } => base.cdf(map.inverse(x).0),
        }
    }
}
