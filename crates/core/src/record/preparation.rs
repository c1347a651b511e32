//! What preparing the rows learnt from the training rows, stored so that `bayeslab predict` can
//! prepare a new table exactly as the run prepared its own: each raw feature's code (a number
//! with its fill value, or its levels with the reference and fill), the unseen-level policy and
//! the file format. The standardisation is `DatasetInfo::standardisation`.

use serde::{Deserialize, Serialize};

/// How one raw column becomes design columns (the data module's encoder applies it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ColumnCode {
    Number {
        /// The value of a missing cell (mean or median of the training rows).
        fill: Option<f64>,
        indicator: bool,
    },
    Levels {
        /// Every training level in order, the reference included.
        levels: Vec<String>,
        reference: usize,
        /// The level a missing cell takes (most frequent, or `missing` itself).
        fill: Option<String>,
        indicator: bool,
    },
}

impl ColumnCode {
    /// The design columns this code makes of its raw column: the value (and its missing
    /// indicator), or a 0/1 column per level but the reference (and the indicator).
    pub fn width(&self) -> usize {
        match self {
            ColumnCode::Number { indicator, .. } => 1 + usize::from(*indicator),
            ColumnCode::Levels {
                levels,
                reference,
                indicator,
                ..
            } => (0..levels.len()).filter(|k| k != reference).count() + usize::from(*indicator),
        }
    }
}

/// One raw feature column and its code.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct FeatureCode {
    pub column: String,
    #[serde(flatten)]
    pub code: ColumnCode,
}

/// results.json `dataset.preparation`: absent when a feature map made the design columns
/// (`predict` then refuses: the map is not stored).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Preparation {
    /// The raw feature columns in order; their design columns follow in `dataset.columns`.
    pub features: Vec<FeatureCode>,
    pub intercept: bool,
    /// `[data] unseen_levels`: "error" refuses a level the training rows did not have, "zero"
    /// codes it as the reference level.
    pub unseen_levels: String,
    /// `[data] separator` of a CSV file.
    pub separator: String,
}
