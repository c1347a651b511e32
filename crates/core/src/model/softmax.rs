//! Multiclass softmax regression with a Gaussian prior and the Laplace approximation
//! (docs/maths.md 1.3). p(y = c | x, W) = exp(a_c) / sum_k exp(a_k), a_k = w_k^T x. Either every
//! class has weights under the prior N(0, lambda^{-1} I), or (`reference_class = true`, as in
//! the Linköping notes) class 0's weights are fixed at zero, which for K = 2 is exactly
//! logistic regression. The free weight vectors are stacked class by class: index k' D + j.
//!
//! E(W) = -sum_n [a_{n y_n} - ln sum_k e^{a_nk}] + lambda/2 ||W||^2,
//! g_k = sum_n (p_nk - [y_n = k]) x_n + lambda w_k,
//! H_kl = sum_n p_nk ([k = l] - p_nl) x_n x_n^T + lambda [k = l] I.

use faer::{Mat, MatRef};

use super::fit::{FitInput, Fitted, PosteriorSummary, Predictor, Probabilities};
use super::gaussian::GaussianPosterior;
use super::options::SoftmaxOptions;
use super::predictive::{PredictiveKind, PredictiveSettings};
use crate::error::Result;
use crate::numeric::rng::Stream;
use crate::numeric::special::log_sum_exp;
use crate::optim::{Curvature, Objective, Observer};

pub struct SoftmaxObjective<'a> {
    x: MatRef<'a, f64>,
    y: &'a [f64],
    classes: usize,
    reference: bool,
    precision: f64,
}

impl<'a> SoftmaxObjective<'a> {
    pub fn new(
        x: MatRef<'a, f64>,
        y: &'a [f64],
        classes: usize,
        reference: bool,
        precision: f64,
    ) -> Self {
        SoftmaxObjective {
            x,
            y,
            classes,
            reference,
            precision,
        }
    }

    /// Number of classes with free weights.
    fn free(&self) -> usize {
        self.classes - usize::from(self.reference)
    }

    /// The class of free block k'.
    fn class_of(&self, k: usize) -> usize {
        k + usize::from(self.reference)
    }
}

/// The activations a_nk of every row and class under stacked weights `w` (zero for the
/// reference class).
fn activations(x: MatRef<'_, f64>, w: &[f64], classes: usize, reference: bool) -> Vec<Vec<f64>> {
    let d = x.ncols();
    let shift = usize::from(reference);
    (0..x.nrows())
        .map(|n| {
            (0..classes)
                .map(|c| {
                    if c < shift {
                        return 0.0;
                    }
                    let block = &w[(c - shift) * d..(c - shift + 1) * d];
                    (0..d).map(|j| x[(n, j)] * block[j]).sum()
                })
                .collect()
        })
        .collect()
}

/// Row-wise softmax, in log space.
fn softmax(a: &[f64]) -> Vec<f64> {
    let z = log_sum_exp(a);
    a.iter().map(|v| (v - z).exp()).collect()
}

