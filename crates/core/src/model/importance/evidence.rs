//! The true evidence ln p(y | X) of a binary linear model under the prior w ~ N(0, λ⁻¹ I), by
//! importance sampling (docs/maths.md §6.4), against which the Laplace evidence, ln Z_EP, the
//! Jaakkola–Jordan bound and the ELBO are judged.
//!
//! The proposal is a multivariate Student-t with [`NU`] degrees of freedom centred at the best
//! Gaussian approximation N(m, Σ), with scale matrix [`INFLATION`] · Σ: w = m + L z √(ν / u),
//! L Lᵀ = c Σ, z ~ N(0, I), u ~ χ²_ν. Its tails are polynomial, so the weights
//! p(y | w) p(w) / q(w) stay bounded where the Gaussian posterior's tails are lighter than the
//! true posterior's (the logistic posterior's are; Geweke 1989, Econometrica 57, §3). With
//! S draws, ln p̂ = LSE_s(ℓ_s) − ln S for the log weights ℓ_s; its Monte-Carlo standard error
//! by the delta method is sd(r) / (√S · mean(r)) for r_s = e^{ℓ_s} (Owen, "Monte Carlo theory,
//! methods and examples", 2013, §9.2); the PSIS k̂ of the ℓ_s (Vehtari et al. 2024) says
//! whether that standard error can be believed (k̂ ≤ 0.7).
//!
//! Block b of [`BLOCK`] draws comes from its own substream of the caller's stream, and every
//! sum runs in a fixed order, so the estimate is the same bits on any number of threads.

use faer::{Mat, MatRef};
use libm::lgamma;
use rand::Rng;
use rand_distr::{ChiSquared, Distribution, StandardNormal};
use rayon::prelude::*;

use super::{draws_nll_and_norms, khat, Likelihood};
use crate::error::Result;
use crate::numeric::linalg::Cholesky;
use crate::numeric::rng;
use crate::numeric::special::log_sum_exp;

/// The proposal's degrees of freedom: heavy enough tails that the weights of a posterior a
/// little wider than its Gaussian approximation stay bounded. On Pima (λ = 1, 20,000 draws
/// around EP) ν = 3, 5 and 10 give standard errors 0.0055, 0.0045 and 0.0035: lighter tails
/// are cheaper where the Gaussian is already good, ν = 5 keeps a margin where it is not.
pub const NU: f64 = 5.0;

/// The proposal's scale is the Gaussian's covariance times this. A mean-field or KL-optimal
/// Gaussian is narrower than the posterior (KL(q || p) is zero-forcing) and Laplace ignores
/// its skew; a proposal narrower than the target in any direction has weights of infinite
/// variance in the Gaussian limit, a wider one only loses efficiency. On Pima the cost is
/// small: with ν = 5 the standard error is 0.0039, 0.0045, 0.0058 and 0.0084 for 1.0, 1.2,
/// 1.5 and 2.0 (logistic, EP proposal; the probit's with Laplace's are within 0.0002), so 1.2
/// buys the margin for 15 % more error.
pub const INFLATION: f64 = 1.2;

/// Draws per block: each block is drawn from its own substream, on whichever thread.
pub const BLOCK: usize = 1024;

/// Draws by default when the experiment has a gold run (`[evaluation] evidence_draws`).
pub const EVIDENCE_DRAWS: usize = 20_000;

/// The estimate of ln p(y | X) from `draws` weighted draws.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Evidence {
    pub log_evidence: f64,
    /// The delta-method Monte-Carlo standard error of `log_evidence`.
    pub mcse: f64,
    /// The PSIS k̂ of the weights; `None` when their tail has no spread to fit.
    pub khat: Option<f64>,
    pub draws: usize,
}

/// The model whose evidence is estimated: `likelihood` on the rows that `rows` yields, under
/// the prior w ~ N(0, `precision`⁻¹ I).
#[derive(Clone, Copy)]
pub struct Model<'a> {
    pub likelihood: Likelihood,
    pub rows: &'a dyn super::super::streaming::Chunks,
    pub precision: f64,
}

