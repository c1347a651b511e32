//! Experiment files: parse the TOML into a serde mirror ([`raw`]), then validate it into a
//! [`Plan`] ([`plan`]). Errors name the file, the key and the fix.

mod features;
mod method_options;
pub mod plan;
pub mod raw;
mod suggest;

use std::path::Path;

pub use plan::{
    Centres, ClassPrior, DataPlan, DataSource, Evaluation, FeatureMap, MethodOptions, MethodPlan,
    Missing, Optimizer, Plan, Prior, Split,
};
pub use suggest::{did_you_mean, nearest};

use crate::error::{Error, Result};

/// Read, parse and validate the experiment file at `path`.
pub fn load(path: &Path) -> Result<Plan> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::config(path, format!("cannot read the experiment file: {e}")))?;
    parse(&text, path)
}

/// Parse and validate experiment text as if it were read from `path`.
pub fn parse(text: &str, path: &Path) -> Result<Plan> {
    let raw: raw::RawExperiment = toml::from_str(text)
        .map_err(|e| Error::config(path, suggest::enrich_unknown_field(&e.to_string())))?;
    Plan::from_raw(raw, path)
}
