//! `[data]` keys that say how raw columns become design columns (issue 17): which columns are
//! categorical, their reference levels, the level limit, levels met only in the test rows, and
//! the indicator columns of imputed features. `missing` itself stays in [`super::data_plan`].

use std::collections::BTreeMap;

use super::ctx::Ctx;
use super::raw::RawData;
use super::suggest::did_you_mean;
use bayeslab_core::error::Result;
pub use bayeslab_data::plan::{EncodingPlan, Unseen, DEFAULT_MAX_LEVELS};

/// Validate the encoding keys of `[data]`. `imputes`: `missing` fills cells (mean, median or
/// most frequent), so that `missing_indicator` has something to mark.
pub(super) fn encoding_plan(ctx: &Ctx<'_>, raw: &RawData, imputes: bool) -> Result<EncodingPlan> {
    let categorical = raw.categorical.clone().unwrap_or_default();
    if let Some((i, c)) = categorical
        .iter()
        .enumerate()
        .find(|(i, c)| categorical[..*i].contains(c))
    {
        return Err(ctx.err(format!(
            "[data] categorical lists \"{c}\" twice (entries {} and {}); remove the repeat",
            categorical.iter().position(|x| x == c).unwrap_or(0) + 1,
            i + 1
        )));
    }
    if categorical.iter().any(|c| c == &raw.target) {
        return Err(ctx.err(format!(
            "[data] categorical lists the target column \"{}\"; the target's labels are classes already, remove it",
            raw.target
        )));
    }
    if let (Some(features), Some(c)) = (
        &raw.features,
        categorical
            .iter()
            .find(|c| !raw.features.iter().flatten().any(|f| f == *c)),
    ) {
        return Err(ctx.err(format!(
            "[data] categorical lists \"{c}\", which [data] features = [{}] leaves out; add it to features or remove it from categorical",
            features.iter().map(|f| format!("\"{f}\"")).collect::<Vec<_>>().join(", ")
        )));
    }
    let reference: BTreeMap<String, String> = raw
        .reference
        .iter()
        .flatten()
        .map(|(k, v)| (k.clone(), v.to_string()))
        .collect();
    if let Some(c) = reference.keys().find(|c| *c == &raw.target) {
        return Err(ctx.err(format!(
            "[data] reference names the target column \"{c}\"; for the target use [data] positive"
        )));
    }
    let max_levels = match raw.max_levels {
        None => DEFAULT_MAX_LEVELS,
        Some(v) => ctx.bounded(
            "[data] max_levels",
            v,
            2,
            super::limits::design_columns("a column of L levels makes L - 1 indicator columns", 1),
        )?,
    };
    let unseen = match raw.unseen_levels.as_deref().unwrap_or("error") {
        "error" => Unseen::Error,
        "zero" => Unseen::Zero,
        other => {
            return Err(ctx.err(format!(
                "[data] unseen_levels = \"{other}\": expected \"error\" (a level met only in the test rows is refused) \
                 or \"zero\" (its rows get all-zero indicators, as the reference level){}",
                did_you_mean(other, ["error", "zero"])
            )))
        }
    };
    let missing_indicator = raw.missing_indicator.unwrap_or(false);
    if missing_indicator && !imputes {
        return Err(ctx.err(format!(
            "[data] missing_indicator = true marks imputed cells, but missing = \"{}\" imputes none; \
             set missing = \"mean\" or \"median\", or remove missing_indicator",
            raw.missing.as_deref().unwrap_or("error")
        )));
    }
    Ok(EncodingPlan {
        categorical,
        reference,
        max_levels,
        unseen,
        missing_indicator,
        standardise_indicators: raw.standardise_indicators.unwrap_or(false),
    })
}
