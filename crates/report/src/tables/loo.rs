//! Leave-one-out cross-validation as the reports print it: the runs compared by elpd_loo, the
//! best first, each with its difference to the best and the paired standard error.

use super::table::{Cell, Mark, Table};
use bayeslab_core::record::{ExperimentRecord, LooComparison, LooDraws, LooRecord};

/// What the LOO table means; both reports print it under the table.
pub const LOO_NOTE: &str = "elpd_loo: the expected log predictive density of a new row, estimated by leaving each training row out \
(PSIS-LOO; higher is better), ± its standard error. Δ elpd: the difference to the first run, ± its standard error: the one paired over rows \
and the Monte-Carlo error of the two estimates from their finite draws together (two runs of one model differ by that much); \
a run is worse only when Δ is more than two such standard errors below zero, otherwise it is tied. p_loo: the effective number of parameters. \
Pareto k per row (Vehtari et al. 2024): good up to min(1 − 1/log10 S, 0.7) for S draws, \"more draws\" up to 0.7, BAD up to 1, VERY BAD beyond; \
rows above 0.7 are refitted without the row up to `[evaluation] loo_refits` per run, and an estimate with rows left above 0.7 is marked unreliable. \
Draws: the sampler's own, or an approximation's corrected by importance weights p(y, w) / q(w), so every row estimates the exact model; \
a conjugate generative model needs none: it is refitted in closed form without each row (exact LOO).";

/// "No leave-one-out for logistic-mle, logistic-map: ..." naming the successful runs without
/// one; `None` when every run has one.
pub fn missing(r: &ExperimentRecord) -> Option<String> {
    let ids: Vec<&str> = r
        .runs
        .iter()
        .filter(|run| run.error.is_none() && run.loo.is_none())
        .map(|run| run.id.as_str())
        .collect();
    (!ids.is_empty()).then(|| {
        format!(
            "No leave-one-out for {}: it needs posterior draws (a sampler) or a Gaussian posterior over a binary linear \
             model's weights, the rows in memory, and `[evaluation] loo_draws` above 0.",
            ids.join(", ")
        )
    })
}

/// "30 good, 2 more draws" (the non-empty classes).
pub fn k_summary(loo: &LooRecord) -> String {
    if loo.draws_from == LooDraws::Exact {
        return "exact, no k".into();
    }
    let c = loo.k_counts;
    let parts: Vec<String> = [
        (c.good, "good"),
        (c.more_draws, "more draws"),
        (c.bad, "BAD"),
        (c.very_bad, "VERY BAD"),
    ]
    .iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, what)| format!("{n} {what}"))
    .collect();
    parts.join(", ")
}

/// The comparison table of the record's runs by elpd_loo; `None` when no run has a LOO.
pub fn loo_table(r: &ExperimentRecord) -> Option<Table> {
    if r.loo_comparison.is_empty() {
        return None;
    }
    let tied = r
        .loo_comparison
        .iter()
        .skip(1)
        .any(|c| !c.worse_beyond_noise);
    let rows = r
        .loo_comparison
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            let loo = r.runs.iter().find(|run| run.id == c.run)?.loo.as_ref()?;
            Some(row(i, c, loo, tied, r.loo_comparison.len() == 1))
        })
        .collect();
    let headers = [
        "run", "elpd_loo", "Δ elpd", "p_loo", "Pareto k", "refitted", "draws", "verdict",
    ];
    Some(Table {
        headers: headers.iter().map(|h| h.to_string()).collect(),
        numeric: vec![false, true, true, true, false, true, false, false],
        rows,
    })
}

fn row(i: usize, c: &LooComparison, loo: &LooRecord, tied: bool, single: bool) -> Vec<Cell> {
    let verdict = match (i, tied, c.worse_beyond_noise) {
        (0, false, _) if single => "only run".into(),
        (0, false, _) => Cell {
            text: "best".into(),
            mark: Mark::Best,
        },
        (0, true, _) => "best, tied".into(),
        (_, _, true) => Cell {
            text: "worse".into(),
            mark: Mark::Warn,
        },
        _ => "tied".into(),
    };
    let diff = if i == 0 {
        "0".to_string()
    } else {
        format!("{:.2} ± {:.2}", c.elpd_diff, c.total_se())
    };
    vec![
        c.run.as_str().into(),
        format!("{:.2} ± {:.2}", c.elpd_loo, c.se).into(),
        diff.into(),
        format!("{:.1}", c.p_loo).into(),
        Cell {
            text: k_summary(loo),
            mark: Mark::warn_if(!loo.reliable()),
        },
        format!("{}", loo.refitted_rows.len()).into(),
        match loo.draws_from {
            LooDraws::Posterior => format!("{} posterior", loo.draws),
            LooDraws::CorrectedApproximation => format!("{} q, corrected", loo.draws),
            LooDraws::Exact => "none: exact".to_string(),
        }
        .into(),
        verdict,
    ]
}

/// `bayeslab compare`: each run's elpd_loo in A and B and the paired difference B − A.
pub fn loo_differences(rows: &[bayeslab_core::record::LooDifference]) -> Table {
    let headers = ["run", "A elpd_loo", "B elpd_loo", "B − A", "verdict"];
    let cells = rows
        .iter()
        .map(|d| {
            let verdict = if d.diff > 2.0 * d.total_se() {
                Cell {
                    text: "B better".into(),
                    mark: Mark::Best,
                }
            } else if d.diff < -2.0 * d.total_se() {
                Cell {
                    text: "B worse".into(),
                    mark: Mark::Warn,
                }
            } else {
                "within noise".into()
            };
            let run = match &d.b_run {
                Some(b) => format!("{} vs {b}", d.run),
                None => d.run.clone(),
            };
            vec![
                run.into(),
                format!("{:.2}", d.a).into(),
                format!("{:.2}", d.b).into(),
                format!("{:+.2} ± {:.2}", d.diff, d.total_se()).into(),
                verdict,
            ]
        })
        .collect();
    Table {
        headers: headers.iter().map(|h| h.to_string()).collect(),
        numeric: vec![false, true, true, true, false],
        rows: cells,
    }
}
