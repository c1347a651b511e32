//! Incomes y_i ~ LogNormal(mu, sigma²) with p(mu, sigma²) ∝ 1/sigma², and the Gini
//! coefficient G = 2Φ(sigma/√2) - 1 (docs/maths.md 4). With x = log y, eta = log sigma²
//! (Jacobian sigma²), the log posterior is
//!   log p(mu, eta | y) = -n eta / 2 - Σ (x_i - mu)² / (2 e^eta) + c,
//! with mode (x̄, log(S/n)), S = Σ (x_i - x̄)², and observed information diag(n e^-eta, n/2)
//! there (the test). The normal approximation of (mu, eta) is simulated and pushed through G;
//! the exact posterior (sigma² | y ~ scaled-inv-χ²(n-1, s²), s² = S/(n-1)) is simulated the
//! same way. Both G distributions are also known in closed form ([`Dist::GiniNormal`],
//! [`Dist::GiniExact`]), which the distances and the Monte-Carlo check use.

use rand_distr::{ChiSquared, Distribution};

use super::dist::Dist;
use super::distance_scale::DistanceScale;
use super::family::{impossible, Built};
use super::mode::{find_mode, LogDensity, Mode};
use bayeslab_core::error::Result;
use bayeslab_core::numeric::rng::Stream;
use bayeslab_core::numeric::special::norm_cdf;
use bayeslab_core::record::{ApproxKind, GiniResult, GiniSummary};

pub struct LogNormalModel {
    pub x: Vec<f64>,
}

impl LogNormalModel {
    fn ss(&self, mu: f64) -> f64 {
        self.x.iter().map(|x| (x - mu).powi(2)).sum()
    }
}

impl LogDensity for LogNormalModel {
    fn dim(&self) -> usize {
        2
    }
    fn ln_density(&self, p: &[f64]) -> f64 {
        let n = self.x.len() as f64;
        -0.5 * n * p[1] - 0.5 * self.ss(p[0]) * (-p[1]).exp()
    }
    fn gradient(&self, p: &[f64]) -> Vec<f64> {
        let n = self.x.len() as f64;
        let inv = (-p[1]).exp();
        let d_mu: f64 = self.x.iter().map(|x| x - p[0]).sum::<f64>() * inv;
        vec![d_mu, -0.5 * n + 0.5 * self.ss(p[0]) * inv]
    }
}

pub fn gini(sigma: f64) -> f64 {
    2.0 * norm_cdf(sigma / std::f64::consts::SQRT_2) - 1.0
}

/// Mean, 2.5 % and 97.5 % empirical quantiles and the MCSE of the mean of `draws`.
pub fn summarise_draws(mut draws: Vec<f64>) -> GiniSummary {
    let s = draws.len() as f64;
    let mean = draws.iter().sum::<f64>() / s;
    let var = draws.iter().map(|g| (g - mean).powi(2)).sum::<f64>() / (s - 1.0);
    draws.sort_by(f64::total_cmp);
    GiniSummary {
        mean,
        q025: empirical_quantile(&draws, 0.025),
        q975: empirical_quantile(&draws, 0.975),
        mcse: (var / s).sqrt(),
    }
}

/// Linear interpolation between order statistics (type 7).
fn empirical_quantile(sorted: &[f64], p: f64) -> f64 {
    let h = p * (sorted.len() - 1) as f64;
    let i = h.floor() as usize;
    let j = (i + 1).min(sorted.len() - 1);
    sorted[i] + (h - i as f64) * (sorted[j] - sorted[i])
}

/// G under the exact posterior: sigma² = nu s² / X with X ~ χ²_nu.
pub fn exact_draws(nu: f64, s2: f64, draws: usize, rng: &mut Stream) -> Vec<f64> {
    let chi = ChiSquared::new(nu).expect("validated: n >= 2");
    (0..draws)
        .map(|_| gini((nu * s2 / chi.sample(rng)).sqrt()))
        .collect()
}

/// G under the normal approximation: (mu, eta) ~ N(mode, J^{-1}), sigma = e^{eta/2}.
pub fn approx_draws(mode: &Mode, draws: usize, rng: &mut Stream) -> Vec<f64> {
    (0..draws)
        .map(|_| gini((0.5 * mode.factor.sample_inverse(&mode.x, rng)[1]).exp()))
        .collect()
}

pub fn mode(x: &[f64], what: &str) -> Result<Mode> {
    let n = x.len() as f64;
    let mean = x.iter().sum::<f64>() / n;
    let var = x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
    if x.len() < 2 || var <= 0.0 {
        return Err(impossible(
            what,
            format!(
                "{} value(s) with no spread: the log-normal posterior needs at least two different incomes",
                x.len()
            ),
        ));
    }
    // A generic start, one sd off in mu and a factor e off in sigma².
    let start = vec![mean + var.sqrt(), var.ln() + 1.0];
    find_mode(&LogNormalModel { x: x.to_vec() }, start, what).map_err(Into::into)
}

pub fn build(
    incomes: &[f64],
    draws: usize,
    rngs: (&mut Stream, &mut Stream),
    what: &str,
) -> Result<Built> {
    let x: Vec<f64> = incomes.iter().map(|y| y.ln()).collect();
    let m = mode(&x, &format!("{what}, normal on (mu, log sigma^2)"))?;
    let n = x.len() as f64;
    let nu = n - 1.0;
    let xbar = x.iter().sum::<f64>() / n;
    let s2 = x.iter().map(|v| (v - xbar).powi(2)).sum::<f64>() / nu;
    let var = m.variances();
    let (eta, eta_sd) = (m.x[1], var[1].sqrt());
    let result = GiniResult {
        draws,
        approx: summarise_draws(approx_draws(&m, draws, rngs.0)),
        exact: summarise_draws(exact_draws(nu, s2, draws, rngs.1)),
    };
    Ok(Built {
        parameter: "gini",
        exact_form: format!(
            "G = 2 Phi(sigma/sqrt 2) - 1, sigma^2 ~ scaled-inv-chi^2({nu}, {s2:.5})"
        ),
        exact: Dist::GiniExact { nu, s2 },
        approximations: vec![(
            ApproxKind::Normal,
            format!(
                "(mu, log sigma^2) ~ N(({:.4}, {eta:.4}), diag({:.3e}, {:.3e}))",
                m.x[0], var[0], var[1]
            ),
            Dist::GiniNormal {
                mu: eta,
                sd: eta_sd,
            },
        )],
        distance_scale: Some(DistanceScale {
            name: "log sigma^2",
            exact: Dist::LogScaledInvChi2 { nu, s2 },
            approximations: vec![Dist::Normal {
                mean: eta,
                sd: eta_sd,
            }],
        }),
        gini: Some(result),
        modes: Vec::new(),
    })
}

#[cfg(test)]
#[path = "gini_tests.rs"]
mod tests;
