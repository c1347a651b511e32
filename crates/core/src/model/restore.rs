//! A fitted run's predictor rebuilt from what its record stores (`bayeslab predict`): the
//! weights, and the posterior's mean with the Cholesky factor of its precision (or, for EP and
//! ADF with the probit, its covariance). The rebuilt predictor is the run's own type, so its
//! predictions are the run's, bit for bit.

use faer::Mat;

use super::ep::EpPredictor;
use super::fit::Predictor;
use super::gaussian::GaussianPosterior;
use super::linear::LinearPredictor;
use crate::catalog::{MethodKind, Restore};
use crate::numeric::linalg::Cholesky;

/// What a record keeps of a binary linear run's fit.
pub struct Stored<'a> {
    pub kind: MethodKind,
    /// The probit beta of the kinds that take `noise` (1 otherwise).
    pub noise: f64,
    pub weights: &'a [f64],
    /// The posterior mean, with the lower-triangular factor L (row i holds L_i0..L_ii) or the
    /// covariance.
    pub mean: Option<&'a [f64]>,
    pub precision_factor: Option<&'a [Vec<f64>]>,
    pub cov: Option<&'a [Vec<f64>]>,
}

/// The predictor of `s`, or why it cannot be rebuilt (the kind's catalogue row says how).
pub fn predictor(s: &Stored<'_>) -> Result<Box<dyn Predictor>, String> {
    let d = s.weights.len();
    let link = match (s.kind.restore(), s.kind.likelihood(s.noise)) {
        (Restore::Not(why), _) => return Err(why.into()),
        (_, Some(likelihood)) => likelihood.link(),
        (_, None) => return Err(format!("{} has no binary likelihood to score with", s.kind)),
    };
    match s.kind.restore() {
        Restore::Not(why) => Err(why.into()),
        Restore::EpProbit => {
            let (Some(mu), Some(cov)) = (s.mean, s.cov) else {
                return Err("its covariance is not stored (more than 1000 weights)".into());
            };
            let sigma = Mat::from_fn(d, d, |i, j| cov[i][j]);
            Ok(Box::new(EpPredictor::new(mu.to_vec(), sigma, s.noise)))
        }
        Restore::Linear => {
            let posterior = match (s.mean, s.precision_factor) {
                (Some(mean), Some(l)) => {
                    let l = Mat::from_fn(d, d, |i, j| if j <= i { l[i][j] } else { 0.0 });
                    let precision = Cholesky::from_lower(l.as_ref()).map_err(|e| e.to_string())?;
                    Some(GaussianPosterior {
                        mean: mean.to_vec(),
                        precision,
                        log_evidence: None,
                    })
                }
                (Some(_), None) => {
                    return Err(
                        "its precision factor is not stored (more than 1000 weights)".into(),
                    )
                }
                _ => None,
            };
            Ok(Box::new(LinearPredictor {
                weights: s.weights.to_vec(),
                posterior,
                link,
            }))
        }
    }
}
