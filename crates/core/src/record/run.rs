//! One method's run: its fit, its posterior, and every predictive's held-out metrics.

use serde::Serialize;

use crate::catalog::{MethodKind, PredictiveKind};
use crate::metrics::{Bin, Metrics};
use crate::optim::{Iterate, Termination};

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct RunRecord {
    pub id: String,
    pub kind: MethodKind,
    pub converged: bool,
    pub termination: Option<Termination>,
    pub iterations: usize,
    pub fit_seconds: f64,
    /// Seconds spent on the run's k-hat after the fit (`khat`); `null` when it had none.
    pub khat_seconds: Option<f64>,
    /// The minimised objective E(w) at the returned weights.
    pub objective: Option<f64>,
    /// Why the run produced no results; `null` when it succeeded.
    pub error: Option<String>,
    /// The point estimate (MLE or MAP), in design-matrix column order.
    pub weights: Vec<f64>,
    pub posterior: Option<PosteriorRecord>,
    pub predictives: Vec<PredictiveRecord>,
    /// The predictives' settings (`mc_samples` draws, `quadrature_nodes`), for `bayeslab
    /// predict`; absent for a run that failed before predicting.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mc_samples: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quadrature_nodes: Option<usize>,
    /// The prior precision lambda the run used; chosen by evidence maximisation under
    /// `[prior] precision = "evidence"`. `null` for methods without a Gaussian weight prior.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prior_precision: Option<f64>,
    /// Under `[prior] precision = "evidence"`: the Laplace log evidence and the held-out
    /// log-loss (plug-in predictive) on a log grid of lambda.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub evidence_curve: Vec<EvidencePoint>,
    /// Under `[prior] precision = "evidence"`: set when the chosen lambda is an end of the
    /// search's grid, so that the evidence may rise further beyond it and the "maximum" is
    /// only the grid's edge (absent when the maximum is inside the grid).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prior_precision_edge: Option<GridEdge>,
    /// Sampler convergence (Gibbs kinds): the largest split-R-hat and smallest bulk ESS over
    /// the weights.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diagnostics: Option<Diagnostics>,
    /// Sampler convergence per weight (Gibbs kinds), in design-column order: the
    /// rank-normalised split R-hat (the larger of bulk and folded), bulk ESS and tail ESS, as
    /// ArviZ's `summary` computes them (Vehtari et al. 2021).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weight_diagnostics: Option<WeightDiagnostics>,
    /// A sampler's trace and rank plot of its worst-mixing weights (Gibbs kinds).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chains: Option<super::ChainsRecord>,
    /// Pareto k-hat of the run's Gaussian posterior used as an importance-sampling proposal
    /// for its model's exact posterior (model/importance.rs); `null` without a Gaussian
    /// posterior or when the importance ratios have no tail to fit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub khat: Option<f64>,
    /// The draws k-hat was computed from, which set its threshold for "good".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub khat_draws: Option<usize>,
    /// `mean_field = true` of a variational kind: q(w) has a diagonal covariance, so its ELBO
    /// bounds ln p(y | X) from further below than the full-rank one (absent when false).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub mean_field: bool,
    /// The probit β (`noise`) of the kinds that accept the key: two probit runs share a
    /// model, and so a true evidence, only with the same β (absent for the other kinds).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub noise: Option<f64>,
    /// The passes of a logistic fit in memory over its rows, by kind, with their seconds
    /// (absent for other kinds and for streamed fits, whose passes are in `streaming`): what a
    /// streamed Hessian pass is compared with (benches/streaming.sh).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub passes: Option<FitPassTimes>,
    /// Leave-one-out cross-validation on the training rows (PSIS-LOO); `null` for kinds
    /// without posterior draws or a Gaussian posterior, for streamed data, and under
    /// `[evaluation] loo_draws = 0`.
    pub loo: Option<super::LooRecord>,
    /// The draws LOO used and each training row's log likelihood at them, for the `draws/`
    /// export (`[evaluation] export_draws = true`); never serialised.
    #[serde(skip)]
    pub draws: Option<Box<super::DrawsExport>>,
    /// The exact posterior's 2-D marginal density of every pair of weights on a grid, for the
    /// weight-space picture (quadrature kinds only; absent for the others).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pair_densities: Vec<super::PairDensity>,
    /// The fit step by step (Newton iterates, EP site updates, ADF examples) under
    /// `[evaluation] record_steps = true`, for a model with at most 3 weights; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub steps: Option<super::FitSteps>,
}

