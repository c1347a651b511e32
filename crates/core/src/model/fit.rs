//! What every method kind fits into and from: the [`FitInput`] it reads, the [`Fitted`] it
//! returns, and the [`Predictor`] that answers per named predictive. A leaf of model/: the
//! model files and the dispatcher (method.rs) all import it, and it imports none of them.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use faer::{Mat, MatRef};

use super::predictive::PredictiveSettings;
use super::spec::MethodSpec;
use super::streaming::chunks::Chunks;
use crate::catalog::PredictiveKind;
use crate::numeric::rng::Stream;
use crate::optim::{Outcome, Termination};

/// Predictions for every test row: p(y = 1) for a binary model, or one probability per class
/// (rows x K, each row summing to 1).
#[derive(Debug, Clone, PartialEq)]
pub enum Probabilities {
    Binary(Vec<f64>),
    Classes(Vec<Vec<f64>>),
}

/// Anything fitted that can predict held-out rows under a named predictive.
pub trait Predictor {
    /// `x` has the same columns as the training design. Only `mc` draws from `rng`.
    fn predict(
        &self,
        kind: PredictiveKind,
        x: MatRef<'_, f64>,
        settings: PredictiveSettings,
        rng: &mut Stream,
    ) -> Probabilities;

    /// The Monte-Carlo standard error of each row's `kind` prediction, for sampling methods.
    fn mcse(&self, _kind: PredictiveKind, _x: MatRef<'_, f64>) -> Option<Vec<f64>> {
        None
    }

    /// The exact posterior's 2-D marginals on grids, for the weight-space picture (the
    /// quadrature kinds; empty for the others).
    fn pair_densities(&self) -> Vec<crate::record::PairDensity> {
        Vec::new()
    }

    /// Convergence diagnostics of a sampler: (largest split-R-hat, smallest bulk ESS).
    fn diagnostics(&self) -> Option<(f64, f64)> {
        None
    }

    /// An HMC sampler's acceptance, adapted step size, leapfrog steps and divergences.
    fn hmc(&self) -> Option<crate::record::HmcDiagnostics> {
        None
    }

    /// A sampler's R-hat, bulk ESS and tail ESS of every weight.
    fn per_weight(&self) -> Option<super::diagnostics::PerWeight> {
        None
    }

    /// A Gaussian posterior over the weights as (mean, covariance), for methods that
    /// approximate the posterior by one (Laplace, EP, ADF); the importance-sampling check
    /// (model/importance.rs) uses it as a proposal.
    fn gaussian(&self) -> Option<(Vec<f64>, Mat<f64>)> {
        None
    }

    /// A sampler's kept draws of the weights, as the columns of a D x S matrix (chain after
    /// chain): draws from the exact posterior, which PSIS-LOO (model/loglik.rs) reads as they are.
    fn draws(&self) -> Option<Mat<f64>> {
        None
    }
}

/// Mean, covariance and log evidence of an approximate posterior over the weights.
#[derive(Debug, Clone, PartialEq)]
pub struct PosteriorSummary {
    pub mean: Vec<f64>,
    pub cov_diag: Vec<f64>,
    /// The full covariance (a Gaussian's, or the sample covariance of a sampler's draws), kept
    /// up to [`FULL_COV_MAX`] weights: beyond that it is `None` (D² numbers in results.json).
    pub cov: Option<Mat<f64>>,
    /// The Cholesky factor L of the precision H = L L^T (kinds that keep one), within the same
    /// limit: what `bayeslab predict` rebuilds the run's predictor from, bit for bit.
    pub precision_factor: Option<Mat<f64>>,
    pub log_evidence: Option<f64>,
}

/// The most weights whose full covariance a run keeps (a million entries in results.json).
pub const FULL_COV_MAX: usize = 1000;

/// `f()` when `d` weights are few enough to keep their full covariance.
pub fn full_cov(d: usize, f: impl FnOnce() -> Mat<f64>) -> Option<Mat<f64>> {
    (d <= FULL_COV_MAX).then(f)
}

pub struct Fitted {
    /// The point estimate (MLE, MAP, or the posterior mean), in design-column order; for
    /// softmax the class blocks are stacked, for generative methods it is empty.
    pub weights: Vec<f64>,
    /// The minimised objective at the weights, when there is one.
    pub objective: Option<f64>,
    pub outcome: Outcome,
    pub posterior: Option<PosteriorSummary>,
    pub predictor: Box<dyn Predictor>,
    /// The fit's passes over the rows in memory and their seconds, by kind, where it timed
    /// them (the logistic kinds: model/pass_clock.rs); a streamed fit's passes are in its
    /// source's record instead.
    pub pass_times: Option<super::pass_clock::PassTimes>,
    /// The fit step by step, when [`FitInput::record_steps`] asked for it and the kind records
    /// steps (Newton's iterates, EP's site updates, ADF's examples).
    pub steps: Option<crate::record::FitSteps>,
}

/// Everything a method needs to fit.
pub struct FitInput<'a> {
    /// The experiment file, named in input errors.
    pub file: &'a Path,
    pub method: &'a MethodSpec,
    /// lambda of the Gaussian prior N(0, lambda^{-1} I) on the weights.
    pub precision: f64,
    pub seed: u64,
    pub x: MatRef<'a, f64>,
    /// Class index per row, 0..classes.
    pub y: &'a [f64],
    pub classes: usize,
    /// The first design column is the intercept (generative methods skip it).
    pub intercept: bool,
    /// Feature names of the design columns, for error messages.
    pub columns: &'a [String],
    pub cancel: Option<&'a AtomicBool>,
    /// Record the fit step by step (`[evaluation] record_steps`, at most
    /// [`crate::record::STEPS_MAX_WEIGHTS`] weights): [`Fitted::steps`].
    pub record_steps: bool,
}

impl FitInput<'_> {
    pub fn run(&self) -> &str {
        &self.method.id
    }
}

/// A method that finishes in closed form: nothing to iterate.
pub fn closed_form() -> Outcome {
    Outcome {
        termination: Termination::Converged,
        iterations: 0,
    }
}

/// What a fit needs besides its rows.
pub struct FitRequest<'a> {
    /// The experiment file, named in input errors.
    pub file: &'a Path,
    pub method: &'a MethodSpec,
    /// lambda of the Gaussian prior N(0, lambda^{-1} I) on the weights.
    pub precision: f64,
    pub seed: u64,
    /// Design columns (intercept first when present), for messages and the intercept check.
    pub columns: &'a [String],
    /// Training rows and classes.
    pub rows: usize,
    pub classes: usize,
    /// The first design column is the intercept (generative methods skip it).
    pub intercept: bool,
    pub cancel: Option<&'a AtomicBool>,
    /// [`FitInput::record_steps`].
    pub record_steps: bool,
}

/// The training rows: as chunks always, and all at once (design, class indices) when they are
/// held in memory.
#[derive(Clone, Copy)]
pub struct Rows<'a> {
    pub chunks: &'a dyn Chunks,
    pub whole: Option<(MatRef<'a, f64>, &'a [f64])>,
}
