//! Binomial successes with a Beta(a0, b0) prior, docs/maths.md 4. Exact: Beta(a, b) with
//! a = a0 + s, b = b0 + (N - s). Approximations from the general mode finder on
//! - theta:                log p = (a-1) log theta + (b-1) log(1 - theta)   → N, t_nu
//! - phi = logit theta:    log p = a phi - (a + b) log(1 + e^phi)          → logit-normal
//!
//! (the Jacobian theta (1 - theta) turns a-1, b-1 into a, b). Closed forms: mode
//! (a-1)/(a+b-2), J = (a+b-2)^3 / ((a-1)(b-1)); logit mode log(a/b), J = a b / (a+b).

use super::dist::{Dist, Map};
use super::family::{impossible, on_theta, unsupported, Built};
use super::mode::{find_mode, LogDensity, Mode};
use bayeslab_core::error::Result;
use bayeslab_core::numeric::special::{sigmoid, softplus};
use bayeslab_core::record::ApproxKind;

pub struct Theta {
    pub a: f64,
    pub b: f64,
}

impl LogDensity for Theta {
    fn dim(&self) -> usize {
        1
    }
    fn ln_density(&self, x: &[f64]) -> f64 {
        let t = x[0];
        if t <= 0.0 || t >= 1.0 {
            return f64::NEG_INFINITY;
        }
        (self.a - 1.0) * t.ln() + (self.b - 1.0) * (-t).ln_1p()
    }
    fn gradient(&self, x: &[f64]) -> Vec<f64> {
        vec![(self.a - 1.0) / x[0] - (self.b - 1.0) / (1.0 - x[0])]
    }
}

pub struct LogitTheta {
    pub a: f64,
    pub b: f64,
}

impl LogDensity for LogitTheta {
    fn dim(&self) -> usize {
        1
    }
    fn ln_density(&self, x: &[f64]) -> f64 {
        self.a * x[0] - (self.a + self.b) * softplus(x[0])
    }
    fn gradient(&self, x: &[f64]) -> Vec<f64> {
        vec![self.a - (self.a + self.b) * sigmoid(x[0])]
    }
}

pub fn theta_mode(a: f64, b: f64, what: &str) -> Result<Mode> {
    if a <= 1.0 || b <= 1.0 {
        return Err(impossible(
            what,
            format!(
                "the Beta({a}, {b}) posterior has its mode on the boundary (a or b <= 1), so there is \
                 no normal approximation on theta; use \"logitnormal\" or more data"
            ),
        ));
    }
    find_mode(&Theta { a, b }, vec![0.5], what).map_err(Into::into)
}

pub fn logit_mode(a: f64, b: f64, what: &str) -> Result<Mode> {
    find_mode(&LogitTheta { a, b }, vec![0.0], what).map_err(Into::into)
}

pub fn build(
    successes: f64,
    trials: f64,
    a0: f64,
    b0: f64,
    t_df: f64,
    kinds: &[ApproxKind],
    what: &str,
) -> Result<Built> {
    let (a, b) = (a0 + successes, b0 + trials - successes);
    let mut approximations = Vec::new();
    for &k in kinds {
        match k {
            ApproxKind::Normal | ApproxKind::T => {
                let m = theta_mode(a, b, &format!("{what}, {} on theta", k.name()))?;
                approximations.push(on_theta(k, &m, t_df));
            }
            ApproxKind::LogitNormal => {
                let m = logit_mode(a, b, &format!("{what}, normal on logit theta"))?;
                let (mu, sigma) = (m.x[0], m.variances()[0].sqrt());
                approximations.push((
                    ApproxKind::LogitNormal,
                    format!("logit theta ~ N({mu:.4}, {sigma:.4}^2)"),
                    Dist::LogitNormal { mu, sigma },
                ));
            }
            ApproxKind::LogNormal | ApproxKind::Mixture => {
                return Err(unsupported(what, k, "beta-binomial"))
            }
        }
    }
    Ok(Built::on_theta(
        format!("Beta(a = {a}, b = {b})"),
        Dist::Beta { a, b },
        approximations,
        Map::Logit,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::moments::mean_sd;

    #[test]
    fn modes_and_informations_match_the_closed_forms() {
        let (a, b) = (7.0, 4.0);
        let m = theta_mode(a, b, "t").unwrap();
        assert!((m.x[0] - 6.0 / 9.0).abs() < 1e-9);
        let j = (a + b - 2.0_f64).powi(3) / ((a - 1.0) * (b - 1.0));
        assert!((m.information[(0, 0)] - j).abs() < 1e-6 * j);
        let m = logit_mode(a, b, "t").unwrap();
        assert!((m.x[0] - (a / b).ln()).abs() < 1e-9);
        assert!((m.information[(0, 0)] - a * b / (a + b)).abs() < 1e-6);
    }

    /// Issue 5: 6 of 9 successes, flat prior, exact mean 7/11 = 0.636. The normal on theta
    /// is centred at the mode 6/9 = 0.667, above the mean; the logit-normal's mean is pulled
    /// towards 1/2 from its median sigmoid(log(7/4)) = 7/11, so it lies below. The issue's
    /// stated direction holds.
    #[test]
    fn six_of_nine_logit_mean_below_and_theta_mean_above_the_exact_mean() {
        let kinds = [ApproxKind::Normal, ApproxKind::LogitNormal];
        let built = build(6.0, 9.0, 1.0, 1.0, 4.0, &kinds, "6/9").unwrap();
        let exact = mean_sd(&built.exact).0;
        assert!((exact - 7.0 / 11.0).abs() < 1e-12);
        let normal = mean_sd(&built.approximations[0].2).0;
        let logit = mean_sd(&built.approximations[1].2).0;
        assert!(normal > exact, "normal mean {normal} vs exact {exact}");
        assert!(logit < exact, "logit-normal mean {logit} vs exact {exact}");
        assert!((normal - 6.0 / 9.0).abs() < 1e-9);
    }
}
