//! A binary linear model's predictor: p(y = 1 | x) = link(w^T x) with w a point estimate or
//! w ~ N(m, H^{-1}), so every predictive depends on x only through the activation's mean and
//! variance (docs/maths.md 1.4).

use faer::{Mat, MatRef};
use rand_distr::{Distribution, StandardNormal};

use super::fit::{PosteriorSummary, Predictor, Probabilities};
use super::gaussian::{Activations, GaussianPosterior};
use super::predictive::{self, PredictiveKind, PredictiveSettings};
use crate::catalog::Link;
use crate::numeric::linalg::mat_vec;
use crate::numeric::rng::Stream;
use crate::numeric::special::norm_cdf;

pub struct LinearPredictor {
    pub weights: Vec<f64>,
    pub posterior: Option<GaussianPosterior>,
    pub link: Link,
}

impl LinearPredictor {
    pub fn summary(&self) -> Option<PosteriorSummary> {
        self.posterior.as_ref().map(|p| PosteriorSummary {
            mean: p.mean.clone(),
            cov_diag: p.cov_diag(),
            cov: super::fit::full_cov(p.mean.len(), || p.precision.inverse()),
            precision_factor: super::fit::full_cov(p.mean.len(), || p.precision.lower().to_owned()),
            log_evidence: p.log_evidence,
        })
    }

    fn activations(&self, x: MatRef<'_, f64>) -> Activations {
        match &self.posterior {
            Some(p) => p.activations(x),
            None => Activations {
                mean: mat_vec(x, &self.weights),
                var: vec![0.0; x.nrows()],
            },
        }
    }
}

impl Predictor for LinearPredictor {
    fn predict(
        &self,
        kind: PredictiveKind,
        x: MatRef<'_, f64>,
        settings: PredictiveSettings,
        rng: &mut Stream,
    ) -> Probabilities {
        let act = self.activations(x);
        Probabilities::Binary(match self.link {
            Link::Logistic => predictive::predict(kind, &act, settings, rng),
            Link::Probit => probit_predict(kind, &act, settings.mc_samples, rng),
        })
    }

    fn gaussian(&self) -> Option<(Vec<f64>, Mat<f64>)> {
        self.posterior
            .as_ref()
            .map(|p| (p.mean.clone(), p.precision.inverse()))
    }
}

/// Probit predictives (docs/maths.md 1.4, "Probit models"): `exact` = Phi(mu_a / sqrt(1 + s2_a)),
/// the closed form of int Phi(a) N(a | mu_a, s2_a) da; `plugin` = Phi(mu_a); `mc` averages Phi over
/// sampled activations. The logistic-only approximations fall back to `exact`.
pub fn probit_predict(
    kind: PredictiveKind,
    act: &Activations,
    samples: usize,
    rng: &mut Stream,
) -> Vec<f64> {
    let rows = act.mean.iter().zip(&act.var);
    match kind {
        PredictiveKind::Plugin => act.mean.iter().map(|&m| norm_cdf(m)).collect(),
        PredictiveKind::Mc => rows
            .map(|(&m, &v)| {
                let sd = v.max(0.0).sqrt();
                (0..samples)
                    .map(|_| {
                        let z: f64 = StandardNormal.sample(rng);
                        norm_cdf(m + sd * z)
                    })
                    .sum::<f64>()
                    / samples as f64
            })
            .collect(),
        _ => rows
            .map(|(&m, &v)| norm_cdf(m / (1.0 + v).sqrt()))
            .collect(),
    }
}
