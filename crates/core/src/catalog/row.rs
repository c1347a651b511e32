//! What a catalogue row says of a kind: the [`Row`] type and the keys a `[[method]]` table can
//! hold. The rows themselves are in table.rs.

use super::fitting::Fitting;
use super::kind::{Family, Likelihood, MethodKind};
use super::log_evidence::LogEvidence;
use super::predictive::PredictiveKind;

/// Every fact about one method kind.
#[derive(Debug)]
pub struct Row {
    pub kind: MethodKind,
    /// The `[[method]] kind = "..."` name, also the default id and the name in every view.
    pub name: &'static str,
    pub family: Family,
    /// How it reaches its answer: what the progress lines and the Live screen say it did.
    pub fitting: Fitting,
    /// One line on what the kind fits, for `--help`.
    pub summary: &'static str,
    /// The predictives it can evaluate, in their default order.
    pub predictives: &'static [PredictiveKind],
    /// The keys of [`OPTION_KEYS`] it accepts; the others are an error naming the kinds that use them.
    pub keys: &'static [&'static str],
    /// p(y = 1 | w, x) of a binary linear model (a probit's beta from `noise`, where accepted).
    pub likelihood: Option<Likelihood>,
    /// Fits chunk by chunk under `[data] streaming = true` (Newton on a sum over rows, or counts).
    pub streams: bool,
    /// Fits under the Gaussian prior w ~ N(0, lambda^{-1} I), so `[prior] precision` applies
    /// (not logistic-mle, and not the generative kinds, which have their own priors).
    pub weight_prior: bool,
    /// Yields a posterior over the weights.
    pub posterior: bool,
    /// Yields a posterior over its class parameters instead (means, covariances, variances or
    /// probabilities under conjugate priors), though none over the weights.
    pub class_posterior: bool,
    /// The kind whose Laplace evidence chooses its lambda under `[prior] precision = "evidence"`
    /// (itself, or logistic-laplace for logistic-map); `None` without one.
    pub evidence_from: Option<MethodKind>,
    /// Its place among the Gaussians that can build the true evidence's proposal, best first
    /// (run/true_evidence.rs): EP matches the posterior's moments, the KL-optimal Gaussian is
    /// narrower (a mean-field one one place further down), Laplace is blind to the skew, then
    /// ADF and the Jaakkola-Jordan Gaussian; `None` without a Gaussian posterior to use.
    pub proposal_rank: Option<u8>,
    /// How `bayeslab predict` rebuilds its predictor from results.json.
    pub restore: Restore,
    /// What its `posterior.log_evidence` is (the evidence table's label); `None` without one.
    pub log_evidence: Option<LogEvidence>,
    /// Handles two classes only.
    pub binary_only: bool,
    /// What to change when its fit comes out numerically degenerate.
    pub advice: &'static str,
}

/// `[[method]]` keys every kind accepts.
pub const COMMON_KEYS: [&str; 3] = ["kind", "id", "predictive"];

/// The `[[method]]` keys only some kinds accept, in the order validation checks them.
pub const OPTION_KEYS: [&str; 25] = [
    "optimizer",
    "learning_rate",
    "max_iter",
    "tolerance",
    "mc_samples",
    "quadrature_nodes",
    "noise",
    "damping",
    "mean_field",
    "reference_class",
    "shared_covariance",
    "class_prior",
    "mu0",
    "kappa0",
    "alpha0",
    "beta0",
    "nu0",
    "psi0",
    "a",
    "b",
    "binarize",
    "chains",
    "draws",
    "burn_in",
    "thin",
];

/// How `bayeslab predict` rebuilds a run's predictor from its results.json entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Restore {
    /// A linear model's weights, with its Gaussian posterior when stored.
    Linear,
    /// EP's probit predictor from the stored mean and covariance.
    EpProbit,
    /// Not rebuilt, and why (the message `predict` gives).
    Not(&'static str),
}
