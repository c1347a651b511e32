//! How far a Gaussian approximation q(w) is from the exact posterior p(w | D), read off q used
//! as an importance-sampling proposal: the Pareto k-hat of Vehtari, Simpson, Gelman, Yao &
//! Gabry ("Pareto smoothed importance sampling", 2015/2024).
//!
//! Draw w_s ~ q, weight r_s = p~(w_s) / q(w_s) with p~ the unnormalised posterior, and fit a
//! generalised Pareto distribution to the largest M = min(S/5, 3 sqrt S) weights. Its shape k
//! says how heavy the weights' tail is: the importance sampling estimate has finite variance
//! for k < 1/2, PSIS is reliable for k < 0.7 and the approximation should not be trusted
//! beyond. For a Gaussian target N(0, s_p^2) and proposal N(0, s_q^2) with s_q < s_p the
//! weights' tail has k = 1 - s_q^2 / s_p^2 exactly (the tests use this).

use faer::{Mat, MatRef};
use rand::Rng;
use rand_distr::{Distribution, StandardNormal};
use rayon::prelude::*;

use super::Likelihood;
use crate::error::NumericError;
use crate::numeric::linalg::Cholesky;

/// Draws from the proposal for a run's k-hat by default (`[evaluation] khat_draws`). k-hat
/// from 4,000 draws varies by +-0.15 between seeds on Pima; 20,000 bring that to about +-0.05.
pub const KHAT_DRAWS: usize = 20_000;

/// The PSIS verdict on a k-hat from `draws` draws, by the thresholds of Vehtari et al. (2024,
/// section 3.2.4) that PSIS-LOO uses too ([`crate::numeric::psis::KClass`]): "good" up to
/// min(1 - 1/log10 S, 0.7), "more draws" up to 0.7, "BAD" up to 1, "VERY BAD" beyond.
pub fn khat_verdict(k: f64, draws: usize) -> &'static str {
    crate::numeric::psis::KClass::of(k, draws).label()
}

/// Each k-hat draw evaluates the log posterior on every training row: the default number of
/// draws keeps draws x rows x columns below this (about ten seconds on one core).
const DEFAULT_WORK: f64 = 1e10;

/// The default `[evaluation] khat_draws` for N training rows and D columns: [`KHAT_DRAWS`],
/// fewer on large data down to 1,000 (where k-hat still warns, +-0.15), and none (0) when even
/// 1,000 would cost more than the budget (N D above 10^7; set `khat_draws` to have it anyway).
pub fn default_draws(rows: usize, cols: usize) -> usize {
    let affordable = DEFAULT_WORK / (rows.max(1) * cols.max(1)) as f64;
    if affordable < 1000.0 {
        0
    } else {
        (affordable as usize).min(KHAT_DRAWS)
    }
}

/// k-hat above which the approximation should not be trusted (PSIS paper, section 3.2.4).
pub const KHAT_LIMIT: f64 = 0.7;

/// The shape k of a generalised Pareto distribution fitted to `exceedances` (positive, sorted
/// ascending): PSIS's fit ([`crate::numeric::psis::gpd_fit`]).
pub fn gpd_shape(exceedances: &[f64]) -> f64 {
    crate::numeric::psis::gpd_fit(exceedances).0
}

/// The Pareto k-hat of log importance ratios `log_ratios` (any additive constant). `None`
/// when the tail has no spread (every ratio in it equal: the proposal matches the target
/// wherever it put its draws, and there is no tail to fit).
pub fn khat(log_ratios: &[f64]) -> Option<f64> {
    let s = log_ratios.len();
    if s < 10 {
        return None;
    }
    let mut sorted: Vec<f64> = log_ratios.to_vec();
    sorted.sort_by(f64::total_cmp);
    let tail_len = ((0.2 * s as f64).min(3.0 * (s as f64).sqrt())).ceil() as usize;
    let tail_len = tail_len.clamp(5, s - 1);
    let cutoff = sorted[s - tail_len - 1];
    let max = sorted[s - 1];
    // Ratios scaled by the largest, so the exponentials cannot overflow.
    let exceed: Vec<f64> = sorted[s - tail_len..]
        .iter()
        .map(|&l| (l - max).exp() - (cutoff - max).exp())
        .collect();
    if !exceed.iter().all(|v| v.is_finite()) || exceed[tail_len - 1] <= 0.0 {
        return None;
    }
    // Ties at the cutoff give zero exceedances; the GPD is fitted to the positive ones.
    let positive: Vec<f64> = exceed.into_iter().filter(|&v| v > 0.0).collect();
    if positive.len() < 5 {
        return None;
    }
    Some(gpd_shape(&positive))
}

