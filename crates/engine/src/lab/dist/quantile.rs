//! Quantiles of each [`Dist`]: exact inversion for the normal-based families, otherwise a
//! start polished by bisection on the CDF ([`crate::lab::bisection`]).

use statrs::distribution::{ChiSquared, ContinuousCDF, StudentsT};

use super::{gini_of_sigma, normal, Dist};
use crate::lab::bisection;
use crate::lab::{beta_large, beta_lopsided, gamma};
use bayeslab_core::numeric::special::sigmoid;

impl Dist {
    /// The p-quantile, 0 < p < 1. Normal-based families invert exactly; the others start
    /// from statrs' inverse CDF, which can be far off in the tails (Gamma(0.5, 4) at 1e-10
    /// returns a point with CDF 7e-5), and are polished by bisection on the CDF. A Gamma of
    /// shape >= [`LARGE_SHAPE`] has its own quantile ([`gamma_large`]), as has a Beta with
    /// both shapes large ([`beta_large`]) or one far larger ([`beta_lopsided`]).
    pub fn quantile(&self, p: f64) -> f64 {
        let z = |mu: f64, sd: f64| normal(mu, sd).inverse_cdf(p);
        match self {
            Dist::Normal { mean, sd } => z(*mean, *sd),
            Dist::LogNormal { mu, sigma } => z(*mu, *sigma).exp(),
            Dist::LogitNormal { mu, sigma } => sigmoid(z(*mu, *sigma)),
            Dist::GiniNormal { mu, sd } => gini_of_sigma((0.5 * z(*mu, *sd)).exp()),
            Dist::Mapped { base, map } => map.forward(base.quantile(p)),
            Dist::StudentT { loc, scale, df } => self.polish(
                p,
                StudentsT::new(*loc, *scale, *df)
                    .expect("validated")
                    .inverse_cdf(p),
            ),
            Dist::Gamma { shape, rate } => gamma::quantile(*shape, *rate, p),
            Dist::Beta { a, b } if beta_large::applies(*a, *b) => beta_large::quantile(*a, *b, p),
            Dist::Beta { a, b } if beta_lopsided::applies(*a, *b) => {
                beta_lopsided::quantile(*a, *b, p)
            }
            Dist::Beta { a, b } => self.polish(p, beta_lopsided::start(*a, *b, p)),
            Dist::GiniExact { nu, s2 } => {
                let x = ChiSquared::new(*nu)
                    .expect("validated")
                    .inverse_cdf(1.0 - p);
                self.polish(p, gini_of_sigma((nu * s2 / x).sqrt()))
            }
            Dist::LogScaledInvChi2 { nu, s2 } => {
                let x = ChiSquared::new(*nu)
                    .expect("validated")
                    .inverse_cdf(1.0 - p);
                self.polish(p, (nu * s2 / x).ln())
            }
            Dist::Mixture(_) | Dist::Cauchy(_) => self.polish(p, 0.0),
        }
    }

    /// Solve F(x) = p by bisection, starting from `guess` ([`bisection::polish`]).
    fn polish(&self, p: f64, guess: f64) -> f64 {
        bisection::polish(|x| self.cdf(x), self.support(), p, guess)
    }
}
