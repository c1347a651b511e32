//! `[data] split = { folds = K, seed = S, stratify = true, repeats = R }`: K-fold
//! cross-validation. Every fold is the test set once, the other K - 1 the training rows, so
//! every row is scored exactly once per repeat. An experiment with `folds` and no `fold` runs
//! as a sweep over `data.split.fold` = 0, 1, ..., K R - 1 ([`inject_sweep`]): each fold is a
//! whole run with its own run directory, and the sweep's report adds each metric's mean and
//! standard error over the folds (output/folds.rs). `fold = k` runs fold k alone.

use toml::{Table, Value};

use super::ctx::Ctx;
use super::raw::RawSplit;
use bayeslab_core::error::Result;
pub use bayeslab_data::plan::Folds;

/// The sweep key that runs every fold.
pub const FOLD_KEY: &str = "data.split.fold";

/// The most folds and repeats: each fold is a whole run.
pub const MAX_FOLDS: u64 = 100;
pub const MAX_REPEATS: u64 = 100;

/// The resolved `split` table of `folds` (every default filled in).
pub fn to_raw(folds: Folds) -> RawSplit {
    RawSplit {
        folds: Some(folds.folds as u64),
        fold: Some(folds.fold as u64),
        seed: Some(folds.seed),
        stratify: Some(folds.stratify),
        repeats: Some(folds.repeats as u64),
        ..RawSplit::default()
    }
}

/// Validate a `split` table that uses `folds`.
pub(super) fn folds_plan(ctx: &Ctx<'_>, raw: RawSplit, seed: u64) -> Result<Folds> {
    if raw.every.is_some()
        || raw.offset.is_some()
        || raw.test_fraction.is_some()
        || raw.draw.is_some()
    {
        return Err(ctx.err(
            "[data] split: folds (K-fold cross-validation) cannot be combined with every, offset, test_fraction or draw; \
             use either { folds = K, seed = S } or a single held-out split",
        ));
    }
    let Some(folds) = raw.folds else {
        return Err(ctx.err(
            "[data] split: fold, stratify and repeats need folds = K, e.g. split = { folds = 5, seed = 1 }",
        ));
    };
    if !(2..=MAX_FOLDS).contains(&folds) {
        return Err(ctx.err(format!(
            "[data] split.folds = {folds}: must be from 2 to {MAX_FOLDS} (each fold is a whole run; 5 or 10 is usual)"
        )));
    }
    let repeats = raw.repeats.unwrap_or(1);
    if !(1..=MAX_REPEATS).contains(&repeats) {
        return Err(ctx.err(format!(
            "[data] split.repeats = {repeats}: must be from 1 to {MAX_REPEATS} (the number of different partitions into folds)"
        )));
    }
    let all = folds * repeats;
    let fold = raw.fold.unwrap_or(0);
    if fold >= all {
        return Err(ctx.err(format!(
            "[data] split.fold = {fold}: must be less than folds × repeats = {all} (fold k of repeat r is r × {folds} + k)"
        )));
    }
    Ok(Folds {
        folds: folds as usize,
        repeats: repeats as usize,
        fold: fold as usize,
        seed: raw.seed.unwrap_or(seed),
        stratify: raw.stratify.unwrap_or(true),
    })
}

/// For an experiment whose `[data] split` has `folds` but no `fold`: a `[sweep]` over
/// `data.split.fold` with every fold, put into `doc`. Refused beside a `[sweep]` of its own
/// and with `streaming = true`.
pub(super) fn inject_sweep(doc: &mut Table, ctx: &Ctx<'_>) -> Result<()> {
    let Some(data) = doc.get("data").and_then(Value::as_table) else {
        return Ok(());
    };
    let Some(split) = data.get("split").and_then(Value::as_table) else {
        return Ok(());
    };
    if split.contains_key("fold") {
        return Ok(());
    }
    let (Some(folds), repeats) = (
        split.get("folds").and_then(Value::as_integer),
        split
            .get("repeats")
            .and_then(Value::as_integer)
            .unwrap_or(1),
    ) else {
        return Ok(());
    };
    if data.get("streaming").and_then(Value::as_bool) == Some(true) {
        return Err(ctx.err(
            "[data] split.folds with streaming = true is not supported: each fold would stream the file again; \
             set streaming = false (K-fold needs the rows in memory) or use a single held-out split",
        ));
    }
    if doc.contains_key("sweep") {
        return Err(ctx.err(
            "[data] split.folds runs every fold as a sweep over data.split.fold, so it cannot be combined with [sweep]; \
             remove [sweep], or run one fold with split.fold = k",
        ));
    }
    // Out-of-range counts are left for the split's own check to name.
    if !(2..=MAX_FOLDS as i64).contains(&folds) || !(1..=MAX_REPEATS as i64).contains(&repeats) {
        return Ok(());
    }
    let all: Vec<Value> = (0..folds * repeats).map(Value::Integer).collect();
    let mut fold = Table::new();
    fold.insert("fold".into(), Value::Array(all));
    let mut split = Table::new();
    split.insert("split".into(), Value::Table(fold));
    let mut sweep = Table::new();
    sweep.insert("data".into(), Value::Table(split));
    doc.insert("sweep".into(), Value::Table(sweep));
    Ok(())
}
