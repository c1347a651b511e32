//! The approximation-error table: every run against the gold standard's exact posterior.

use super::khat::khat_cell;
use super::table::{num, Table};
use bayeslab_core::record::ExperimentRecord;

/// The approximation-error table (one row per run and predictive against its gold run), or
/// `None` when the experiment has no successful gold run.
pub fn approximation_error(r: &ExperimentRecord) -> Option<Table> {
    if r.approximation_error.is_empty() {
        return None;
    }
    let headers = [
        "run",
        "predictive",
        "gold",
        "mean abs Δp",
        "max abs Δp",
        "mean KL",
        "Δ log-loss",
        "Δ ECE",
        "max abs Δmean / sd",
        "sd ratio",
        "k-hat",
    ];
    let signed = |v: f64| format!("{v:+.4}");
    let rows = r
        .approximation_error
        .iter()
        .map(|e| {
            let run = r.runs.iter().find(|run| run.id == e.run);
            vec![
                run.map_or(e.run.as_str().into(), super::metrics::run_cell),
                e.predictive.name().into(),
                e.reference.as_str().into(),
                num(Some(e.mean_abs_diff)).into(),
                num(Some(e.max_abs_diff)).into(),
                format!("{:.2e}", e.mean_kl).into(),
                signed(e.log_loss_diff).into(),
                signed(e.ece_diff).into(),
                num(e.mean_err_sd_units).into(),
                num(e.sd_ratio_max).into(),
                khat_cell(e.khat, e.khat_draws),
            ]
        })
        .collect();
    Some(Table {
        headers: headers.iter().map(|h| h.to_string()).collect(),
        numeric: (0..headers.len()).map(|i| i >= 3).collect(),
        rows,
    })
}

/// What the approximation-error table's columns mean (both reports print it under the table).
pub const APPROXIMATION_ERROR_NOTE: &str = "Each approximation against the exact posterior sampled or integrated in this experiment (the gold run's `exact` predictive): \
Δp is p(y = 1) minus the gold p(y = 1) over test rows, KL is KL(gold ‖ approximation) per row in nats, Δ log-loss and Δ ECE are this predictive's minus the gold's. \
For runs of the gold's own model (likelihood, noise and prior): the largest error of a posterior mean in gold sds, and the ratio of posterior sds farthest from 1 (below 1: over-confident). \
k-hat: the Pareto shape of the importance weights when the run's Gaussian posterior is used as a proposal for its model's exact posterior \
(PSIS; below 0.5 good, 0.5–0.7 usable, above 0.7 the approximation should not be trusted; bold).";
