//! Poisson counts with a Gamma(alpha, beta) prior (rate parameterisation), docs/maths.md 4.
//! Exact: Gamma(a, b) with a = alpha + Σy, b = beta + n. The approximations come from the
//! general mode finder on
//! - theta:           log p = (a - 1) log theta - b theta            → N(theta~, J^{-1}), t_nu
//! - phi = log theta: log p = a phi - b e^phi (Jacobian e^phi)      → theta ~ LogNormal
//!
//! whose closed forms ((a-1)/b, (a-1)/b² and log(a/b), 1/a) are the tests.

use super::dist::{Dist, Map};
use super::family::{impossible, on_theta, unsupported, Built};
use super::mode::{find_mode, LogDensity, Mode};
use bayeslab_core::error::Result;
use bayeslab_core::record::ApproxKind;

/// log p(theta | y) + c on theta > 0.
pub struct Theta {
    pub a: f64,
    pub b: f64,
}

impl LogDensity for Theta {
    fn dim(&self) -> usize {
        1
    }
    fn ln_density(&self, x: &[f64]) -> f64 {
        if x[0] <= 0.0 {
            return f64::NEG_INFINITY;
        }
        (self.a - 1.0) * x[0].ln() - self.b * x[0]
    }
    fn gradient(&self, x: &[f64]) -> Vec<f64> {
        vec![(self.a - 1.0) / x[0] - self.b]
    }
}

/// log p(phi | y) + c with phi = log theta.
pub struct LogTheta {
    pub a: f64,
    pub b: f64,
}

impl LogDensity for LogTheta {
    fn dim(&self) -> usize {
        1
    }
    fn ln_density(&self, x: &[f64]) -> f64 {
        self.a * x[0] - self.b * x[0].exp()
    }
    fn gradient(&self, x: &[f64]) -> Vec<f64> {
        vec![self.a - self.b * x[0].exp()]
    }
}

/// The normal approximation on theta (mode and observed information).
pub fn theta_mode(a: f64, b: f64, what: &str) -> Result<Mode> {
    if a <= 1.0 {
        return Err(impossible(
            what,
            format!(
                "shape + sum(counts) = {a} <= 1, so the density of theta has its mode at theta = 0 and \
                 no normal approximation there; remove \"normal\" and \"t\" from approximations or use more data"
            ),
        ));
    }
    // Start one posterior sd above the mean: a generic point, not the answer.
    let start = a / b + a.sqrt() / b;
    find_mode(&Theta { a, b }, vec![start], what).map_err(Into::into)
}

pub fn log_theta_mode(a: f64, b: f64, what: &str) -> Result<Mode> {
    let start = (a / b + a.sqrt() / b).ln();
    find_mode(&LogTheta { a, b }, vec![start], what).map_err(Into::into)
}

pub fn build(
    counts: &[f64],
    shape: f64,
    rate: f64,
    t_df: f64,
    kinds: &[ApproxKind],
    what: &str,
) -> Result<Built> {
    let a = shape + counts.iter().sum::<f64>();
    let b = rate + counts.len() as f64;
    let mut approximations = Vec::new();
    for &k in kinds {
        match k {
            ApproxKind::Normal | ApproxKind::T => {
                let m = theta_mode(a, b, &format!("{what}, {} on theta", k.name()))?;
                approximations.push(on_theta(k, &m, t_df));
            }
            ApproxKind::LogNormal => {
                let m = log_theta_mode(a, b, &format!("{what}, normal on log theta"))?;
                let (mu, sigma) = (m.x[0], m.variances()[0].sqrt());
                approximations.push((
                    ApproxKind::LogNormal,
                    format!("log theta ~ N({mu:.4}, {sigma:.4}^2)"),
                    Dist::LogNormal { mu, sigma },
                ));
            }
            ApproxKind::LogitNormal | ApproxKind::Mixture => {
                return Err(unsupported(what, k, "gamma-poisson"))
            }
        }
    }
    Ok(Built::on_theta(
        format!("Gamma(shape = {a}, rate = {b})"),
        Dist::Gamma { shape: a, rate: b },
        approximations,
        Map::Log,
    ))
}

#[cfg(test)]
#[path = "gamma_poisson_tests.rs"]
mod tests;
