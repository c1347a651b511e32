//! `[data]`: where the rows come from, how they are split into train and test, and how the
//! columns are prepared.

use super::ctx::Ctx;
use super::encoding::encoding_plan;
use super::features::FeatureMap;
use super::raw::{RawData, RawSplit};
use super::suggest::did_you_mean;
use bayeslab_core::error::Result;
pub use bayeslab_data::plan::{DataPlan, DataSource, Missing, Split, DEFAULT_TEST_FRACTION};

pub(super) fn data_plan(ctx: &Ctx<'_>, raw: RawData, seed: u64) -> Result<DataPlan> {
    let streaming = super::streaming::streaming(ctx, &raw)?;
    let source = match (&raw.path, &raw.train, &raw.test) {
        (Some(path), None, None) => {
            let path = ctx.path("[data] path", path)?;
            let split = split_plan(ctx, raw.split.clone().unwrap_or_default(), seed)?;
            DataSource::Single { path, split }
        }
        (None, Some(train), Some(test)) => {
            if raw.split.is_some() {
                return Err(ctx.err(
                    "[data] split is set together with separate train and test files; remove `split`",
                ));
            }
            DataSource::TrainTest {
                train: ctx.path("[data] train", train)?,
                test: ctx.path("[data] test", test)?,
            }
        }
        (None, None, None) => {
            return Err(ctx.err(
                "[data] needs `path = \"...\"` (one file, split into train and test) or both `train` and `test`",
            ))
        }
        _ => {
            return Err(ctx.err(
                "[data] give either `path` alone or both `train` and `test`, not a mixture",
            ))
        }
    };
    let missing = match Missing::NAMES
        .iter()
        .position(|n| *n == raw.missing.as_deref().unwrap_or("error"))
    {
        Some(i) => [
            Missing::Error,
            Missing::Drop,
            Missing::Mean,
            Missing::Median,
            Missing::Level,
        ][i],
        None => {
            let other = raw.missing.as_deref().unwrap_or_default();
            return Err(ctx.err(format!(
                "[data] missing = \"{other}\": expected \"error\", \"drop\", \"mean\", \"median\" or \"level\"{}",
                did_you_mean(other, Missing::NAMES)
            )));
        }
    };
    if missing == Missing::Median && streaming.is_some() {
        return Err(ctx.err(
            "[data] missing = \"median\" needs every training value of a column at once, which streaming = true does not keep; \
             use missing = \"mean\" (its statistics pass computes the mean) or set streaming = false",
        ));
    }
    let encoding = encoding_plan(
        ctx,
        &raw,
        matches!(missing, Missing::Mean | Missing::Median),
    )?;
    if raw.target.is_empty() {
        return Err(ctx.err("[data] target is empty: name the label column"));
    }
    if let Some(f) = &raw.features {
        if f.is_empty() {
            return Err(ctx.err("[data] features = []: list at least one column, or remove the key to use every numeric column"));
        }
        if let Some((i, c)) = f.iter().enumerate().find(|(i, c)| f[..*i].contains(c)) {
            return Err(ctx.err(format!(
                "[data] features lists \"{c}\" twice (entries {} and {}): a column is one design column; remove the repeat",
                f.iter().position(|x| x == c).unwrap_or(0) + 1,
                i + 1
            )));
        }
        if f.iter().any(|c| c == &raw.target) {
            return Err(ctx.err(format!(
                "[data] features contains the target column \"{}\"",
                raw.target
            )));
        }
    }
    check_id(ctx, &raw, streaming.is_some())?;
    Ok(DataPlan {
        streaming,
        source,
        target: raw.target,
        features: raw.features,
        id: raw.id,
        positive: raw.positive.map(|p| p.to_string()),
        standardize: raw.standardize.unwrap_or(true),
        intercept: raw.intercept.unwrap_or(true),
        missing,
        encoding,
        feature_map: FeatureMap::Identity,
        seed,
        binary_method: None,
        separator: separator(ctx, raw.separator.as_deref())?,
    })
}