/// `draws` draws w_s = mean + L z_s from the Gaussian N(mean, L L^T = cov), as the columns of a
/// D x S matrix, with -ln q(w_s) up to a constant, |z_s|^2 / 2 (the constant, ln det L and
/// 2 pi, shifts every log ratio equally and does not change k-hat). Fails only when `cov` is
/// not positive definite.
pub fn gaussian_draws<R: Rng + ?Sized>(
    mean: &[f64],
    cov: MatRef<'_, f64>,
    draws: usize,
    rng: &mut R,
    what: &str,
) -> Result<(Mat<f64>, Vec<f64>), NumericError> {
    let d = mean.len();
    let factor = Cholesky::factor(cov, what)?;
    let l = factor.lower();
    let z = Mat::<f64>::from_fn(d, draws, |_, _| StandardNormal.sample(rng));
    let w = Mat::<f64>::from_fn(d, draws, |i, s| {
        mean[i] + (0..=i).map(|j| l[(i, j)] * z[(j, s)]).sum::<f64>()
    });
    let half_zz = (0..draws)
        .map(|s| 0.5 * (0..d).map(|i| z[(i, s)] * z[(i, s)]).sum::<f64>())
        .collect();
    Ok((w, half_zz))
}

/// k-hat from the log target at each draw and the draws' -ln q (both from [`gaussian_draws`]).
fn khat_of(log_target: &[f64], half_zz: &[f64], what: &str) -> Result<Option<f64>, NumericError> {
    if log_target.iter().any(|v| v.is_nan()) {
        return Err(NumericError::NonFinite(format!(
            "the log posterior at draws from the {what} is not a number"
        )));
    }
    let log_ratios: Vec<f64> = log_target.iter().zip(half_zz).map(|(t, h)| t + h).collect();
    Ok(khat(&log_ratios))
}

/// k-hat of the Gaussian N(mean, cov) as an importance-sampling proposal for the unnormalised
/// log density `log_target`, from `draws` draws. Fails only when `cov` is not positive definite.
pub fn gaussian_khat<R: Rng + ?Sized>(
    mean: &[f64],
    cov: MatRef<'_, f64>,
    log_target: &(dyn Fn(&[f64]) -> f64 + Sync),
    draws: usize,
    rng: &mut R,
    what: &str,
) -> Result<Option<f64>, NumericError> {
    let (w, half_zz) = gaussian_draws(mean, cov, draws, rng, what)?;
    let targets: Vec<f64> = (0..draws)
        .into_par_iter()
        .map(|s| {
            let ws: Vec<f64> = (0..w.nrows()).map(|i| w[(i, s)]).collect();
            log_target(&ws)
        })
        .collect();
    khat_of(&targets, &half_zz, what)
}

/// k-hat of the Gaussian N(mean, cov) as a proposal for the exact posterior of `likelihood`
/// under w ~ N(0, precision^{-1} I), from `draws` draws, on the training rows that `rows`
/// yields: in memory one chunk ([`super::streaming::InMemory`]), streamed the file's chunks in
/// one pass. Each chunk's log likelihood at every draw comes from [`likelihood::add_draw_nll`]
/// (blocks of draws in parallel, the same bits on any number of threads). Fails on a
/// covariance that is not positive definite (numeric) or a chunk that cannot be read.
#[allow(clippy::too_many_arguments)]
pub fn posterior_khat<R: Rng + ?Sized>(
    likelihood: Likelihood,
    draws: usize,
    rows: &dyn super::streaming::Chunks,
    precision: f64,
    mean: &[f64],
    cov: MatRef<'_, f64>,
    rng: &mut R,
    what: &str,
) -> crate::error::Result<Option<f64>> {
    let (w, half_zz) = gaussian_draws(mean, cov, draws, rng, what)?;
    let (nll, norm2) = draws_nll_and_norms(likelihood, rows, w)?;
    let targets: Vec<f64> = nll
        .iter()
        .zip(&norm2)
        .map(|(nll, norm2)| -(nll + 0.5 * precision * norm2))
        .collect();
    Ok(khat_of(&targets, &half_zz, what)?)
}

/// The negative log likelihood of the rows that `rows` yields at each draw (the columns of
/// `w`; for the probit model divided by its noise beta), chunk after chunk.
pub fn draws_nll(
    likelihood: Likelihood,
    rows: &dyn super::streaming::Chunks,
    w: MatRef<'_, f64>,
) -> crate::error::Result<Vec<f64>> {
    let mut nll = vec![0.0; w.ncols()];
    rows.each(&mut |x, y| {
        likelihood::add_draw_nll(likelihood, x, y, w, &mut nll);
        Ok(())
    })?;
    Ok(nll)
}

/// For draws w_s (the columns of `w`, consumed): the negative log likelihood of the rows at
/// each draw ([`draws_nll`]) and each draw's |w_s|^2 for the prior. The probit activations are
/// divided by its noise beta, as the in-memory objective's are: here the draws are, in place
/// after their norms are taken, instead of every chunk's rows.
pub fn draws_nll_and_norms(
    likelihood: Likelihood,
    rows: &dyn super::streaming::Chunks,
    mut w: Mat<f64>,
) -> crate::error::Result<(Vec<f64>, Vec<f64>)> {
    let norm2: Vec<f64> = (0..w.ncols())
        .map(|s| (0..w.nrows()).map(|i| w[(i, s)] * w[(i, s)]).sum())
        .collect();
    if let Likelihood::Probit { noise } = likelihood {
        if noise != 1.0 {
            w.as_mut()
                .col_iter_mut()
                .for_each(|c| c.iter_mut().for_each(|v| *v /= noise));
        }
    }
    Ok((draws_nll(likelihood, rows, w.as_ref())?, norm2))
}

pub mod evidence;
pub mod likelihood;

#[cfg(test)]
mod tests;
