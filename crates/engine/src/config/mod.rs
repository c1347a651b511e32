//! Experiment files: parse the TOML into a serde mirror ([`raw`]), then validate it into a
//! [`Plan`] ([`plan`]). Errors name the file, the key and the fix.

mod brackets;
mod ctx;
mod data_plan;
pub mod encoding;
mod features;
pub mod folds;
pub mod limits;
mod loo_keys;
mod method_options;
mod method_plan;
pub mod plan;
pub mod posterior;
pub mod raw;
mod resolve;
pub mod streaming;
mod streaming_rules;
mod suggest;
pub mod sweep;

use std::path::Path;

pub use encoding::{EncodingPlan, Unseen};
pub use plan::{
    Centres, ClassPrior, DataPlan, DataSource, Evaluation, FeatureMap, MethodPlan, MethodSpec,
    Missing, Optimizer, Options, Plan, Prior, Split, Streaming,
};
pub use posterior::{PosteriorKind, PosteriorPlan, PosteriorSource, Subset};
pub use suggest::{did_you_mean, nearest};

use bayeslab_core::error::{Error, Result};

/// Read, parse and validate the experiment file at `path`.
pub fn load(path: &Path) -> Result<Plan> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::config(path, format!("cannot read the experiment file: {e}")))?;
    parse(&text, path)
}

/// Parse and validate experiment text as if it were read from `path`.
pub fn parse(text: &str, path: &Path) -> Result<Plan> {
    let empty = toml::Table::new();
    let bad = |e: toml::de::Error, doc: &toml::Table| {
        Error::config(path, suggest::enrich_unknown_field(&e.to_string(), doc))
    };
    let mut doc: toml::Table = toml::from_str(text).map_err(|e| bad(e, &empty))?;
    brackets::check(&doc, text, path)?;
    folds::inject_sweep(&mut doc, &ctx::Ctx::new(path))?;
    let sweep = sweep::extract(&mut doc, path)?;
    // Re-parse the text without [sweep] (rather than converting `doc`) so that errors keep
    // their line and column.
    let raw: raw::RawExperiment = if sweep.is_some() {
        toml::Value::Table(doc.clone())
            .try_into()
            .map_err(|e| bad(e, &doc))?
    } else {
        toml::from_str(text).map_err(|e| bad(e, &doc))?
    };
    let mut plan = Plan::from_raw(raw, path)?;
    if let (Some(s), Some(_)) = (&sweep, plan.data.as_ref().and_then(|d| d.streaming)) {
        return Err(Error::config(
            path,
            format!(
                "[sweep] over {} with [data] streaming = true is not supported: each value would stream the file \
                 again into its own run directory; write one experiment per value instead",
                s.key
            ),
        ));
    }
    plan.sweep = sweep;
    Ok(plan)
}
