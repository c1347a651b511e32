//! The run record: one serialisable value that every output (results.json, the CSVs, the
//! Markdown report, the TUI tables) is a view of. Field names are part of the output
//! contract documented in docs/reference/outputs.md and checked against the JSON Schema
//! that `bayeslab docs` derives from these types (docs/reference/generated/results.schema.json);
//! keep them stable.
//!
//! Every type a builder wants to store lives here, in the core crate, below everything that
//! builds or shows a record (the layers: docs/development/architecture.md).

use serde::Serialize;

mod approximation;
mod chains;
mod comparison;
mod draws;
mod encoding;
mod evidence;
mod input_space;
mod lab;
mod loo;
mod picture;
mod predictions;
mod preparation;
mod provenance;
mod run;
mod steps;
mod streaming;
mod sweep;

pub use approximation::ApproximationError;
pub use chains::{ChainWeight, ChainsRecord};
pub use comparison::{Comparison, Standing, Verdict, VersusBest};
pub use draws::DrawsExport;
pub use encoding::{CategoricalInfo, EncodingInfo, FeatureSummary, ImputedInfo, LevelCount};
pub use evidence::EvidenceEstimate;
pub use input_space::{InputSpace, PairChoice, Surface};
pub use lab::{
    ApproxKind, ApproxResult, Curves, GiniResult, GiniSummary, Integration, ModeRecord,
    PosteriorResult, Summary,
};
pub use loo::{compare_loo, KCounts, LooComparison, LooDifference, LooDraws, LooPoint, LooRecord};
pub use picture::{ExactContours, ExactSource, PairDensity};
pub use predictions::{
    csv_header, csv_rows, PredictionColumn, PredictionTable, PredictionsFile, Rows, Scores,
};
pub use preparation::{ColumnCode, FeatureCode, Preparation};
pub use provenance::Provenance;
pub use run::{
    Diagnostics, EvidencePoint, FitPassTimes, GridEdge, HmcDiagnostics, PosteriorRecord,
    PredictiveRecord, RunRecord, TraceRow, WeightDiagnostics,
};
pub use steps::{FitStep, FitSteps, SiteUpdate, StepKind, STEPS_MAX, STEPS_MAX_WEIGHTS};
pub use streaming::{PassPurpose, PassRecord, ReadFrom, RunPasses, StreamingRecord};
pub use sweep::{Outcome, SweepPoint, SweepRecord};

use crate::metrics::Binning;

pub const SCHEMA_VERSION: u32 = 1;

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct ExperimentRecord {
    pub schema_version: u32,
    pub experiment: ExperimentInfo,
    pub dataset: DatasetInfo,
    pub runs: Vec<RunRecord>,
    pub provenance: Provenance,
    /// The paired comparison with `baseline`, when the experiment names one.
    pub comparison: Option<ComparisonRecord>,
    /// Every predictive against the best one per metric (log-loss, Brier, ECE), by the paired
    /// bootstrap over the test rows: what a "best" mark in a view rests on. Empty with fewer
    /// than two predictives or predictions not held in memory (a streamed run).
    pub versus_best: Vec<VersusBest>,
    /// Each approximation against the gold standard (a `gibbs-*` run) of the same experiment;
    /// empty without a successful gold run.
    pub approximation_error: Vec<ApproximationError>,
    /// ln p(y | X) by importance sampling, one entry per binary likelihood (logistic, probit)
    /// fitted with a Gaussian posterior; empty when `[evaluation] evidence_draws` is 0 (the
    /// default without a gold run).
    pub evidence: Vec<EvidenceEstimate>,
    /// The runs with a leave-one-out estimate, best elpd_loo first, each with its difference to
    /// the best and the paired standard error of that difference.
    pub loo_comparison: Vec<LooComparison>,
    /// The approximation lab: one entry per `[[posterior]]` and subset size.
    pub posteriors: Vec<PosteriorResult>,
    /// Every test row's label and predictions (predictions.csv), which the CSV writer,
    /// `compare` and the gold comparison read; a streamed run's rows are already in a file.
    #[serde(skip)]
    pub predictions: PredictionTable,
    /// Every observed iteration of every run (trace.csv).
    #[serde(skip)]
    pub trace: Vec<TraceRow>,
    /// `[data] streaming = true`: chunks, passes and the time of each (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub streaming: Option<StreamingRecord>,
    /// The input-space picture's grid predictions, points and sampled boundaries (absent for
    /// an experiment without two features held in memory).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input_space: Option<InputSpace>,
    /// The input-space picture of the further pairs among the first four varying features
    /// (the workbench's `[`/`]`; the reports draw `input_space` only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub input_space_pairs: Vec<InputSpace>,
    /// Without a quadrature run: the weight-space picture's exact contours from a gold run's
    /// draws or a slice through the mode (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact_contours: Option<ExactContours>,
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct ComparisonRecord {
    /// The baseline run directory (A); this run is B.
    pub baseline: String,
    pub resamples: usize,
    pub rows: Vec<Comparison>,
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
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

#[derive(Debug, Clone, Default, Serialize, schemars::JsonSchema)]
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
    /// Rows of each class, in `classes` order, among the training and the test rows used.
    pub class_counts_train: Vec<usize>,
    pub class_counts_test: Vec<usize>,
    pub summaries: Vec<FeatureSummary>,
    /// Categorical expansions and imputations (issue 17); empty lists for an all-numeric table
    /// without missing values.
    pub encoding: EncodingInfo,
    /// How each design column but the intercept was standardised: design = (x - centre) /
    /// scale, the training rows' mean and sd (an unstandardised column has centre 0, scale 1;
    /// a constant one is only centred). `null` when a feature map made the design columns, which
    /// then have no original units.
    pub standardisation: Option<Vec<ColumnScaling>>,
    /// The preparation's learned state, for `bayeslab predict` (absent with a feature map).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preparation: Option<Preparation>,
    pub notes: Vec<String>,
    /// `[data] standardize`: each numeric design column was centred and divided by its
    /// training standard deviation, so the weights are per standard deviation of their column.
    pub standardized: bool,
}

impl DatasetInfo {
    /// The scale every weight is on, for each view that shows weights.
    pub fn weights_scale(&self) -> &'static str {
        match self.standardized {
            true => "standardised scale: per training standard deviation of each numeric column",
            false => "original units of each design column",
        }
    }

    /// [`Self::weights_scale`] in two words, for a title or a border.
    pub fn weights_scale_short(&self) -> &'static str {
        match self.standardized {
            true => "standardised scale",
            false => "original units",
        }
    }
}

/// One design column's standardisation: design = (x - centre) / scale.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct ColumnScaling {
    pub column: String,
    pub centre: f64,
    pub scale: f64,
}

impl ExperimentRecord {
    /// The standing of `<run>/<predictive>` on `metric` (a name of `compare::METRICS`).
    pub fn standing(&self, run: &str, predictive: &str, metric: &str) -> Option<&VersusBest> {
        self.versus_best
            .iter()
            .find(|v| v.run == run && v.predictive == predictive && v.metric == metric)
    }

    pub fn failed_runs(&self) -> impl Iterator<Item = &RunRecord> {
        self.runs.iter().filter(|r| r.error.is_some())
    }
}
