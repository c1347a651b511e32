//! The true evidence ln p(y | X) of each binary model the experiment fits, estimated by
//! importance sampling (docs/maths.md §6.4): the yardstick for every run's own
//! `posterior.log_evidence` (the Laplace evidence, ln Z_EP, the JJ bound, the ELBO).

use serde::Serialize;

/// One likelihood's estimate: the top-level `evidence` list of results.json.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct EvidenceEstimate {
    pub model: crate::catalog::Link,
    /// λ of the prior w ~ N(0, λ⁻¹ I): the proposal run's.
    pub prior_precision: f64,
    pub log_evidence: f64,
    /// The Monte-Carlo standard error of `log_evidence` (delta method).
    pub mcse: f64,
    /// The PSIS k-hat of the importance weights; `None` when their tail had no spread.
    pub khat: Option<f64>,
    /// False when k-hat exceeds 0.7 (or could not be fitted): then the weights' variance may
    /// be infinite and `mcse` understates the error.
    pub reliable: bool,
    pub draws: usize,
    /// The id of the run whose Gaussian posterior built the Student-t proposal.
    pub proposal: String,
    pub seconds: f64,
}
