//! results.json `streaming`: how a streamed run read its data file, pass by pass.

use serde::Serialize;

pub use crate::data::ReadFrom;

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
    pub purpose: String,
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
