//! The serde mirror of a `[[posterior]]` table.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
#[serde(
    expecting = "a [[posterior]] table, e.g.\n[[posterior]]\nkind = \"gamma-poisson\"\ncounts = [3, 1, 4]"
)]
pub struct RawPosterior {
    pub kind: String,
    pub id: Option<String>,
    pub data: Option<RawColumn>,
    pub counts: Option<Vec<i64>>,
    pub successes: Option<i64>,
    pub trials: Option<i64>,
    pub values: Option<Vec<f64>>,
    pub shape: Option<f64>,
    pub rate: Option<f64>,
    pub a: Option<f64>,
    pub b: Option<f64>,
    pub approximations: Option<Vec<String>>,
    pub t_df: Option<f64>,
    pub subset: Option<Vec<RawSubset>>,
    pub draws: Option<u64>,
    pub scale: Option<f64>,
    pub prior_mean: Option<f64>,
    pub prior_sd: Option<f64>,
    pub starts: Option<u64>,
}

/// `data = { path = "...", column = "..." }`, the path relative to the experiment file.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
#[serde(expecting = "a data column such as data = { path = \"incomes.csv\", column = \"income\" }")]
pub struct RawColumn {
    pub path: String,
    pub column: String,
}

/// One entry of `subset = [5, 20, "all"]`.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(untagged)]
#[serde(
    expecting = "subset entries are sizes such as 5 or the word \"all\", e.g. subset = [5, 20, \"all\"]"
)]
pub enum RawSubset {
    Size(i64),
    Word(String),
}
