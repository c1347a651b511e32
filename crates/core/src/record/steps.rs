//! The step-by-step picture's numbers (docs/maths.md §18): a fit's Gaussian after each of its
//! steps, recorded by the engine under `[evaluation] record_steps = true` for models with at
//! most [`STEPS_MAX_WEIGHTS`] weights and at most [`STEPS_MAX`] steps per run, so that
//! results.json stays small. A Newton step's Gaussian is N(w_k, H(w_k)^-1), the curvature at
//! the iterate; an EP site update's is the approximation after the update, with the cavity
//! and the tilted distribution of the site's direction t = y_i phi_i^T w; an ADF example's is
//! the posterior after that example.

use serde::Serialize;

/// The most weights a model may have for its steps to be recorded (the pictures draw pairs).
pub const STEPS_MAX_WEIGHTS: usize = 3;

/// The most steps recorded per run; `FitSteps::total` says how many the fit took.
pub const STEPS_MAX: usize = 40;

/// What one step of a fit is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum StepKind {
    /// A Newton iterate of a MAP / Laplace fit (step 0: the start).
    Newton,
    /// One site update of expectation propagation (sweep after sweep).
    EpSite,
    /// One example of assumed-density filtering: the posterior after n examples.
    AdfExample,
}

impl StepKind {
    /// What a strip of these steps shows, for a figure's title.
    pub fn title(self) -> &'static str {
        match self {
            StepKind::Newton => "Newton steps: the iterate and N(w_k, H(w_k)^-1)",
            StepKind::EpSite => "EP site updates: old, cavity, tilted and new",
            StepKind::AdfExample => "ADF: the posterior after n examples",
        }
    }
}

/// results.json `runs[].steps`: the first [`STEPS_MAX`] steps of the fit.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct FitSteps {
    pub kind: StepKind,
    /// Steps the fit took (more than `steps.len()` when the record was cut at [`STEPS_MAX`]).
    pub total: usize,
    pub steps: Vec<FitStep>,
}

/// The Gaussian after one step, in design-column order.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct FitStep {
    /// Newton: the iteration (0 = the start); EP / ADF: the update's number, from 1.
    pub index: usize,
    pub mean: Vec<f64>,
    /// The full covariance, row by row.
    pub cov: Vec<Vec<f64>>,
    /// EP / ADF: the site that was updated (absent for Newton).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub site: Option<SiteUpdate>,
}

/// One site update of EP (or ADF) in the site's direction t = y_i phi_i^T w.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct SiteUpdate {
    /// The training row (its place in the training rows) and the sweep, from 1.
    pub row: usize,
    pub sweep: usize,
    /// y_i phi_i, with y_i in {-1, +1}: t = direction^T w.
    pub direction: Vec<f64>,
    /// The approximation before the update.
    pub before_mean: Vec<f64>,
    pub before_cov: Vec<Vec<f64>>,
    /// The cavity q_\i(t) = N(mean, variance) of t: the approximation without the site.
    pub cavity: [f64; 2],
    /// The mean and variance of the tilted distribution p_i(t) q_\i(t) / Z_i.
    pub tilted: [f64; 2],
    /// The row's likelihood of t: `logistic` sigma(t) or `probit` Phi(t / beta), with beta.
    pub likelihood: crate::catalog::Link,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub beta: Option<f64>,
}

impl FitStep {
    /// The mean and 2x2 covariance of the weights `pair`.
    pub fn marginal(&self, pair: [usize; 2]) -> Option<([f64; 2], [[f64; 2]; 2])> {
        marginal(&self.mean, &self.cov, pair)
    }
}

impl SiteUpdate {
    /// The approximation before the update, marginal on `pair`.
    pub fn before(&self, pair: [usize; 2]) -> Option<([f64; 2], [[f64; 2]; 2])> {
        marginal(&self.before_mean, &self.before_cov, pair)
    }

    /// The row's likelihood at t.
    pub fn likelihood_at(&self, t: f64) -> f64 {
        match self.beta {
            Some(beta) => crate::numeric::special::norm_cdf(t / beta),
            None => crate::numeric::special::sigmoid(t),
        }
    }
}

/// The mean and covariance of weights `pair` from a full mean and covariance.
pub fn marginal(
    mean: &[f64],
    cov: &[Vec<f64>],
    [i, j]: [usize; 2],
) -> Option<([f64; 2], [[f64; 2]; 2])> {
    let at = |a: usize, b: usize| cov.get(a).and_then(|r| r.get(b)).copied();
    Some((
        [*mean.get(i)?, *mean.get(j)?],
        [[at(i, i)?, at(i, j)?], [at(j, i)?, at(j, j)?]],
    ))
}
