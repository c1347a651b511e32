//! A fitted binary linear model's posterior draws and the log likelihood of every training row
//! at each of them: the S x N matrix that PSIS-LOO ([`crate::metrics::loo`]) and an ArviZ
//! export (its `posterior` and `log_likelihood` groups) read.
//!
//! A sampler's draws are the posterior's own. A Gaussian approximation q(w) = N(m, C) is
//! sampled (w_s = m + L z_s, C = L L^T) and each draw carries ln p(y, w_s) - ln q(w_s) up to
//! one constant, ln p(y | w_s) - lambda |w_s|^2 / 2 + |z_s|^2 / 2, so that importance
//! sampling corrects the approximation to the exact model (docs/maths.md §11.3).

use faer::{Mat, MatRef};
use rand::Rng;

use super::fit::{Predictor, Probabilities};
use super::importance::gaussian_draws;
use super::Likelihood;
use super::PredictiveKind;
use crate::error::NumericError;
use crate::metrics::loo::{Draws, LogLik};
use crate::metrics::CLIP;
use crate::numeric::linalg::Cholesky;
use crate::numeric::special::{log_norm_cdf, log_sigmoid};

/// A run's draws of the weights, as the columns of a D x S matrix.
pub struct PosteriorDraws {
    pub w: Mat<f64>,
    /// Where they came from: the exact posterior, or an approximation with each draw's
    /// ln p(y, w_s) - ln q(w_s) (filled in by [`log_lik`]).
    pub exact: bool,
    /// |z_s|^2 / 2 = -ln q(w_s) up to a constant, for draws from a Gaussian.
    half_zz: Vec<f64>,
    /// That constant: ln q(w_s) = log_q_offset - |z_s|^2 / 2, with log_q_offset =
    /// -D/2 ln 2 pi - ln|L| for C = L L^T (0 for a sampler's draws).
    log_q_offset: f64,
}

impl PosteriorDraws {
    /// The sampler's kept draws, or `draws` draws from the run's Gaussian posterior (from
    /// `rng`); `None` for a run with neither. Fails only on a covariance that is not positive
    /// definite.
    pub fn of<R: Rng + ?Sized>(
        predictor: &dyn Predictor,
        draws: usize,
        rng: &mut R,
        what: &str,
    ) -> Result<Option<PosteriorDraws>, NumericError> {
        if let Some(w) = predictor.draws() {
            return Ok(Some(PosteriorDraws {
                w,
                exact: true,
                half_zz: Vec::new(),
                log_q_offset: 0.0,
            }));
        }
        let Some((mean, cov)) = predictor.gaussian() else {
            return Ok(None);
        };
        let (w, half_zz) = gaussian_draws(&mean, cov.as_ref(), draws, rng, what)?;
        let half_log_det = 0.5 * Cholesky::factor(cov.as_ref(), what)?.log_det();
        let log_q_offset =
            -0.5 * mean.len() as f64 * (2.0 * std::f64::consts::PI).ln() - half_log_det;
        Ok(Some(PosteriorDraws {
            w,
            exact: false,
            half_zz,
            log_q_offset,
        }))
    }

    pub fn count(&self) -> usize {
        self.w.ncols()
    }

    /// ln q(w_s) of each draw from a Gaussian approximation; `None` for a sampler's draws.
    pub fn log_q(&self) -> Option<Vec<f64>> {
        (!self.exact).then(|| self.half_zz.iter().map(|h| self.log_q_offset - h).collect())
    }

    /// ln p(y, w_s) of each draw: the summed log likelihood of the `log_lik` matrix's rows plus
    /// the log density of the prior N(0, precision^-1 I), left out when `precision = 0` (an
    /// improper prior has no density).
    pub fn log_joint(&self, log_lik: &LogLik, precision: f64) -> Vec<f64> {
        let (d, s) = (self.w.nrows() as f64, self.count());
        let constant = 0.5 * d * (precision / (2.0 * std::f64::consts::PI)).ln();
        let mut joint: Vec<f64> = (0..s)
            .map(|k| {
                if precision > 0.0 {
                    let norm2: f64 = self.w.col(k).iter().map(|v| v * v).sum();
                    constant - 0.5 * precision * norm2
                } else {
                    0.0
                }
            })
            .collect();
        for row in log_lik.values.chunks_exact(s) {
            joint.iter_mut().zip(row).for_each(|(j, l)| *j += l);
        }
        joint
    }
}