/// `[data] id`: a column other than the target and the features, in memory (a streamed file's
/// predictions are written chunk by chunk, without the key), whose name cannot be read as a
/// prediction column of predictions.csv.
fn check_id(ctx: &Ctx<'_>, raw: &RawData, streaming: bool) -> Result<()> {
    let Some(id) = &raw.id else { return Ok(()) };
    let why = if id.is_empty() {
        Some("is empty: name the key column, or remove the key".to_string())
    } else if id == &raw.target {
        Some("is the target column: name the column that identifies each row".to_string())
    } else if raw.features.as_ref().is_some_and(|f| f.contains(id)) {
        Some(
            "is also in [data] features: a key is not a feature; remove it from features"
                .to_string(),
        )
    } else if id.contains('/') || matches!(id.as_str(), "row" | "y" | "data_row") {
        Some("cannot head a column of predictions.csv (a name with '/', or row, y, data_row); rename the column in the data file".to_string())
    } else if streaming {
        Some("is not written for streaming = true (its predictions go out chunk by chunk); remove the key, and join on predictions.csv's data_row".to_string())
    } else {
        None
    };
    match why {
        Some(why) => Err(ctx.err(format!("[data] id = {id:?} {why}"))),
        None => Ok(()),
    }
}

/// `[data] separator`: one ASCII character other than a quote or a line end.
fn separator(ctx: &Ctx<'_>, raw: Option<&str>) -> Result<u8> {
    match raw.map(str::as_bytes) {
        None => Ok(b','),
        Some(&[c]) if c.is_ascii() && !matches!(c, b'"' | b'\n' | b'\r') => Ok(c),
        Some(_) => Err(ctx.err(format!(
            "[data] separator = {:?}: must be one character such as \",\", \";\", \"|\" or \"\\t\" (tab)",
            raw.unwrap_or_default()
        ))),
    }
}

fn split_plan(ctx: &Ctx<'_>, raw: RawSplit, seed: u64) -> Result<Split> {
    if raw.folds.is_some() || raw.fold.is_some() || raw.stratify.is_some() || raw.repeats.is_some()
    {
        return super::folds::folds_plan(ctx, raw, seed).map(Split::Folds);
    }
    match raw {
        RawSplit { every: Some(every), offset, test_fraction: None, seed: None, draw: None, .. } => {
            let every = ctx.count("[data] split.every", every, 2)?;
            let offset = offset.unwrap_or(0) as usize;
            if offset >= every {
                return Err(ctx.err(format!(
                    "[data] split.offset = {offset}: must be less than split.every = {every}"
                )));
            }
            Ok(Split::Every { every, offset })
        }
        RawSplit { every: None, offset: None, test_fraction, seed: split_seed, draw, .. } => {
            let f = test_fraction.unwrap_or(DEFAULT_TEST_FRACTION);
            if !(f > 0.0 && f < 1.0) {
                return Err(ctx.err(format!(
                    "[data] split.test_fraction = {f}: must be strictly between 0 and 1"
                )));
            }
            let seed = split_seed.unwrap_or(seed);
            match draw.as_deref().unwrap_or("shuffle") {
                "shuffle" => Ok(Split::Fraction { test_fraction: f, seed }),
                "hash" => Ok(Split::Hash { test_fraction: f, seed }),
                other => Err(ctx.err(format!(
                    "[data] split.draw = \"{other}\": expected \"shuffle\" (exactly round(F N) test rows) or \"hash\" \
                     (each row by a hash of the seed and its row number){}",
                    did_you_mean(other, ["shuffle", "hash"])
                ))),
            }
        }
        RawSplit { every: Some(_), draw: Some(_), .. } => Err(ctx.err(
            "[data] split.draw only applies with test_fraction; { every = K, offset = J } is already decided row by row",
        )),
        RawSplit { every: None, offset: Some(offset), test_fraction: None, .. } => Err(ctx.err(format!(
            "[data] split.offset = {offset} only applies with split.every: write {{ every = K, offset = {offset} }} \
             (test rows are those whose row number modulo K is {offset})"
        ))),
        _ => Err(ctx.err(
            "[data] split: use either { every = K, offset = J } or { test_fraction = F, seed = S }, not both",
        )),
    }
}