/// results.json `runs[].passes`: Newton's passes over rows in memory. A `hessian` pass computes
/// E, g and X^T S X (O(N D^2)), as a streamed `fit` pass does; a `gradient` pass E and g only
/// (O(N D)), as a streamed `fit-grad` pass does. The warm start's subsample fit is not a pass.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct FitPassTimes {
    pub hessian: usize,
    pub hessian_seconds: f64,
    pub gradient: usize,
    pub gradient_seconds: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct EvidencePoint {
    pub precision: f64,
    /// `null` when the fit at this lambda did not converge (then it is not a candidate).
    pub log_evidence: Option<f64>,
    pub test_log_loss: f64,
}

/// results.json `runs[].weight_diagnostics`: one entry per weight (NaN, written `null`, when a
/// weight's draws do not vary).
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct WeightDiagnostics {
    pub rhat: Vec<f64>,
    pub ess_bulk: Vec<f64>,
    pub ess_tail: Vec<f64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Diagnostics {
    pub rhat_max: f64,
    pub ess_min: f64,
    /// The HMC kinds' own diagnostics (absent for Gibbs, which accepts every move).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hmc: Option<HmcDiagnostics>,
}

/// results.json `runs[].diagnostics.hmc`: how the Hamiltonian Monte Carlo chains moved
/// (docs/maths.md §20), over the kept draws of every chain.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct HmcDiagnostics {
    /// The mean Metropolis acceptance probability min(1, e^{-ΔH}) of the trajectories after
    /// the burn-in; the burn-in adapts the step size towards [`HmcDiagnostics::TARGET`].
    pub acceptance: f64,
    /// The leapfrog step size after the burn-in's adaptation, in the coordinates the Laplace
    /// covariance whitens, averaged over the chains.
    pub step_size: f64,
    /// Leapfrog steps (gradient evaluations) per iteration after the burn-in, averaged (per
    /// kept draw when `thin` = 1).
    pub leapfrog_steps: f64,
    /// Iterations after the burn-in whose trajectory's energy error exceeded
    /// [`HmcDiagnostics::DIVERGENCE`] or was not finite (each was rejected, so the chain stays exact, but the posterior has a
    /// region the step size cannot follow).
    pub divergent: usize,
}

impl HmcDiagnostics {
    /// The acceptance probability the burn-in's dual averaging aims at (Stan's default).
    pub const TARGET: f64 = 0.8;
    /// The energy error beyond which a trajectory counts as divergent (Stan's threshold).
    pub const DIVERGENCE: f64 = 1000.0;

    /// "acceptance 0.81, step 0.52, 4.4 leapfrog steps per draw, 0 divergent".
    pub fn words(&self) -> String {
        format!(
            "acceptance {:.2}, step {:.3}, {:.1} leapfrog steps per draw, {} divergent",
            self.acceptance, self.step_size, self.leapfrog_steps, self.divergent
        )
    }
}

impl Diagnostics {
    /// R-hat above 1.01 means the chains have not mixed (Vehtari et al. 2021).
    pub const RHAT_LIMIT: f64 = 1.01;

