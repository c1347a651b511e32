//! Leave-one-out cross-validation by Pareto-smoothed importance sampling (PSIS-LOO; Vehtari,
//! Gelman & Gabry 2017, "Practical Bayesian model evaluation using leave-one-out
//! cross-validation and WAIC", sections 2.1 and 3; docs/maths.md §11.2).
//!
//! From S posterior draws w_s and each training row's log likelihood ln p(y_i | w_s):
//! - the leave-one-out ratios r_is = 1 / p(y_i | w_s) are Pareto-smoothed ([`psis::smooth`]),
//! - elpd_i = ln sum_s w_is p(y_i | w_s) with the normalised smoothed weights w_is,
//! - elpd_loo = sum_i elpd_i, se = sqrt(N var(elpd_i)) (the sample variance, as R's `loo`),
//! - p_loo = lpd - elpd_loo with lpd = sum_i ln mean_s p(y_i | w_s).
//!
//! Draws from an approximation q(w) instead of the posterior carry each draw's ln p(y, w_s) -
//! ln q(w_s) ([`Draws::corrected`]); it is added to every row's ratio, so the estimate is the
//! exact model's (the approximate-posterior PSIS-LOO of Magnusson, Andersen, Jonasson &
//! Vehtari 2019, `loo::loo_approximate_posterior`), and lpd is weighted by the smoothed
//! ratios p(y, w_s) / q(w_s) of the whole posterior.

use crate::numeric::psis::{self, KClass};

/// The log-likelihood matrix of one run: S draws x N training rows, stored row after row
/// (`values[i * draws + s]` = ln p(y_i | w_s)). The layout ArviZ's `log_likelihood` group
/// takes after a transpose (`(chain=1, draw=S, obs=N)`).
#[derive(Debug, Clone, PartialEq)]
pub struct LogLik {
    pub draws: usize,
    pub rows: usize,
    pub values: Vec<f64>,
    /// ln p(y, w_s) - ln q(w_s) for each draw when the draws come from an approximation q (up
    /// to a constant); `None` for draws from the posterior itself.
    pub correction: Option<Vec<f64>>,
}

/// Where the draws came from: the posterior, or an approximation to correct for.
pub enum Draws {
    Posterior,
    Corrected(Vec<f64>),
}

impl LogLik {
    /// An empty matrix for `draws` draws and `rows` rows, filled by [`LogLik::row_mut`].
    pub fn zeros(draws: usize, rows: usize, source: Draws) -> Self {
        LogLik {
            draws,
            rows,
            values: vec![0.0; draws * rows],
            correction: match source {
                Draws::Posterior => None,
                Draws::Corrected(c) => Some(c),
            },
        }
    }

    /// ln p(y_i | w_s) for every draw s.
    pub fn row(&self, i: usize) -> &[f64] {
        &self.values[i * self.draws..(i + 1) * self.draws]
    }

    pub fn row_mut(&mut self, i: usize) -> &mut [f64] {
        &mut self.values[i * self.draws..(i + 1) * self.draws]
    }
}

/// One training row's leave-one-out estimate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pointwise {
    /// ln p(y_i | y_-i).
    pub elpd: f64,
    /// ln p(y_i | y) - elpd: the row's share of p_loo.
    pub p: f64,
    /// The Pareto k of its leave-one-out ratios.
    pub k: f64,
    /// The Monte-Carlo variance of `elpd` from the finite draws (delta method, independent
    /// draws; docs/maths.md §11.6).
    pub mc_var: f64,
}

/// PSIS-LOO of one run.
#[derive(Debug, Clone, PartialEq)]
pub struct Loo {
    pub draws: usize,
    pub pointwise: Vec<Pointwise>,
}

impl Loo {
    pub fn elpd(&self) -> f64 {
        self.pointwise.iter().map(|p| p.elpd).sum()
    }

    /// sqrt(N) times the sample standard deviation of the pointwise elpd.
    pub fn se(&self) -> f64 {
        let e: Vec<f64> = self.pointwise.iter().map(|p| p.elpd).collect();
        sum_se(&e)
    }

    pub fn p_loo(&self) -> f64 {
        self.pointwise.iter().map(|p| p.p).sum()
    }

