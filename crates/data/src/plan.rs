//! What the data crate is asked to do: the `[data]` and `[features]` plan that config validates
//! from the experiment file and the readers, preparation and streaming carry out. The types
//! live here, below config, so that reading data needs no experiment parser; config builds them
//! (config/data_plan.rs and its neighbours) and checks every key.

use std::collections::BTreeMap;
use std::path::PathBuf;

pub const DEFAULT_TEST_FRACTION: f64 = 0.2;

#[derive(Debug, Clone, PartialEq)]
pub struct DataPlan {
    pub source: DataSource,
    pub target: String,
    /// Feature columns; `None` means every numeric column but the target (and the key).
    pub features: Option<Vec<String>>,
    /// `[data] id`: a key column written beside each test row's predictions, never a feature.
    pub id: Option<String>,
    /// The label value that is class 1, as text; `None` means 0/1, false/true or -1/+1.
    pub positive: Option<String>,
    pub standardize: bool,
    pub intercept: bool,
    pub missing: Missing,
    /// Categorical columns, reference levels and indicator columns.
    pub encoding: EncodingPlan,
    /// Applied to the standardised features, before the intercept column.
    pub feature_map: FeatureMap,
    /// The experiment seed (seeds the RBF centres).
    pub seed: u64,
    /// The first method that only handles two classes, if any: then the target must have
    /// exactly two classes (or `positive` must pick one).
    pub binary_method: Option<String>,
    /// `streaming = true`: read the file in chunks instead of loading it.
    pub streaming: Option<Streaming>,
    /// The byte between a CSV's fields (`[data] separator`, default `,`).
    pub separator: u8,
}

impl DataPlan {
    /// The plan a `[data]` table naming only its file(s) and `target` gets: every numeric column
    /// a feature, standardised, with an intercept, missing values an error, no feature map, seed
    /// 0, in memory, comma-separated. For the benchmark and tests, which set what they vary.
    pub fn defaults(source: DataSource, target: &str) -> DataPlan {
        DataPlan {
            source,
            target: target.to_string(),
            features: None,
            id: None,
            positive: None,
            standardize: true,
            intercept: true,
            missing: Missing::Error,
            encoding: Default::default(),
            feature_map: FeatureMap::Identity,
            seed: 0,
            binary_method: None,
            streaming: None,
            separator: b',',
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum DataSource {
    /// One file, split into train and test rows.
    Single { path: PathBuf, split: Split },
    /// Separate train and test files.
    TrainTest { train: PathBuf, test: PathBuf },
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Split {
    /// Row i (0-based, in file order) is a test row when i % every == offset.
    Every { every: usize, offset: usize },
    /// A seeded random subset of round(test_fraction * N) rows is the test set.
    Fraction { test_fraction: f64, seed: u64 },
    /// Each row independently, with probability test_fraction, decided by a hash of
    /// (seed, row index): one pass, no row count needed (the form streaming uses).
    Hash { test_fraction: f64, seed: u64 },
    /// K-fold cross-validation (config/folds.rs): the rows are dealt into `folds` folds by a
    /// seeded shuffle (within each class when `stratify`), `repeats` times with different
    /// shuffles, and fold `fold` (0..folds x repeats; repeat fold / folds) is the test set.
    Folds(Folds),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Missing {
    Error,
    Drop,
    /// Numeric features: the training mean; categorical ones: the most frequent training level.
    Mean,
    /// Numeric features: the training median; categorical ones: the most frequent training level.
    Median,
    /// A categorical feature's missing cells are its own level, `missing`; a numeric feature
    /// with missing cells is an error (it has no level to be).
    Level,
}

impl Missing {
    pub const NAMES: [&'static str; 5] = ["error", "drop", "mean", "median", "level"];

    pub fn name(self) -> &'static str {
        match self {
            Missing::Error => "error",
            Missing::Drop => "drop",
            Missing::Mean => "mean",
            Missing::Median => "median",
            Missing::Level => "level",
        }
    }

    /// Whether missing feature cells are filled in (the row is kept) rather than refused or dropped.
    pub fn fills(self) -> bool {
        matches!(self, Missing::Mean | Missing::Median | Missing::Level)
    }
}

/// Rows per chunk when `chunk_rows` is not given: 65,536 rows of 50 f64 features are 26 MiB.
pub const DEFAULT_CHUNK_ROWS: usize = 65_536;

/// How a streamed experiment reads its data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Streaming {
    pub chunk_rows: usize,
    /// The memory budget in bytes: checked against the estimated working set before the first
    /// pass.
    pub max_memory: Option<u64>,
    /// Whether the first pass over the training rows keeps their design rows in a binary
    /// cache file that later passes read instead of decoding the data file again.
    pub cache: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub enum FeatureMap {
    /// The standardised features themselves.
    Identity,
    /// Every monomial of total degree 1..=degree (interactions included).
    Poly { degree: usize },
    /// exp(-||x - c||^2 / (2 width^2)) for each centre c.
    Rbf { centres: Centres, width: f64 },
}

impl FeatureMap {
    pub fn name(&self) -> &'static str {
        match self {
            FeatureMap::Identity => "none",
            FeatureMap::Poly { .. } => "poly",
            FeatureMap::Rbf { .. } => "rbf",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Centres {
    /// `points` values per feature spanning its training range; points^D centres.
    Grid { points: usize },
    /// k distinct training rows drawn with the experiment seed.
    Sample { k: usize },
}

/// Default `[data] max_levels`: more distinct values than this is probably an identifier.
pub const DEFAULT_MAX_LEVELS: usize = 50;

/// How categorical columns and imputed features are encoded.
#[derive(Debug, Clone, PartialEq)]
pub struct EncodingPlan {
    /// Columns read as categorical whatever their type (text and boolean ones are anyway).
    pub categorical: Vec<String>,
    /// (column, level) pairs: the level left out of the column's indicators.
    pub reference: BTreeMap<String, String>,
    pub max_levels: usize,
    pub unseen: Unseen,
    /// One 0/1 design column `column=missing` per imputed feature.
    pub missing_indicator: bool,
    /// Standardise indicator columns like the numeric ones (default: left as 0/1).
    pub standardise_indicators: bool,
}

impl Default for EncodingPlan {
    fn default() -> Self {
        EncodingPlan {
            categorical: Vec::new(),
            reference: BTreeMap::new(),
            max_levels: DEFAULT_MAX_LEVELS,
            unseen: Unseen::Error,
            missing_indicator: false,
            standardise_indicators: false,
        }
    }
}

/// `[data] unseen_levels`: what a level met only in the test rows does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unseen {
    /// Refuse the data, naming the column and the level.
    Error,
    /// All-zero indicators (the row is coded as the reference level), with a note.
    Zero,
}

impl Unseen {
    pub fn name(self) -> &'static str {
        match self {
            Unseen::Error => "error",
            Unseen::Zero => "zero",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Folds {
    pub folds: usize,
    pub repeats: usize,
    /// The test fold, 0..folds x repeats.
    pub fold: usize,
    pub seed: u64,
    pub stratify: bool,
}

/// The memory one setting may claim: the same 512 MiB as the feature map's budget.
pub const MEMORY_BUDGET_BYTES: u64 = 512 << 20;

/// The widest design: its columns x columns Hessian or posterior covariance (8 bytes a number)
/// fills [`MEMORY_BUDGET_BYTES`] at 8,192 columns. A fit holds a few such matrices at once.
pub const MAX_DESIGN_COLUMNS: u64 = 8192;