    pub fn mixed(&self) -> bool {
        self.rhat_max <= Self::RHAT_LIMIT
    }
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct PosteriorRecord {
    pub mean: Vec<f64>,
    /// The marginal variances, diag of `cov`.
    pub cov_diag: Vec<f64>,
    /// The full covariance, row by row in design-column order: the Gaussian approximation's,
    /// or for a sampler the sample covariance of its kept draws. `null` above 1000 weights.
    pub cov: Option<Vec<Vec<f64>>>,
    /// The lower-triangular Cholesky factor L of the precision H = cov^-1 = L L^T, row i
    /// holding L_i0..L_ii, for the kinds that factor H (Laplace, the variational kinds,
    /// EP-logistic, softmax); `bayeslab predict` rebuilds the run's predictor from it exactly.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub precision_factor: Option<Vec<Vec<f64>>>,
    pub log_evidence: Option<f64>,
}

impl PosteriorRecord {
    /// The marginal standard deviations.
    pub fn sd(&self) -> Vec<f64> {
        self.cov_diag.iter().map(|v| v.max(0.0).sqrt()).collect()
    }
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct PredictiveRecord {
    pub name: PredictiveKind,
    pub metrics: Metrics,
    pub calibration: Vec<Bin>,
    /// 95 % basic-bootstrap interval of the ECE over test rows, corrected for the upward bias
    /// of a binned ECE (docs/maths.md §12.1); it brackets `ece_debiased`.
    pub ece_ci: Option<[f64; 2]>,
    /// The ECE minus its bootstrap estimate of bias (2 ECE − mean resampled ECE, at least 0).
    pub ece_debiased: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct TraceRow {
    pub run: String,
    #[serde(flatten)]
    pub iterate: Iterate,
}

/// Which end of the evidence search's lambda grid the chosen lambda sits at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum GridEdge {
    Low,
    High,
}

impl GridEdge {
    /// The warning every view shows beside the chosen lambda, with `low`..`high` the grid.
    pub fn words(self, low: f64, high: f64) -> String {
        let (end, beyond) = match self {
            GridEdge::Low => (low, "below"),
            GridEdge::High => (high, "above"),
        };
        format!(
            "at the edge of the search grid ({low:e} to {high:e}): the evidence still rises towards {end:e}, so its \
             maximum may lie {beyond} the grid and this lambda is only the grid's end"
        )
    }

    /// The short mark beside a lambda in tables and headings.
    pub fn mark(self) -> &'static str {
        match self {
            GridEdge::Low => "grid's lower edge",
            GridEdge::High => "grid's upper edge",
        }
    }
}

impl RunRecord {
    /// Why this run's numbers are not those of a finished fit, for every view that shows them:
    /// `NOT CONVERGED (max-iterations)` for a fit that stopped short of its tolerance,
    /// `NOT MIXED` for a sampler whose chains have not mixed; `None` otherwise and for a failed
    /// run (which has no numbers, and says why in its `error`).
    pub fn flag(&self) -> Option<String> {
        if self.error.is_some() {
            return None;
        }
        if let Some(d) = self.diagnostics {
            return (!d.mixed()).then(|| "NOT MIXED".to_string());
        }
        match self.termination {
            Some(t) if !t.converged() => Some(format!("NOT CONVERGED ({})", t.name())),
            _ => None,
        }
    }

    /// A run that failed before producing results.
    pub fn failed(id: &str, kind: MethodKind, fit_seconds: f64, error: String) -> Self {
        RunRecord {
            id: id.to_string(),
            kind,
            converged: false,
            termination: None,
            iterations: 0,
            fit_seconds,
            khat_seconds: None,
            objective: None,
            error: Some(error),
            weights: Vec::new(),
            posterior: None,
            predictives: Vec::new(),
            mc_samples: None,
            quadrature_nodes: None,
            prior_precision: None,
            evidence_curve: Vec::new(),
            prior_precision_edge: None,
            diagnostics: None,
            weight_diagnostics: None,
            chains: None,
            khat: None,
            khat_draws: None,
            mean_field: false,
            noise: None,
            passes: None,
            loo: None,
            draws: None,
            pair_densities: Vec::new(),
            steps: None,
        }
    }
}
