//! What the encodings did to the raw columns (issue 17), in a form the record stores and every
//! view shows: each categorical column's levels with their counts and the reference level left
//! out, and each imputed column's fill value with how many cells it filled. The loader (in
//! memory or streamed) fills it; it holds no state the encoding itself needs.

use serde::Serialize;

/// Every categorical expansion and imputation of one dataset; empty for an all-numeric table
/// without missing values.
#[derive(Debug, Clone, Default, PartialEq, Serialize, schemars::JsonSchema)]
pub struct EncodingInfo {
    pub categorical: Vec<CategoricalInfo>,
    pub imputed: Vec<ImputedInfo>,
}

impl EncodingInfo {
    pub fn is_empty(&self) -> bool {
        self.categorical.is_empty() && self.imputed.is_empty()
    }
}

/// One categorical feature expanded into treatment-coded indicator columns.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct CategoricalInfo {
    pub column: String,
    /// Every level learned from the training rows, in sorted order, the reference included.
    pub levels: Vec<LevelCount>,
    /// The level without an indicator column (the first in sorted order unless
    /// `[data] reference` names another).
    pub reference: String,
    /// Design-matrix columns `column=level`, one per level other than the reference.
    pub design_columns: Vec<String>,
}

/// A level and its rows among the training and the test rows used.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct LevelCount {
    pub level: String,
    pub train: usize,
    pub test: usize,
}

/// One feature whose missing cells were filled from the training rows.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ImputedInfo {
    pub column: String,
    /// `mean`, `median`, `most_frequent` (categorical) or `level` (missing as its own level).
    pub strategy: String,
    /// The fill value: a number for numeric columns, the level's name for categorical ones.
    pub value: String,
    /// Cells filled among the training and the test rows used.
    pub filled_train: usize,
    pub filled_test: usize,
    /// The design column marking imputed rows (`missing_indicator = true`), if any.
    pub indicator: Option<String>,
}

/// Summary statistics of one unstandardised design column (a numeric feature, filled as the
/// encoding says, or an indicator) on the training rows; `missing` counts its source column's
/// missing cells in the whole (training) file.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct FeatureSummary {
    pub name: String,
    pub mean: f64,
    pub sd: f64,
    pub min: f64,
    pub max: f64,
    pub missing: usize,
}