/// ln p(y | a) of one row with activation a = x^T w: ln sigma((2y - 1) a), or
/// ln Phi((2y - 1) a / beta) for the probit model.
pub fn row_log_lik(likelihood: Likelihood, a: f64, y: f64) -> f64 {
    let sign = 2.0 * y - 1.0;
    match likelihood {
        Likelihood::Logistic => log_sigmoid(sign * a),
        Likelihood::Probit { noise } => log_norm_cdf(sign * a / noise),
    }
}

/// The log likelihood of each row of `x` (labels `y`) at each draw (the columns of `w`), row
/// after row as [`LogLik`] stores it.
pub fn log_lik_values(
    likelihood: Likelihood,
    x: MatRef<'_, f64>,
    y: &[f64],
    w: MatRef<'_, f64>,
) -> Vec<f64> {
    // W^T X^T is S x N, stored column after column: row i's S activations are contiguous.
    let a: Mat<f64> = w.transpose() * x.transpose();
    let s = w.ncols();
    let mut values = Vec::with_capacity(s * y.len());
    for (i, &yi) in y.iter().enumerate() {
        values.extend(a.col(i).iter().map(|&ai| row_log_lik(likelihood, ai, yi)));
    }
    values
}

/// The S x N log-likelihood matrix of the training rows `x`, `y` at `draws`, with the
/// correction for an approximation under the prior N(0, precision^{-1} I).
pub fn log_lik(
    likelihood: Likelihood,
    x: MatRef<'_, f64>,
    y: &[f64],
    draws: &PosteriorDraws,
    precision: f64,
) -> LogLik {
    let s = draws.count();
    let values = log_lik_values(likelihood, x, y, draws.w.as_ref());
    let source = if draws.exact {
        Draws::Posterior
    } else {
        let mut c: Vec<f64> = (0..s)
            .map(|d| {
                let norm2: f64 = draws.w.col(d).iter().map(|v| v * v).sum();
                draws.half_zz[d] - 0.5 * precision * norm2
            })
            .collect();
        for row in values.chunks_exact(s) {
            c.iter_mut().zip(row).for_each(|(c, l)| *c += l);
        }
        Draws::Corrected(c)
    };
    LogLik {
        draws: s,
        rows: y.len(),
        values,
        correction: match source {
            Draws::Posterior => None,
            Draws::Corrected(c) => Some(c),
        },
    }
}

/// ln p(y_i | x_i) of each row of `x` (class indices `y`) under the predictor's exact
/// predictive, the probability clipped to [`CLIP`, 1 - `CLIP`] as the log-loss and K-fold's
/// elpd are: a generative model's normalised class probabilities reach exactly 0 on a
/// confidently wrong row.
pub fn label_log_probabilities(
    predictor: &dyn Predictor,
    x: MatRef<'_, f64>,
    y: &[f64],
) -> Vec<f64> {
    let settings = super::predictive::PredictiveSettings {
        mc_samples: 1,
        quadrature_nodes: 1,
        first_row: 0,
    };
    // The exact predictive draws nothing; the stream is only the signature's.
    let mut stream = crate::numeric::rng::stream(0, "loo/exact");
    let clipped_ln = |p: f64| p.clamp(CLIP, 1.0 - CLIP).ln();
    match predictor.predict(PredictiveKind::Exact, x, settings, &mut stream) {
        Probabilities::Binary(p) => p
            .iter()
            .zip(y)
            .map(|(p, &y)| clipped_ln(if y == 1.0 { *p } else { 1.0 - p }))
            .collect(),
        Probabilities::Classes(rows) => rows
            .iter()
            .zip(y)
            .map(|(r, &y)| clipped_ln(r[y as usize]))
            .collect(),
    }
}

/// A design and its labels.
pub type Rows = (Mat<f64>, Vec<f64>);

/// The design and labels without row `row`.
pub fn without_row(x: &Mat<f64>, y: &[f64], row: usize) -> Rows {
    let keep: Vec<usize> = (0..y.len()).filter(|&i| i != row).collect();
    let xm = Mat::from_fn(keep.len(), x.ncols(), |i, j| x[(keep[i], j)]);
    (xm, keep.iter().map(|&i| y[i]).collect())
}

#[cfg(test)]
#[path = "loglik_tests.rs"]
mod tests;
