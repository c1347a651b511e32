//! What loading makes: the training and test design matrices with the facts a report needs
//! about them (classes, columns, per-feature summaries, notes).

use std::path::PathBuf;

use faer::Mat;

/// Name of the intercept column in the design matrix.
pub const INTERCEPT: &str = "intercept";

/// One side of the split: the design matrix, class indices (0/1 for a binary target) and each row's 0-based data row in
/// its file.
#[derive(Debug, Clone)]
pub struct Design {
    pub x: Mat<f64>,
    pub y: Vec<f64>,
    pub source_rows: Vec<usize>,
}

impl Design {
    pub fn rows(&self) -> usize {
        self.y.len()
    }

    pub fn positives(&self) -> usize {
        self.y.iter().filter(|&&y| y == 1.0).count()
    }

    /// Rows of each of `classes` classes (y holds the class index).
    pub fn class_counts(&self, classes: usize) -> Vec<usize> {
        let mut counts = vec![0; classes];
        for &y in &self.y {
            if let Some(c) = counts.get_mut(y as usize) {
                *c += 1;
            }
        }
        counts
    }
}

#[derive(Debug, Clone)]
pub struct Dataset {
    pub files: Vec<PathBuf>,
    pub target: String,
    /// Class names in index order (y holds the index); two for a binary target, where index 1
    /// is the positive class.
    pub classes: Vec<String>,
    /// The raw feature columns used, in order (a categorical one is several design columns).
    pub features: Vec<String>,
    /// Design-matrix columns: the intercept first when present, then the features.
    pub columns: Vec<String>,
    pub train: Design,
    pub test: Design,
    /// One per design column but the intercept, over the training rows used.
    pub summaries: Vec<bayeslab_core::record::FeatureSummary>,
    /// Categorical expansions and imputations, for the record.
    pub encoding: bayeslab_core::record::EncodingInfo,
    /// Things the user should know: dropped rows, ignored columns, levels only in test rows.
    pub notes: Vec<String>,
    /// The CSV field separator the files were read with.
    pub separator: u8,
    /// Each raw feature's code, in `features` order (what `bayeslab predict` re-applies).
    pub codes: Vec<bayeslab_core::record::ColumnCode>,
    /// `[data] id`: the key column's name and its value in every test row, in test-row order.
    pub test_key: Option<(String, Vec<String>)>,
    /// Per design column but the intercept, (centre, scale) with design = (x - centre) / scale;
    /// `None` when a feature map made the design columns (they have no original units).
    pub scaling: Option<Vec<(f64, f64)>>,
}

/// (centre, scale) of one design column standardised with the statistics `stats` ((mean, sd)
/// after the encoder's choice for indicators, `None` when not standardising), as
/// [`crate::prepare::standardise`] applies them: a constant column is only centred.
pub fn effective_scaling(stats: Option<(f64, f64)>) -> (f64, f64) {
    match stats {
        None => (0.0, 1.0),
        Some((mean, sd)) if crate::prepare::is_constant(mean, sd) => (mean, 1.0),
        Some(s) => s,
    }
}
