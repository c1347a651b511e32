//! The log density of each [`Dist`], by change of variables where one is a transform of a
//! standard law.

use statrs::distribution::{Beta, ChiSquared, Continuous, StudentsT};

use super::{ln_dsigma_dgini, normal, sigma_of_gini, Dist};
use crate::lab::{beta_large, beta_lopsided, gamma};
use bayeslab_core::numeric::special::log_sum_exp;

impl Dist {
    pub fn ln_pdf(&self, x: f64) -> f64 {
        let (lo, hi) = self.support();
        if !(x > lo && x < hi) && (lo.is_finite() || hi.is_finite()) {
            return f64::NEG_INFINITY;
        }
        match self {
            Dist::Normal { mean, sd } => normal(*mean, *sd).ln_pdf(x),
            Dist::StudentT { loc, scale, df } => StudentsT::new(*loc, *scale, *df)
                .expect("validated: scale, df > 0")
                .ln_pdf(x),
            Dist::Gamma { shape, rate } => gamma::ln_pdf(*shape, *rate, x),
            Dist::Beta { a, b } if beta_large::applies(*a, *b) => beta_large::ln_pdf(*a, *b, x),
            Dist::Beta { a, b } if beta_lopsided::applies(*a, *b) => {
                beta_lopsided::ln_pdf(*a, *b, x)
            }
            Dist::Beta { a, b } => Beta::new(*a, *b).expect("validated: a, b > 0").ln_pdf(x),
            // Change of variables: p(x) = N(ln x) / x.
            Dist::LogNormal { mu, sigma } => normal(*mu, *sigma).ln_pdf(x.ln()) - x.ln(),
            // p(x) = N(logit x) / (x (1 - x)).
            Dist::LogitNormal { mu, sigma } => {
                let z = x.ln() - (-x).ln_1p();
                normal(*mu, *sigma).ln_pdf(z) - x.ln() - (-x).ln_1p()
            }
            Dist::Mixture(cs) => {
                let terms: Vec<f64> = cs
                    .iter()
                    .map(|c| c.weight.ln() + normal(c.mean, c.sd).ln_pdf(x))
                    .collect();
                log_sum_exp(&terms)
            }
            // z = log σ² = 2 log σ, dz/dσ = 2/σ.
            Dist::GiniNormal { mu, sd } => {
                let sigma = sigma_of_gini(x);
                normal(*mu, *sd).ln_pdf(2.0 * sigma.ln())
                    + (2.0 / sigma).ln()
                    + ln_dsigma_dgini(sigma)
            }
            // X = nu s2 / σ², |dX/dσ| = 2 nu s2 / σ³.
            Dist::GiniExact { nu, s2 } => {
                let sigma = sigma_of_gini(x);
                let chi = ChiSquared::new(*nu).expect("validated: nu > 0");
                chi.ln_pdf(nu * s2 / (sigma * sigma))
                    + (2.0 * nu * s2 / sigma.powi(3)).ln()
                    + ln_dsigma_dgini(sigma)
            }
            // X = nu s2 e^-eta, |dX/deta| = X.
            Dist::LogScaledInvChi2 { nu, s2 } => {
                let chi = ChiSquared::new(*nu).expect("validated: nu > 0");
                let big_x = nu * s2 * (-x).exp();
                chi.ln_pdf(big_x) + big_x.ln()
            }
            Dist::Cauchy(c) => c.ln_pdf(x),
            Dist::Mapped { base, map } => {
                let (t, ln_jacobian) = map.inverse(x);
                base.ln_pdf(t) + ln_jacobian
            }
        }
    }
}
