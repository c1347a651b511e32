//! The serde mirror of the experiment TOML. Every table denies unknown keys, so a
//! misspelt key is an error with its line and column rather than a silent default.
//! Only [`super::plan`] consumes these types.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RawExperiment {
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub seed: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline: Option<String>,
    /// Required by `[[method]]`; optional for an experiment with only `[[posterior]]` tables.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<RawData>,
    #[serde(default)]
    pub prior: RawPrior,
    #[serde(default)]
    pub evaluation: RawEvaluation,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub features: Option<RawFeatures>,
    #[serde(default, rename = "method")]
    pub methods: Vec<RawMethod>,
    #[serde(default, rename = "posterior", skip_serializing_if = "Vec::is_empty")]
    pub posteriors: Vec<super::posterior::RawPosterior>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
#[serde(expecting = "a [data] table, e.g.\n[data]\npath = \"data.csv\"\ntarget = \"y\"")]
pub struct RawData {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub train: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub test: Option<String>,
    pub target: String,
    /// A key column written beside each test row's predictions (never a feature).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub features: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub positive: Option<Label>,
    pub standardize: Option<bool>,
    pub intercept: Option<bool>,
    pub missing: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub split: Option<RawSplit>,
    /// Read the file in chunks instead of loading it (see docs/guide/larger-than-memory.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub streaming: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chunk_rows: Option<u64>,
    /// A size such as "1GiB" or "512MB".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_memory: Option<String>,
    /// Keep the first pass's design rows in a binary file that later passes read (default true).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache: Option<bool>,
    /// The character between a CSV's fields: "," (default), ";", "\t", ...
    #[serde(skip_serializing_if = "Option::is_none")]
    pub separator: Option<String>,
    /// Columns read as categorical even when numeric (integer codes such as a class 1/2/3).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub categorical: Option<Vec<String>>,
    /// The reference level (no indicator column) per categorical column.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reference: Option<std::collections::BTreeMap<String, Level>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_levels: Option<u64>,
    /// "error" or "zero": a level seen only in the test rows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unseen_levels: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub missing_indicator: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub standardise_indicators: Option<bool>,
}

/// A label value as written in TOML: `positive = "Yes"`, `positive = 2` or `positive = true`.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(untagged)]
#[serde(
    expecting = "[data] positive names the label of class 1 as text, a whole number or a boolean, e.g. positive = \"Yes\", positive = 2 or positive = true"
)]
pub enum Label {
    Text(String),
    Integer(i64),
    Bool(bool),
}

impl std::fmt::Display for Label {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Label::Text(s) => f.write_str(s),
            Label::Integer(i) => write!(f, "{i}"),
            Label::Bool(b) => write!(f, "{b}"),
        }
    }
}

/// A reference level as written in TOML: `colour = "red"`, `code = 2` or `flag = true`. Its own
/// type so that a wrong one is explained in terms of `[data] reference`, not `positive`.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(untagged)]
#[serde(
    expecting = "[data] reference names each column's reference level as text, a whole number or a boolean, \
                 e.g. reference = { colour = \"red\", code = 2 }; write a level with a decimal point as text, as it \
                 is listed by `bayeslab check`: { dose = \"1.5\" }"
)]
pub enum Level {
    Text(String),
    Integer(i64),
    Bool(bool),
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Level::Text(s) => f.write_str(s),
            Level::Integer(i) => write!(f, "{i}"),
            Level::Bool(b) => write!(f, "{b}"),
        }
    }
}

#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
#[serde(
    expecting = "a split such as { every = 5, offset = 4 } or { test_fraction = 0.2, seed = 1 }"
)]
pub struct RawSplit {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub every: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub test_fraction: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// `"shuffle"` (default) or `"hash"`: how `test_fraction` picks the test rows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draw: Option<String>,
    /// K-fold cross-validation: the number of folds K (config/folds.rs).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub folds: Option<u64>,
    /// Which fold is the test set (0..K x repeats); absent: every fold, one run each.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fold: Option<u64>,
    /// Whether each fold keeps the classes' proportions (default true).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stratify: Option<bool>,
    /// Repeated K-fold: this many different partitions into K folds (default 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repeats: Option<u64>,
}

#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
#[serde(expecting = "a [prior] table, e.g.\n[prior]\nprecision = 1.0")]
pub struct RawPrior {
    pub precision: Option<RawPrecision>,
}

/// `precision = 2.5` or `precision = "evidence"`.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(untagged)]
#[serde(
    expecting = "[prior] precision takes a number >= 0 (the prior w ~ N(0, I / precision), e.g. precision = 2.5) or \"evidence\" (choose it by maximising the Laplace evidence)"
)]
pub enum RawPrecision {
    Value(f64),
    Named(String),
}

/// `[features]`: a map applied to the standardised features.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
#[serde(expecting = "a [features] table, e.g.\n[features]\nmap = \"poly\"\ndegree = 2")]
pub struct RawFeatures {
    pub map: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub degree: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub centres: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub k: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grid_points: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub width: Option<f64>,
}

#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
#[serde(expecting = "an [evaluation] table, e.g.\n[evaluation]\ncalibration_bins = 10")]
pub struct RawEvaluation {
    pub calibration_bins: Option<u64>,
    pub calibration_binning: Option<String>,
    pub resamples: Option<u64>,
    pub khat_draws: Option<u64>,
    pub evidence_draws: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loo_draws: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loo_refits: Option<u64>,
    /// Write each run's posterior draws and per-row log likelihoods to `draws/`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub export_draws: Option<bool>,
    /// Record each fit step by step (models with at most 3 weights): `runs[].steps`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub record_steps: Option<bool>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
#[serde(expecting = "a [[method]] table, e.g.\n[[method]]\nkind = \"logistic-laplace\"")]
pub struct RawMethod {
    pub kind: String,
    pub id: Option<String>,
    pub predictive: Option<Vec<String>>,
    pub optimizer: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub learning_rate: Option<f64>,
    pub max_iter: Option<u64>,
    pub tolerance: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mc_samples: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quadrature_nodes: Option<u64>,
    // Keys only some kinds accept (`bayeslab_core::catalog::OPTION_KEYS`); config/method_options.rs rejects
    // each with a kind whose catalogue row does not list it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub noise: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub damping: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mean_field: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reference_class: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shared_covariance: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub class_prior: Option<Concentration>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mu0: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kappa0: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alpha0: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub beta0: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nu0: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub psi0: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub a: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub b: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub binarize: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chains: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draws: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub burn_in: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thin: Option<u64>,
}

/// A Dirichlet concentration: one number for every class, or one per class.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(untagged)]
#[serde(
    expecting = "class_prior takes one concentration > 0 for every class or one per class, e.g. class_prior = 1.0 or class_prior = [1.0, 2.0]"
)]
pub enum Concentration {
    Symmetric(f64),
    PerClass(Vec<f64>),
}

impl RawMethod {
    /// The keys of [`bayeslab_core::catalog::OPTION_KEYS`] this table sets, in that order. The names
    /// come from serde (the TOML this table would write), so they are the keys as typed.
    pub fn option_keys(&self) -> Vec<&'static str> {
        let written = toml::Table::try_from(self).unwrap_or_default();
        bayeslab_core::catalog::OPTION_KEYS
            .into_iter()
            .filter(|k| written.contains_key(*k))
            .collect()
    }
}

#[cfg(test)]
#[path = "raw_tests.rs"]
mod tests;
