//! The sampler's answer: predictions averaged over every kept draw, with their Monte-Carlo
//! errors and the chains' convergence diagnostics.

use faer::{Mat, MatRef};

use crate::model::diagnostics::PerWeight;
use crate::model::fit::{Predictor, Probabilities};
use crate::model::predictive::{PredictiveKind, PredictiveSettings};
use crate::numeric::linalg::mat_vec;
use crate::numeric::rng::Stream;
use crate::numeric::special::{norm_cdf, sigmoid};
use crate::record::HmcDiagnostics;

/// Kept draws, one weight vector each.
pub(in crate::model) type Draws = Vec<Vec<f64>>;

/// p(y = 1 | x, w): sigma(w^T x), or Phi(w^T x / beta).
#[derive(Debug, Clone, Copy)]
pub(in crate::model) enum Link {
    Logistic,
    Probit { beta: f64 },
}

impl Link {
    fn p(self, a: f64) -> f64 {
        match self {
            Link::Logistic => sigmoid(a),
            Link::Probit { beta } => norm_cdf(a / beta),
        }
    }
}

/// Predictions averaged over every kept draw of every chain.
pub struct GibbsPredictor {
    link: Link,
    /// All kept draws, chain after chain (S x D).
    draws: Draws,
    pub mean: Vec<f64>,
    pub var: Vec<f64>,
    rhat_max: f64,
    ess_min: f64,
    per_weight: PerWeight,
    /// The HMC kinds' acceptance, step size and divergences (`None` for Gibbs).
    hmc: Option<HmcDiagnostics>,
}

impl GibbsPredictor {
    pub(in crate::model) fn new(chains: Vec<Draws>, link: Link) -> Self {
        let d = chains[0][0].len();
        let per_weight = PerWeight::of(&chains);
        let rhat_max = per_weight.rhat_max();
        let ess_min = PerWeight::min(&per_weight.ess_bulk);
        let draws: Draws = chains.into_iter().flatten().collect();
        let s = draws.len() as f64;
        let mean: Vec<f64> = (0..d)
            .map(|j| draws.iter().map(|w| w[j]).sum::<f64>() / s)
            .collect();
        let var: Vec<f64> = (0..d)
            .map(|j| {
                draws.iter().map(|w| (w[j] - mean[j]).powi(2)).sum::<f64>() / (s - 1.0).max(1.0)
            })
            .collect();
        let ess_min = ess_min.unwrap_or(s);
        GibbsPredictor {
            link,
            draws,
            mean,
            var,
            rhat_max,
            ess_min,
            per_weight,
            hmc: None,
        }
    }

    /// The same draws, with the HMC chains' own diagnostics.
    pub(in crate::model) fn with_hmc(mut self, hmc: HmcDiagnostics) -> Self {
        self.hmc = Some(hmc);
        self
    }

    /// The sample covariance of the kept draws (every chain pooled), divisor S - 1 as `var`.
    pub fn sample_covariance(&self) -> Mat<f64> {
        let d = self.mean.len();
        let s = self.draws.len();
        let centred = Mat::<f64>::from_fn(s, d, |i, j| self.draws[i][j] - self.mean[j]);
        let mut cov = centred.transpose() * &centred;
        let scale = 1.0 / (s as f64 - 1.0).max(1.0);
        for j in 0..d {
            for k in 0..d {
                cov[(j, k)] *= scale;
            }
        }
        cov
    }

    /// p(y = 1 | x_n, w_s) for every test row n and draw s, as rows.
    fn row_probabilities(&self, x: MatRef<'_, f64>) -> Draws {
        let w = Mat::<f64>::from_fn(x.ncols(), self.draws.len(), |j, s| self.draws[s][j]);
        let a = x * &w;
        (0..x.nrows())
            .map(|n| {
                (0..self.draws.len())
                    .map(|s| self.link.p(a[(n, s)]))
                    .collect()
            })
            .collect()
    }
}

impl Predictor for GibbsPredictor {
    fn predict(
        &self,
        kind: PredictiveKind,
        x: MatRef<'_, f64>,
        _: PredictiveSettings,
        _: &mut Stream,
    ) -> Probabilities {
        Probabilities::Binary(match kind {
            PredictiveKind::Plugin => mat_vec(x, &self.mean)
                .into_iter()
                .map(|a| self.link.p(a))
                .collect(),
            _ => self
                .row_probabilities(x)
                .iter()
                .map(|p| p.iter().sum::<f64>() / p.len() as f64)
                .collect(),
        })
    }

    /// sd over draws of p(y = 1 | x, w_s) divided by sqrt(ESS), with the smallest bulk ESS of
    /// the weights standing in for the row's own (conservative: a prediction mixes at least as
    /// fast as the slowest weight direction, in practice).
    fn mcse(&self, kind: PredictiveKind, x: MatRef<'_, f64>) -> Option<Vec<f64>> {
        if kind != PredictiveKind::Exact {
            return None;
        }
        let ess = self.ess_min.max(1.0);
        let sd_over = |p: &Vec<f64>| {
            let m = p.iter().sum::<f64>() / p.len() as f64;
            let v =
                p.iter().map(|q| (q - m).powi(2)).sum::<f64>() / (p.len() as f64 - 1.0).max(1.0);
            (v / ess).sqrt()
        };
        Some(self.row_probabilities(x).iter().map(sd_over).collect())
    }

    fn diagnostics(&self) -> Option<(f64, f64)> {
        Some((self.rhat_max, self.ess_min))
    }

    fn draws(&self) -> Option<Mat<f64>> {
        let d = self.mean.len();
        Some(Mat::from_fn(d, self.draws.len(), |j, s| self.draws[s][j]))
    }

    fn per_weight(&self) -> Option<PerWeight> {
        Some(self.per_weight.clone())
    }

    fn hmc(&self) -> Option<HmcDiagnostics> {
        self.hmc
    }
}