    /// The Monte-Carlo standard error of elpd_loo: sqrt(sum_i var_i / r_eff), `r_eff` the
    /// draws' relative efficiency (1 for independent draws, ESS / S for a chain).
    pub fn mcse(&self, r_eff: f64) -> f64 {
        let var: f64 = self.pointwise.iter().map(|p| p.mc_var).sum();
        (var / r_eff.clamp(1e-6, 1.0)).sqrt()
    }

    /// How many rows fall in each [`KClass`], in [`KClass::ALL`] order.
    pub fn k_counts(&self) -> [usize; 4] {
        let mut counts = [0; 4];
        for p in &self.pointwise {
            counts[KClass::of(p.k, self.draws) as usize] += 1;
        }
        counts
    }

    /// The rows whose k is above 0.7 (or not fitted), ascending.
    pub fn bad_rows(&self) -> Vec<usize> {
        (0..self.pointwise.len())
            .filter(|&i| !(self.pointwise[i].k <= psis::BAD_K))
            .collect()
    }
}

/// The standard error of a sum of N terms e_i: sqrt(N) sd(e) with the sample (N - 1) variance.
pub fn sum_se(e: &[f64]) -> f64 {
    let n = e.len() as f64;
    if e.len() < 2 {
        return 0.0;
    }
    let mean = e.iter().sum::<f64>() / n;
    let var = e.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (n * var).sqrt()
}

/// The normalised log weights of the posterior over the draws: equal for draws from it, the
/// Pareto-smoothed p(y, w_s) / q(w_s) for draws from an approximation with `correction`.
pub fn posterior_log_weights(draws: usize, correction: Option<&[f64]>) -> Vec<f64> {
    match correction {
        None => vec![-(draws as f64).ln(); draws],
        Some(c) => psis::smooth(c).log_weights,
    }
}

/// ln sum_s w_s p(y | w_s): the posterior predictive density of a row from its log likelihood
/// at each draw and the draws' normalised log weights.
pub fn log_predictive(log_weights: &[f64], row: &[f64]) -> f64 {
    let terms: Vec<f64> = log_weights.iter().zip(row).map(|(w, l)| w + l).collect();
    psis::log_sum_exp(&terms)
}

/// The Monte-Carlo variance of [`log_predictive`] under independent draws, by the delta method:
/// var(ln E) ~ var(E) / E^2 with var(E) = sum_s w_s^2 (p_s - E)^2 for the self-normalised
/// estimate E = sum_s w_s p_s (w normalised, p_s = p(y | w_s)); computed relative to E so that
/// no p_s underflows.
pub fn log_predictive_mc_var(log_weights: &[f64], row: &[f64], log_e: f64) -> f64 {
    log_weights
        .iter()
        .zip(row)
        .map(|(w, l)| (2.0 * w).exp() * ((l - log_e).exp() - 1.0).powi(2))
        .sum()
}

/// PSIS-LOO of the log-likelihood matrix `ll`.
pub fn psis_loo(ll: &LogLik) -> Loo {
    let s = ll.draws;
    let full = posterior_log_weights(s, ll.correction.as_deref());
    let pointwise = (0..ll.rows)
        .map(|i| {
            let row = ll.row(i);
            let ratios: Vec<f64> = match &ll.correction {
                None => row.iter().map(|l| -l).collect(),
                Some(c) => row.iter().zip(c).map(|(l, c)| c - l).collect(),
            };
            let smoothed = psis::smooth(&ratios);
            let elpd = log_predictive(&smoothed.log_weights, row);
            let lpd = log_predictive(&full, row);
            Pointwise {
                elpd,
                p: lpd - elpd,
                k: smoothed.k,
                mc_var: log_predictive_mc_var(&smoothed.log_weights, row, elpd),
            }
        })
        .collect();
    Loo {
        draws: s,
        pointwise,
    }
}

/// The difference of two runs' elpd_loo over the same rows, b - a, and its standard error
/// paired over rows: sqrt(N) sd(elpd_b,i - elpd_a,i) (Vehtari, Gelman & Gabry 2017, eq. 24).
pub fn elpd_difference(a: &[f64], b: &[f64]) -> (f64, f64) {
    let d: Vec<f64> = a.iter().zip(b).map(|(a, b)| b - a).collect();
    (d.iter().sum(), sum_se(&d))
}

#[cfg(test)]
#[path = "loo_tests.rs"]
mod tests;
