//! EP's and ADF's answer: the Gaussian N(mu, Sigma) over the weights, predicting through the
//! probit with noise beta.

use faer::{Mat, MatRef};

use crate::model::fit::{Predictor, Probabilities};
use crate::model::predictive::{PredictiveKind, PredictiveSettings};
use crate::numeric::linalg::{dot, mat_vec};
use crate::numeric::rng::Stream;
use crate::numeric::special::norm_cdf;

/// P(y = +1 | x) under N(mu, Sigma) with probit noise beta.
pub struct EpPredictor {
    pub(super) mu: Vec<f64>,
    pub(super) sigma: Mat<f64>,
    pub(super) beta: f64,
}

impl EpPredictor {
    /// N(mu, sigma) with probit noise beta (a stored EP or ADF run).
    pub fn new(mu: Vec<f64>, sigma: Mat<f64>, beta: f64) -> Self {
        EpPredictor { mu, sigma, beta }
    }
}

impl Predictor for EpPredictor {
    /// `exact` = Phi(mu^T x / sqrt(beta^2 + x^T Sigma x)), `plugin` = Phi(mu^T x / beta).
    fn predict(
        &self,
        kind: PredictiveKind,
        x: MatRef<'_, f64>,
        _settings: PredictiveSettings,
        _rng: &mut Stream,
    ) -> Probabilities {
        let mean = mat_vec(x, &self.mu);
        let bb = self.beta * self.beta;
        Probabilities::Binary(
            (0..x.nrows())
                .map(|n| {
                    if kind == PredictiveKind::Plugin {
                        return norm_cdf(mean[n] / self.beta);
                    }
                    let phi: Vec<f64> = (0..x.ncols()).map(|j| x[(n, j)]).collect();
                    let var = dot(&phi, &mat_vec(self.sigma.as_ref(), &phi)).max(0.0);
                    norm_cdf(mean[n] / (bb + var).sqrt())
                })
                .collect(),
        )
    }

    fn gaussian(&self) -> Option<(Vec<f64>, Mat<f64>)> {
        Some((self.mu.clone(), self.sigma.clone()))
    }
}
