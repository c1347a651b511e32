//! The run record: one serialisable value that every output (results.json, the CSVs, the
//! Markdown report, the TUI tables) is a view of. Field names are part of the output
//! contract documented in the README; keep them stable.

use serde::Serialize;

use crate::data::FeatureSummary;
use crate::metrics::{Bin, Binning, Metrics};
use crate::optim::{Iterate, Termination};
use crate::provenance::Provenance;

pub const SCHEMA_VERSION: u32 = 1;

#[derive(Debug, Clone, Serialize)]
pub struct ExperimentRecord {
    pub schema_version: u32,
    pub experiment: ExperimentInfo,
    pub dataset: DatasetInfo,
    pub runs: Vec<RunRecord>,
    pub provenance: Provenance,
    /// The paired comparison with `baseline`, when the experiment names one.
    pub comparison: Option<ComparisonRecord>,
    /// Each approximation against the gold standard (a `gibbs-*` run) of the same experiment;
    /// empty without a successful gold run.
    pub approximation_error: Vec<crate::gold::ApproximationError>,
    /// The approximation lab: one entry per `[[posterior]]` and subset size.
    pub posteriors: Vec<crate::lab::PosteriorResult>,
    /// Test labels in test-set order (the `y` column of predictions.csv).
    #[serde(skip)]
    pub test_y: Vec<f64>,
    /// Every observed iteration of every run (trace.csv).
    #[serde(skip)]
    pub trace: Vec<TraceRow>,
    /// `[data] streaming = true`: chunks, passes and the time of each (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub streaming: Option<crate::streaming::StreamingRecord>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ComparisonRecord {
    /// The baseline run directory (A); this run is B.
    pub baseline: String,
    pub resamples: usize,
    pub rows: Vec<crate::compare::Comparison>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ExperimentInfo {
    pub name: String,
    pub seed: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub file: String,
    pub prior_precision: f64,
    /// `[prior] precision = "evidence"`: each run's lambda is its `prior_precision`, chosen by
    /// maximising the Laplace evidence; `prior_precision` above is then only the default.
    pub prior_evidence: bool,
    pub calibration_bins: usize,
    pub calibration_binning: Binning,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct DatasetInfo {
    pub files: Vec<String>,
    pub target: String,
    /// Class names in index order: `y` in predictions.csv is the index, and multiclass runs
    /// write one column `<run>/<predictive>/p<k>` per class k. Two for a binary target.
    pub classes: Vec<String>,
    pub rows_train: usize,
    pub rows_test: usize,
    /// Number of raw feature columns (the intercept not counted).
    pub features: usize,
    /// Design-matrix column names, in weight order (intercept first when present).
    pub columns: Vec<String>,
    pub positives_train: usize,
    pub positives_test: usize,
    pub summaries: Vec<FeatureSummary>,
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct RunRecord {
    pub id: String,
    pub kind: String,
    pub converged: bool,
    pub termination: Option<Termination>,
    pub iterations: usize,
    pub fit_seconds: f64,
    /// The minimised objective E(w) at the returned weights.
    pub objective: Option<f64>,
    /// Why the run produced no results; `null` when it succeeded.
    pub error: Option<String>,
    /// The point estimate (MLE or MAP), in design-matrix column order.
    pub weights: Vec<f64>,
    pub posterior: Option<PosteriorRecord>,
    pub predictives: Vec<PredictiveRecord>,
    /// The prior precision lambda the run used; chosen by evidence maximisation under
    /// `[prior] precision = "evidence"`. `null` for methods without a Gaussian weight prior.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prior_precision: Option<f64>,
    /// Under `[prior] precision = "evidence"`: the Laplace log evidence and the held-out
    /// log-loss (plug-in predictive) on a log grid of lambda.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub evidence_curve: Vec<EvidencePoint>,
    /// Sampler convergence (Gibbs kinds): the largest split-R-hat and smallest bulk ESS over
    /// the weights.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diagnostics: Option<Diagnostics>,
    /// Pareto k-hat of the run's Gaussian posterior used as an importance-sampling proposal
    /// for its model's exact posterior (model/importance.rs); `null` without a Gaussian
    /// posterior or when the importance ratios have no tail to fit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub khat: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EvidencePoint {
    pub precision: f64,
    /// `null` when the fit at this lambda did not converge (then it is not a candidate).
    pub log_evidence: Option<f64>,
    pub test_log_loss: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Diagnostics {
    pub rhat_max: f64,
    pub ess_min: f64,
}

impl Diagnostics {
    /// R-hat above 1.01 means the chains have not mixed (Vehtari et al. 2021).
    pub const RHAT_LIMIT: f64 = 1.01;

    pub fn mixed(&self) -> bool {
        self.rhat_max <= Self::RHAT_LIMIT
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct PosteriorRecord {
    pub mean: Vec<f64>,
    pub cov_diag: Vec<f64>,
    pub log_evidence: Option<f64>,
}

#[derive(Debug, Clone, Serialize)]
pub struct PredictiveRecord {
    pub name: String,
    pub metrics: Metrics,
    pub calibration: Vec<Bin>,
    /// 95 % percentile-bootstrap interval of the ECE over test rows (binary targets).
    pub ece_ci: Option<[f64; 2]>,
    /// p(y = 1) per test row (predictions.csv); for more than two classes the probability of
    /// the most probable class.
    #[serde(skip)]
    pub probabilities: Vec<f64>,
    /// For more than two classes: p(y = k) per test row and class (predictions.csv's
    /// `<run>/<predictive>/p<k>` columns); empty for a binary target.
    #[serde(skip)]
    pub class_probabilities: Vec<Vec<f64>>,
    /// Monte-Carlo standard error of each row's probability (sampling methods; predictions.csv
    /// column `<run>/<predictive>_mcse`); empty otherwise.
    #[serde(skip)]
    pub mcse: Vec<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TraceRow {
    pub run: String,
    #[serde(flatten)]
    pub iterate: Iterate,
}

impl RunRecord {
    /// A run that failed before producing results.
    pub fn failed(id: &str, kind: &str, fit_seconds: f64, error: String) -> Self {
        RunRecord {
            id: id.to_string(),
            kind: kind.to_string(),
            converged: false,
            termination: None,
            iterations: 0,
            fit_seconds,
            objective: None,
            error: Some(error),
            weights: Vec::new(),
            posterior: None,
            predictives: Vec::new(),
            prior_precision: None,
            evidence_curve: Vec::new(),
            diagnostics: None,
            khat: None,
        }
    }
}

impl ExperimentRecord {
    pub fn failed_runs(&self) -> impl Iterator<Item = &RunRecord> {
        self.runs.iter().filter(|r| r.error.is_some())
    }
}
