//! results.json `streaming`: how a streamed run read its data file, pass by pass.

use serde::Serialize;

/// Where a pass read its rows: the data file (decoded by polars), or the design cache the
/// first pass over the training rows wrote (`[data] cache`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ReadFrom {
    #[default]
    File,
    Cache,
}

impl ReadFrom {
    pub fn name(self) -> &'static str {
        match self {
            ReadFrom::File => "file",
            ReadFrom::Cache => "cache",
        }
    }
}

/// results.json `streaming`: how the data were read and what each pass cost.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct StreamingRecord {
    pub chunk_rows: usize,
    /// `max_memory` in bytes, when set.
    pub max_memory_bytes: Option<u64>,
    /// The estimated working set of one chunk plus the D x D matrices, checked against
    /// `max_memory` before the first pass.
    pub estimated_bytes: u64,
    /// Bytes of the test predictions kept for AUC (0 when AUC was not computed).
    pub kept_prediction_bytes: u64,
    /// Chunks in one pass over the data file.
    pub chunks_per_pass: usize,
    /// Every pass over the data, in order.
    pub passes: Vec<PassRecord>,
    /// Per method: its fit passes and their mean time.
    pub runs: Vec<RunPasses>,
}

/// One pass: what it was for (`statistics`, `test labels`, `rbf centres`, `fit`, `fit-grad`,
/// `khat`, `evidence`, `predict`), the run it served, and its cost. A logistic or probit fit's
/// `fit` pass computes E, g and the Hessian X^T S X (O(N D^2)); its `fit-grad` pass only E and g
/// (O(N D)), a chord Newton step that reuses an older Hessian's factor; `read_seconds` is the part spent in polars and in turning
/// its columns into design rows (writing the design cache on the way), or for a pass over the
/// cache the time spent waiting for its reading thread; the rest is the model's own work.
/// `read_from` says which: `file` or `cache`.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct PassRecord {
    pub purpose: PassPurpose,
    pub run: Option<String>,
    pub chunks: usize,
    pub rows: usize,
    pub seconds: f64,
    pub read_seconds: f64,
    pub read_from: ReadFrom,
    /// A pass over the cache: CPU seconds of the thread that checked its blocks ahead of the
    /// fit, on the cores the fit shares (absent for a pass over the file; 10 ms resolution).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reader_cpu_seconds: Option<f64>,
}

/// What a pass over a streamed data file was for, serialised as results.json has always
/// written it (`test labels` and `rbf centres` with a space).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, schemars::JsonSchema)]
pub enum PassPurpose {
    /// The training file's statistics: rows, classes, column moments, levels.
    #[serde(rename = "statistics")]
    Statistics,
    /// The statistics of the encoded columns (after imputation and one-hot coding).
    #[serde(rename = "encoded statistics")]
    EncodedStatistics,
    /// The test file's pass: its labels and levels.
    #[serde(rename = "test labels")]
    TestLabels,
    /// The RBF feature map's centres, drawn from the training rows.
    #[serde(rename = "rbf centres")]
    RbfCentres,
    /// A fit's pass with the Hessian (or a kind's only kind of pass).
    #[serde(rename = "fit")]
    Fit,
    /// A GLM fit's pass computing E and g only (chord Newton's cheap pass).
    #[serde(rename = "fit-grad")]
    FitGrad,
    #[serde(rename = "khat")]
    Khat,
    #[serde(rename = "evidence")]
    Evidence,
    #[serde(rename = "predict")]
    Predict,
}

impl PassPurpose {
    pub const ALL: [PassPurpose; 9] = [
        PassPurpose::Statistics,
        PassPurpose::EncodedStatistics,
        PassPurpose::TestLabels,
        PassPurpose::RbfCentres,
        PassPurpose::Fit,
        PassPurpose::FitGrad,
        PassPurpose::Khat,
        PassPurpose::Evidence,
        PassPurpose::Predict,
    ];

    /// The name results.json and every view give it.
    pub fn name(self) -> &'static str {
        match self {
            PassPurpose::Statistics => "statistics",
            PassPurpose::EncodedStatistics => "encoded statistics",
            PassPurpose::TestLabels => "test labels",
            PassPurpose::RbfCentres => "rbf centres",
            PassPurpose::Fit => "fit",
            PassPurpose::FitGrad => "fit-grad",
            PassPurpose::Khat => "khat",
            PassPurpose::Evidence => "evidence",
            PassPurpose::Predict => "predict",
        }
    }
}

impl std::fmt::Display for PassPurpose {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct RunPasses {
    pub run: String,
    /// Every fit pass (`fit` and `fit-grad`).
    pub passes: usize,
    /// Of them, the `fit-grad` passes: E and g without the Hessian.
    pub gradient_passes: usize,
    pub seconds: f64,
    pub seconds_per_pass: f64,
    pub read_seconds_per_pass: f64,
}
