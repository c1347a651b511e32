//! What to generate (the [`Spec`]), the two parts of a data set, and what was written.

use std::path::PathBuf;

use serde::Serialize;

/// Bytes of x per generated chunk when `chunk_rows` is not given.
pub(super) const CHUNK_BYTES: usize = 32 << 20;

/// What to generate and where.
#[derive(Debug, Clone)]
pub struct Spec {
    pub rows: usize,
    pub features: usize,
    pub seed: u64,
    /// Also write a test set of this many rows from the same weights.
    pub test_rows: Option<usize>,
    /// The training Parquet file, `STEM.parquet`; the other files are named after STEM.
    pub out: PathBuf,
    /// Also write `STEM.X.npy` and `STEM.y.npy`.
    pub npy: bool,
    /// Also write `STEM.csv`.
    pub csv: bool,
    /// Rows generated per chunk; by default about 32 MiB of x. The Parquet row groups have a
    /// fixed size of their own, so the files do not depend on it.
    pub chunk_rows: Option<usize>,
}

/// The training or the test part of a data set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    Train,
    Test,
}

impl Part {
    pub(super) fn label(self) -> &'static str {
        match self {
            Part::Train => "synth/train",
            Part::Test => "synth/test",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Part::Train => "train",
            Part::Test => "test",
        }
    }
}

/// What was written: the contents of `STEM.synth.json`.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    pub schema_version: u32,
    pub seed: u64,
    pub rows: usize,
    pub features: usize,
    pub test_rows: Option<usize>,
    /// The true weights w the labels were drawn with.
    pub weights: Vec<f64>,
    /// Fraction of training rows with y = 1.
    pub positive_fraction: f64,
    pub test_positive_fraction: Option<f64>,
    pub files: Vec<String>,
}
