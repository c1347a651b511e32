//! One-dimensional distributions of a scalar parameter: the exact posteriors and their
//! approximations, all on the original parameter scale. Each gives its log density, CDF,
//! quantiles and support; means and sds come from [`super::moments`].

use statrs::distribution::{Beta, ChiSquared, Continuous, ContinuousCDF, Gamma, Normal, StudentsT};

use super::cauchy::CauchyPosterior;
use super::gamma_large::{self, LARGE_SHAPE};
use super::{beta_large, beta_lopsided};
use crate::numeric::special::{log_sum_exp, norm_cdf, sigmoid, softplus};

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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Map {
    Log,
    Logit,
}

impl Map {
    pub fn name(self) -> &'static str {
        match self {
            Map::Log => "log theta",
            Map::Logit => "logit theta",
        }
    }

    /// x = T⁻¹(u) and log |dx/du|.
    fn inverse(self, u: f64) -> (f64, f64) {
        match self {
            Map::Log => (u.exp(), u),
            Map::Logit => (sigmoid(u), -(softplus(u) + softplus(-u))),
        }
    }

    fn forward(self, x: f64) -> f64 {
        match self {
            Map::Log => x.ln(),
            Map::Logit => x.ln() - (-x).ln_1p(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
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
            Dist::Gamma { shape, rate } if *shape >= LARGE_SHAPE => {
                gamma_large::ln_pdf(*shape, *rate, x)
            }
            Dist::Gamma { shape, rate } => Gamma::new(*shape, *rate)
                .expect("validated: shape, rate > 0")
                .ln_pdf(x),
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
            Dist::Gamma { shape, rate } if *shape >= LARGE_SHAPE => {
                gamma_large::cdf(*shape, *rate, x)
            }
            Dist::Gamma { shape, rate } => Gamma::new(*shape, *rate).expect("validated").cdf(x),
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
            Dist::Gamma { shape, rate } if *shape >= LARGE_SHAPE => {
                gamma_large::quantile(*shape, *rate, p)
            }
            Dist::Gamma { shape, rate } => self.polish(
                p,
                Gamma::new(*shape, *rate).expect("validated").inverse_cdf(p),
            ),
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

    /// Solve F(x) = p by bisection, starting from `guess`. The search runs on log x for a
    /// support (0, ∞) and on logit x for (0, 1), so that tails near an edge are resolved.
    fn polish(&self, p: f64, guess: f64) -> f64 {
        let (lo, hi) = self.support();
        let map = match (lo, hi) {
            (0.0, f64::INFINITY) => Some(Map::Log),
            (0.0, 1.0) => Some(Map::Logit),
            _ => None,
        };
        let to_x = |u: f64| map.map_or(u, |m| m.inverse(u).0);
        let g = if guess.is_finite() && guess > lo && guess < hi {
            map.map_or(guess, |m| m.forward(guess))
        } else {
            map.map_or(0.0, |m| m.forward(if hi == 1.0 { 0.5 } else { 1.0 }))
        };
        let (mut a, mut b) = (g, g);
        let mut width = 1e-6 * (1.0 + g.abs());
        while self.cdf(to_x(a)) > p && width < 1e6 {
            a -= width;
            width *= 2.0;
        }
        width = 1e-6 * (1.0 + g.abs());
        while self.cdf(to_x(b)) < p && width < 1e6 {
            b += width;
            width *= 2.0;
        }
        for _ in 0..300 {
            let mid = 0.5 * (a + b);
            if b - a <= 1e-14 * (1.0 + mid.abs()) {
                break;
            }
            if self.cdf(to_x(mid)) < p {
                a = mid;
            } else {
                b = mid;
            }
        }
        to_x(0.5 * (a + b))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_invert_the_cdf_far_into_the_tails() {
        for d in [
            Dist::Gamma {
                shape: 0.5,
                rate: 4.0,
            },
            Dist::Gamma {
                shape: 685.0,
                rate: 73.0,
            },
            Dist::Beta { a: 0.5, b: 5.5 },
            Dist::Beta { a: 7.0, b: 4.0 },
            Dist::StudentT {
                loc: 1.0,
                scale: 2.0,
                df: 4.0,
            },
            Dist::GiniExact { nu: 4.0, s2: 0.06 },
            Dist::LogScaledInvChi2 { nu: 4.0, s2: 0.06 },
            Dist::Mixture(vec![
                Component {
                    weight: 0.3,
                    mean: -2.0,
                    sd: 0.5,
                },
                Component {
                    weight: 0.7,
                    mean: 3.0,
                    sd: 1.0,
                },
            ]),
        ] {
            for p in [1e-10, 1e-6, 0.025, 0.5, 0.975, 1.0 - 1e-10] {
                // G within 1e-16 of 1 is not representable: no upper tail quantile there.
                if matches!(d, Dist::GiniExact { .. }) && p > 0.99 {
                    continue;
                }
                let q = d.quantile(p);
                let tail = p.min(1.0 - p);
                assert!(
                    (d.cdf(q) - p).abs() <= 1e-6 * tail + 1e-15,
                    "{d:?} at {p}: F(q) = {}",
                    d.cdf(q)
                );
            }
        }
    }

    #[test]
    fn mapped_densities_integrate_to_the_base_mass_inside_the_domain() {
        use super::super::integrate::refine;
        let base = Dist::Normal { mean: 0.5, sd: 0.5 };
        let m = Dist::Mapped {
            base: Box::new(base.clone()),
            map: Map::Log,
        };
        let ([mass], _) = refine(-40.0, 5.0, 1e-10, &|u| [m.ln_pdf(u).exp()]);
        assert!((mass - (1.0 - base.cdf(0.0))).abs() < 1e-8);
    }
}
