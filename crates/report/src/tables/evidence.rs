//! The evidence search: the Laplace evidence against the prior precision, beside the
//! held-out log-loss, with the chosen lambda as a highlighted row of its own.

use super::table::{num, Cell, Mark, Table};
use bayeslab_core::record::{ExperimentRecord, RunRecord};

/// Per run with `precision = "evidence"`: the evidence curve on the lambda grid beside the
/// held-out log-loss, and the chosen lambda in its place among them, highlighted. The chosen
/// lambda is refined between grid points (golden-section search), so it is a row of its own
/// rather than a grid row: its log evidence is the final fit's, its log-loss the final fit's
/// plug-in predictive's ("–" without one).
pub fn evidence(r: &ExperimentRecord) -> Vec<(&RunRecord, Table)> {
    r.runs
        .iter()
        .filter(|run| !run.evidence_curve.is_empty())
        .map(|run| {
            let mut rows: Vec<(f64, Vec<Cell>)> = run
                .evidence_curve
                .iter()
                .map(|p| {
                    let cells = vec![
                        format!("{:.3e}", p.precision).into(),
                        p.log_evidence
                            .map_or("not converged".to_string(), |v| format!("{v:.4}"))
                            .into(),
                        format!("{:.4}", p.test_log_loss).into(),
                    ];
                    (p.precision, cells)
                })
                .collect();
            if let Some(chosen) = run.prior_precision {
                let best = |text: String| Cell {
                    text,
                    mark: Mark::Best,
                };
                let plugin = run
                    .predictives
                    .iter()
                    .find(|p| p.name == bayeslab_core::catalog::PredictiveKind::Plugin);
                let cells = vec![
                    best(match run.prior_precision_edge {
                        None => format!("{chosen:.3e} (chosen)"),
                        Some(e) => format!("{chosen:.3e} (chosen, {})", e.mark()),
                    }),
                    best(num(run.posterior.as_ref().and_then(|p| p.log_evidence))),
                    best(num(plugin.map(|p| p.metrics.log_loss))),
                ];
                let at = rows.partition_point(|(l, _)| *l <= chosen);
                rows.insert(at, (chosen, cells));
            }
            let table = Table {
                headers: vec![
                    "lambda".into(),
                    "log evidence".into(),
                    "test log-loss".into(),
                ],
                numeric: vec![true, true, true],
                rows: rows.into_iter().map(|(_, cells)| cells).collect(),
            };
            (run, table)
        })
        .collect()
}

/// The choice in words, under both reports' evidence heading.
pub fn evidence_choice(run: &RunRecord) -> Option<String> {
    let chosen = run.prior_precision?;
    let grid_best = run
        .evidence_curve
        .iter()
        .filter_map(|p| Some((p.precision, p.log_evidence?)))
        .max_by(|a, b| a.1.total_cmp(&b.1))?;
    let evidence = run
        .posterior
        .as_ref()
        .and_then(|p| p.log_evidence)
        .map_or(String::new(), |v| format!(" (log evidence {v:.4})"));
    let edge = run.prior_precision_edge.map_or(String::new(), |e| {
        format!(
            " Warning: this lambda is {}.",
            bayeslab_core::optim::log_grid::edge_words(e)
        )
    });
    Some(format!(
        "`{}`: lambda = {} maximises the Laplace evidence{evidence}, found by golden-section search in ln lambda between the neighbours of the best grid point, {:.3e}; it is the highlighted row.{edge}",
        run.id,
        significant(chosen),
        grid_best.0
    ))
}

/// Four significant figures, without an exponent in the usual range of lambda.
fn significant(v: f64) -> String {
    if (1e-3..1e5).contains(&v.abs()) {
        let decimals = (3 - v.abs().log10().floor() as i32).max(0) as usize;
        format!("{v:.decimals$}")
    } else {
        format!("{v:.3e}")
    }
}
