//! The fitted weights per design column.

use super::table::{Cell, Table};
use crate::record::{ExperimentRecord, RunRecord};

/// Weights per design column: mean ± 2 sd for posteriors, else the point estimate. Softmax
/// weights are stacked in blocks of one per class with free weights, labelled `[block k]`.
pub fn weights(r: &ExperimentRecord) -> Option<Table> {
    let runs: Vec<&RunRecord> = r
        .runs
        .iter()
        .filter(|run| !run.weights.is_empty())
        .collect();
    if runs.is_empty() {
        return None;
    }
    let d = r.dataset.columns.len().max(1);
    let n = runs.iter().map(|run| run.weights.len()).max().unwrap_or(0);
    let mut headers = vec!["column".to_string()];
    headers.extend(runs.iter().map(|run| run.id.clone()));
    let rows = (0..n)
        .map(|j| {
            let col = r.dataset.columns.get(j % d).map_or("?", String::as_str);
            let label = if n > d {
                format!("{col} [block {}]", j / d)
            } else {
                col.to_string()
            };
            let mut cells: Vec<Cell> = vec![label.into()];
            cells.extend(
                runs.iter()
                    .map(|run| match (&run.posterior, run.weights.get(j)) {
                        (_, None) => "–".into(),
                        (Some(p), Some(_)) => {
                            format!("{:.4} ± {:.4}", p.mean[j], 2.0 * p.cov_diag[j].sqrt()).into()
                        }
                        (None, Some(w)) => format!("{w:.4}").into(),
                    }),
            );
            cells
        })
        .collect();
    let numeric = std::iter::once(false)
        .chain(runs.iter().map(|_| true))
        .collect();
    Some(Table {
        headers,
        numeric,
        rows,
    })
}
