//! The fitted weights per design column (and, for softmax, per class).

use super::table::{Cell, Table};
use crate::blocks::{ClassBlocks, Slot};
use bayeslab_core::record::{ExperimentRecord, RunRecord};

/// Weights per design column: mean ± 2 sd for posteriors, else the point estimate. With class
/// blocks (softmax), one row per class and column, the class named by the target's value; a
/// reference class's weights read "0 (reference)".
pub fn weights(r: &ExperimentRecord) -> Option<Table> {
    let runs: Vec<&RunRecord> = r
        .runs
        .iter()
        .filter(|run| !run.weights.is_empty())
        .collect();
    if runs.is_empty() {
        return None;
    }
    let blocks = ClassBlocks::of(r);
    let mut headers = Vec::new();
    if blocks.labelled {
        headers.push("class".to_string());
    }
    headers.push("column".to_string());
    headers.extend(runs.iter().map(|run| match run.flag() {
        Some(flag) => format!("{} ({flag})", run.id),
        None => run.id.clone(),
    }));
    let mut rows = Vec::new();
    for class in blocks.shown() {
        for (j, col) in blocks.columns.iter().enumerate() {
            let mut cells: Vec<Cell> = Vec::new();
            if blocks.labelled {
                cells.push(blocks.label(class).into());
            }
            cells.push(col.as_str().into());
            cells.extend(runs.iter().map(|run| match blocks.slot(run, class, j) {
                Slot::Missing => "–".into(),
                Slot::Reference => "0 (reference)".into(),
                Slot::At(i) => match &run.posterior {
                    Some(p) => {
                        format!("{:.4} ± {:.4}", p.mean[i], 2.0 * p.cov_diag[i].sqrt()).into()
                    }
                    None => format!("{:.4}", run.weights[i]).into(),
                },
            }));
            rows.push(cells);
        }
    }
    let labels = headers.len() - runs.len();
    let numeric = (0..headers.len()).map(|i| i >= labels).collect();
    Some(Table {
        headers,
        numeric,
        rows,
    })
}
