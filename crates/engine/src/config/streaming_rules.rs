//! The experiment settings that cannot work without every row in memory, checked when
//! `[data] streaming = true`.

use super::ctx::Ctx;
use super::data_plan::{DataSource, Split};
use super::method_plan::MethodPlan;
use bayeslab_core::catalog::MethodKind;
use bayeslab_core::error::Result;
use bayeslab_core::metrics::Binning;
use bayeslab_core::model::spec::Optimizer;

/// What streaming cannot do, named with the fix: a method that needs every row at once, a
/// split that needs the row count, and the evaluation settings that sort or resample every
/// prediction.
pub(super) fn check(
    ctx: &Ctx<'_>,
    source: &DataSource,
    methods: &[MethodPlan],
    evidence: bool,
    binning: Binning,
    baseline: bool,
) -> Result<()> {
    const WHY: &str = "[data] streaming = true";
    for (i, m) in methods.iter().enumerate() {
        let at = format!("[[method]] #{} (id \"{}\")", i + 1, m.id);
        if !m.kind.streams() {
            return Err(ctx.err(format!(
                "{at}: kind = \"{}\" cannot be fitted chunk by chunk; with {WHY} the kinds are {}. \
                 Remove this method or set streaming = false to load the data into memory",
                m.kind.name(),
                super::suggest::and_list(MethodKind::ALL.iter().filter(|k| k.streams()).map(|k| k.name()))
            )));
        }
        if let Optimizer::Gradient { .. } = m.optimizer {
            return Err(ctx.err(format!(
                "{at}: optimizer = \"gradient\" would read the file once per iteration (thousands of passes); \
                 with {WHY} use optimizer = \"newton\" (one pass per step)"
            )));
        }
    }
    if let DataSource::Single {
        split: Split::Fraction { test_fraction, .. },
        ..
    } = source
    {
        return Err(ctx.err(format!(
            "[data] split = {{ test_fraction = {test_fraction} }} shuffles the row numbers of the whole file, \
             which {WHY} cannot do in one pass; add draw = \"hash\" to the split (each row is a test row with \
             probability {test_fraction}, decided by a hash of the seed and its row number) or use \
             split = {{ every = 5, offset = 4 }}"
        )));
    }
    if let DataSource::Single {
        split: Split::Folds(_),
        ..
    } = source
    {
        return Err(ctx.err(format!(
            "[data] split.folds deals the rows into folds by a shuffle of the whole file, which {WHY} cannot do \
             in one pass; set streaming = false (K-fold needs the rows in memory) or use split = {{ every = 5, offset = 4 }}"
        )));
    }
    if evidence {
        return Err(ctx.err(format!(
            "[prior] precision = \"evidence\" refits every method at 40 values of lambda, 40 times the passes over the file; \
             with {WHY} give a number"
        )));
    }
    if binning == Binning::EqualMass {
        return Err(ctx.err(format!(
            "[evaluation] calibration_binning = \"equal-mass\" sorts every test prediction; with {WHY} use \"equal-width\""
        )));
    }
    if baseline {
        return Err(ctx.err(format!(
            "baseline compares every test prediction in memory, which {WHY} does not keep; remove `baseline` and run \
             `bayeslab compare BASELINE_DIR RUN_DIR` on the two run directories instead"
        )));
    }
    Ok(())
}
