//! The reproducibility block of every run: what ran, on which data, with which bayeslab, when,
//! and on how many cores (collected by `run/provenance.rs`).

use std::collections::BTreeMap;

use serde::Serialize;

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Provenance {
    pub version: String,
    pub seed: u64,
    /// The resolved experiment (every default filled in) as TOML text.
    pub config: String,
    /// Data file path (as resolved from the experiment file) -> lowercase hex SHA-256.
    pub data_sha256: BTreeMap<String, String>,
    /// When the run finished, RFC 3339 in UTC.
    pub created: String,
    pub cores: usize,
}
