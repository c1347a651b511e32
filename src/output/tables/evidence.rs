//! The evidence search: the Laplace evidence against the prior precision, beside the
//! held-out log-loss.

use super::table::{Cell, Mark, Table};
use crate::record::{ExperimentRecord, RunRecord};

/// Per run with `precision = "evidence"`: the evidence curve beside the held-out log-loss.
pub fn evidence(r: &ExperimentRecord) -> Vec<(&RunRecord, Table)> {
    r.runs
        .iter()
        .filter(|run| !run.evidence_curve.is_empty())
        .map(|run| {
            let best = run.prior_precision;
            let rows = run
                .evidence_curve
                .iter()
                .map(|p| {
                    vec![
                        Cell {
                            text: format!("{:.3e}", p.precision),
                            mark: Mark::best_if(Some(p.precision) == best),
                        },
                        p.log_evidence
                            .map_or("not converged".to_string(), |v| format!("{v:.4}"))
                            .into(),
                        format!("{:.4}", p.test_log_loss).into(),
                    ]
                })
                .collect();
            let table = Table {
                headers: vec![
                    "lambda".into(),
                    "log evidence".into(),
                    "test log-loss".into(),
                ],
                numeric: vec![true, true, true],
                rows,
            };
            (run, table)
        })
        .collect()
}
