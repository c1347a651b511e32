//! How far one approximation is from the gold standard of its experiment (built by
//! `run/gold.rs`).

use serde::Serialize;

/// One row of results.json `approximation_error`: a run's predictive against the gold run's
/// `exact` predictive, and (same model only) its posterior moments against the gold draws'.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ApproximationError {
    pub run: String,
    pub predictive: crate::catalog::PredictiveKind,
    /// The gold run's id.
    pub reference: String,
    /// Mean and largest |p(y = 1) - p_gold(y = 1)| over the test rows.
    pub mean_abs_diff: f64,
    pub max_abs_diff: f64,
    /// Mean over test rows of KL(Bernoulli(p_gold) || Bernoulli(p)), in nats.
    pub mean_kl: f64,
    /// This predictive's test log-loss (and ECE) minus the gold predictive's.
    pub log_loss_diff: f64,
    pub ece_diff: f64,
    /// The largest |mean_j - mean_gold_j| / sd_gold_j over the weights (same model only).
    pub mean_err_sd_units: Option<f64>,
    /// The ratio sd_j / sd_gold_j farthest from 1 (in log scale) over the weights: below 1 the
    /// approximation is over-confident in that weight (same model only).
    pub sd_ratio_max: Option<f64>,
    /// The run's Pareto k-hat as an importance-sampling proposal ([`RunRecord::khat`]).
    pub khat: Option<f64>,
    /// The draws of that k-hat ([`RunRecord::khat_draws`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub khat_draws: Option<usize>,
}