impl Objective for SoftmaxObjective<'_> {
    fn dim(&self) -> usize {
        self.free() * self.x.ncols()
    }

    fn value(&self, w: &[f64]) -> f64 {
        let a = activations(self.x, w, self.classes, self.reference);
        let nll: f64 = a
            .iter()
            .zip(self.y)
            .map(|(a, &y)| log_sum_exp(a) - a[y as usize])
            .sum();
        nll + 0.5 * self.precision * w.iter().map(|v| v * v).sum::<f64>()
    }

    fn gradient(&self, w: &[f64]) -> Vec<f64> {
        let d = self.x.ncols();
        let a = activations(self.x, w, self.classes, self.reference);
        let mut g: Vec<f64> = w.iter().map(|v| self.precision * v).collect();
        for (n, (a, &y)) in a.iter().zip(self.y).enumerate() {
            let p = softmax(a);
            for k in 0..self.free() {
                let c = self.class_of(k);
                let r = p[c] - f64::from(u8::from(c == y as usize));
                for j in 0..d {
                    g[k * d + j] += r * self.x[(n, j)];
                }
            }
        }
        g
    }

    fn hessian(&self, w: &[f64]) -> Mat<f64> {
        let (n, d) = (self.x.nrows(), self.x.ncols());
        let probs: Vec<Vec<f64>> = activations(self.x, w, self.classes, self.reference)
            .iter()
            .map(|a| softmax(a))
            .collect();
        let mut h = Mat::<f64>::zeros(self.dim(), self.dim());
        for k in 0..self.free() {
            for l in k..self.free() {
                let (ck, cl) = (self.class_of(k), self.class_of(l));
                let s: Vec<f64> = probs
                    .iter()
                    .map(|p| p[ck] * (f64::from(u8::from(k == l)) - p[cl]))
                    .collect();
                let xs = Mat::<f64>::from_fn(n, d, |i, j| self.x[(i, j)] * s[i]);
                let block = self.x.transpose() * &xs;
                for i in 0..d {
                    for j in 0..d {
                        h[(k * d + i, l * d + j)] = block[(i, j)];
                        h[(l * d + j, k * d + i)] = block[(i, j)];
                    }
                }
            }
        }
        for i in 0..self.dim() {
            h[(i, i)] += self.precision;
        }
        h
    }

    fn scale(&self) -> f64 {
        self.y.len() as f64
    }

    /// Under lambda = 0, weights whose every row's own class beats every other class prove the
    /// classes separable, as for the binary GLMs ([`super::glm::runaway`]).
    fn diverging(&self, w: &[f64]) -> bool {
        if self.precision > 0.0 {
            return false;
        }
        let a = activations(self.x, w, self.classes, self.reference);
        let margins = a.iter().zip(self.y).map(|(a, &y)| {
            let own = a[y as usize];
            let other = (0..a.len())
                .filter(|&k| k != y as usize)
                .map(|k| a[k])
                .fold(f64::NEG_INFINITY, f64::max);
            own - other
        });
        super::glm::runaway(margins, w)
    }
}

pub struct SoftmaxPredictor {
    posterior: GaussianPosterior,
    classes: usize,
    reference: bool,
}

impl Predictor for SoftmaxPredictor {
    /// `plugin` = softmax(W_MAP^T x); `mc` averages softmax(W_s^T x) over draws W_s from the
    /// Laplace posterior (the same draws for every row).
    fn predict(
        &self,
        kind: PredictiveKind,
        x: MatRef<'_, f64>,
        settings: PredictiveSettings,
        rng: &mut Stream,
    ) -> Probabilities {
        let post = &self.posterior;
        let probs = |w: &[f64]| -> Vec<Vec<f64>> {
            activations(x, w, self.classes, self.reference)
                .iter()
                .map(|a| softmax(a))
                .collect()
        };
        if kind != PredictiveKind::Mc {
            return Probabilities::Classes(probs(&post.mean));
        }
        let mut total = vec![vec![0.0; self.classes]; x.nrows()];
        for _ in 0..settings.mc_samples {
            let w = post.precision.sample_inverse(&post.mean, rng);
            for (t, p) in total.iter_mut().zip(probs(&w)) {
                for (t, p) in t.iter_mut().zip(p) {
                    *t += p;
                }
            }
        }
        let s = settings.mc_samples as f64;
        Probabilities::Classes(
            total
                .into_iter()
                .map(|row| row.into_iter().map(|v| v / s).collect())
                .collect(),
        )
    }
}

/// `softmax-laplace`: MAP by Newton on the stacked weights, then N(W_MAP, H^{-1}).
pub fn fit_method(
    input: &FitInput<'_>,
    options: &SoftmaxOptions,
    observer: &mut dyn Observer,
) -> Result<Fitted> {
    let reference = options.reference_class;
    let objective =
        SoftmaxObjective::new(input.x, input.y, input.classes, reference, input.precision);
    let (weights, outcome) = super::laplace::minimise(
        &objective,
        input.method,
        Curvature::EveryStep,
        crate::optim::Start::at(vec![0.0; objective.dim()]),
        input.cancel,
        observer,
    )?;
    let posterior =
        super::laplace::approximate(&objective, &weights, input.precision, input.run())?;
    let summary = PosteriorSummary {
        mean: posterior.mean.clone(),
        cov_diag: posterior.cov_diag(),
        cov: super::fit::full_cov(posterior.mean.len(), || posterior.precision.inverse()),
        precision_factor: super::fit::full_cov(posterior.mean.len(), || {
            posterior.precision.lower().to_owned()
        }),
        log_evidence: posterior.log_evidence,
    };
    Ok(Fitted {
        pass_times: None,
        steps: None,
        objective: Some(objective.value(&weights)),
        weights,
        outcome,
        posterior: Some(summary),
        predictor: Box::new(SoftmaxPredictor {
            posterior,
            classes: input.classes,
            reference,
        }),
    })
}

#[cfg(test)]
#[path = "softmax_tests.rs"]
mod tests;
