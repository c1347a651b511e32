//! `[evaluation] loo_draws`, `loo_refits` and `export_draws`: how each run's leave-one-out
//! cross-validation (PSIS-LOO, docs/maths.md §11) draws from an approximation, how many rows it
//! may refit, and whether the draws it used are written out.

use super::ctx::Ctx;
use super::limits::{self, Bound};
use super::raw::RawEvaluation;
use bayeslab_core::error::Result;

/// The most rows one run refits without the row: each refit is a whole fit.
pub const MAX_LOO_REFITS: u64 = 1000;

/// The default `loo_refits`: rows with k above 0.7 refitted per run.
pub const DEFAULT_LOO_REFITS: usize = 10;

/// (`loo_draws`, `loo_refits`) of `[evaluation]`, checked.
pub fn loo_keys(ctx: &Ctx<'_>, raw: &RawEvaluation) -> Result<(Option<usize>, usize)> {
    let draws = match raw.loo_draws {
        None => None,
        Some(v) => Some(ctx.bounded("[evaluation] loo_draws", v, 0, limits::khat_draws())?),
    };
    if let Some(s @ 1..100) = draws {
        return Err(ctx.err(format!(
            "[evaluation] loo_draws = {s}: the Pareto fit of each row's leave-one-out weights needs at least 100 draws \
             (2,200 or more for its k to be judged by the 0.7 threshold; the default is 4000); use 0 to skip LOO"
        )));
    }
    let refits = match raw.loo_refits {
        None => DEFAULT_LOO_REFITS,
        Some(v) => ctx.bounded(
            "[evaluation] loo_refits",
            v,
            0,
            Bound {
                max: MAX_LOO_REFITS,
                why: "each refit is a whole fit without one row; beyond this, use K-fold cross-validation".into(),
            },
        )?,
    };
    Ok((draws, refits))
}

/// `[evaluation] export_draws`: the draws written are those LOO uses, so LOO must run.
pub fn export_draws(ctx: &Ctx<'_>, raw: &RawEvaluation, loo_draws: Option<usize>) -> Result<bool> {
    let export = raw.export_draws.unwrap_or(false);
    if export && loo_draws == Some(0) {
        return Err(ctx.err(
            "[evaluation] export_draws = true writes the draws each run's LOO uses, and loo_draws = 0 turns LOO off; \
             remove loo_draws (or set it to at least 100)",
        ));
    }
    Ok(export)
}