/// ln p(y | X) of `model` with the Student-t proposal built from N(`mean`, `cov`) and `draws`
/// draws seeded by `stream`. Fails when `cov` is not positive definite or a chunk cannot be
/// read.
pub fn log_evidence<R: Rng + ?Sized>(
    model: Model<'_>,
    draws: usize,
    mean: &[f64],
    cov: MatRef<'_, f64>,
    stream: &mut R,
    what: &str,
) -> Result<Evidence> {
    let Model {
        likelihood,
        rows,
        precision,
    } = model;
    let d = mean.len();
    let scaled = Mat::<f64>::from_fn(d, d, |i, j| INFLATION * cov[(i, j)]);
    let factor = Cholesky::factor(scaled.as_ref(), what)?;
    let l = factor.lower();
    let log_det_l: f64 = (0..d).map(|i| l[(i, i)].ln()).sum();
    let (w, log_q) = student_draws(mean, l, log_det_l, draws, stream.next_u64());
    let (nll, norm2) = draws_nll_and_norms(likelihood, rows, w)?;
    let log_prior_const = 0.5 * d as f64 * (precision / std::f64::consts::TAU).ln();
    let log_weights: Vec<f64> = (0..draws)
        .map(|s| -nll[s] + log_prior_const - 0.5 * precision * norm2[s] - log_q[s])
        .collect();
    Ok(estimate(&log_weights))
}

/// ln p̂, its delta-method standard error and k̂ from the log weights (in draw order).
pub fn estimate(log_weights: &[f64]) -> Evidence {
    let s = log_weights.len() as f64;
    let lse = log_sum_exp(log_weights);
    let top = log_weights
        .iter()
        .copied()
        .fold(f64::NEG_INFINITY, f64::max);
    // Weights scaled by the largest: the ratio sd / mean does not change, nothing overflows.
    let r: Vec<f64> = log_weights.iter().map(|l| (l - top).exp()).collect();
    let mean = r.iter().sum::<f64>() / s;
    let var = r.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / (s - 1.0);
    Evidence {
        log_evidence: lse - s.ln(),
        mcse: var.sqrt() / (s.sqrt() * mean),
        khat: khat(log_weights),
        draws: log_weights.len(),
    }
}

/// `draws` draws of the t_ν(mean, L Lᵀ) proposal as the columns of a D × S matrix, with the
/// proposal's normalised log density at each. Block b draws from `rng::substream(base, b)`.
fn student_draws(
    mean: &[f64],
    l: MatRef<'_, f64>,
    log_det_l: f64,
    draws: usize,
    base: u64,
) -> (Mat<f64>, Vec<f64>) {
    let d = mean.len();
    let df = d as f64;
    let log_norm = lgamma(0.5 * (NU + df))
        - lgamma(0.5 * NU)
        - 0.5 * df * (NU * std::f64::consts::PI).ln()
        - log_det_l;
    let blocks: Vec<(Vec<f64>, Vec<f64>)> = (0..draws.div_ceil(BLOCK))
        .into_par_iter()
        .map(|b| {
            let n = BLOCK.min(draws - b * BLOCK);
            let mut rng = rng::substream(base, b as u64);
            let chi = ChiSquared::new(NU).expect("ν is positive");
            let mut cols = Vec::with_capacity(n * d);
            let mut log_q = Vec::with_capacity(n);
            let mut z = vec![0.0; d];
            for _ in 0..n {
                z.iter_mut()
                    .for_each(|v| *v = StandardNormal.sample(&mut rng));
                let u: f64 = chi.sample(&mut rng);
                let t = (NU / u).sqrt();
                let zz: f64 = z.iter().map(|v| v * v).sum::<f64>() * t * t;
                log_q.push(log_norm - 0.5 * (NU + df) * (zz / NU).ln_1p());
                cols.extend(
                    (0..d).map(|i| mean[i] + t * (0..=i).map(|j| l[(i, j)] * z[j]).sum::<f64>()),
                );
            }
            (cols, log_q)
        })
        .collect();
    let mut w = Mat::<f64>::zeros(d, draws);
    let mut log_q = Vec::with_capacity(draws);
    let mut s = 0;
    for (cols, lq) in blocks {
        for (k, col) in cols.chunks(d.max(1)).enumerate() {
            (0..d).for_each(|i| w[(i, s + k)] = col[i]);
        }
        s += lq.len();
        log_q.extend(lq);
    }
    (w, log_q)
}

#[cfg(test)]
#[path = "evidence_tests.rs"]
mod tests;
