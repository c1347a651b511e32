//! The test-set metrics table (one row per run and predictive) and a predictive's
//! calibration bins.

use super::table::{num, Cell, Mark, Table};
use crate::metrics::Metrics;
use crate::record::{ExperimentRecord, PredictiveRecord, RunRecord};

/// Metric columns: (header, accessor, lower is better).
type MetricColumn = (&'static str, fn(&Metrics) -> Option<f64>, bool);

pub const METRICS: [MetricColumn; 6] = [
    ("log-loss", |m| Some(m.log_loss), true),
    ("Brier", |m| Some(m.brier), true),
    ("accuracy", |m| Some(m.accuracy), false),
    ("AUC", |m| m.auc, false),
    ("ECE", |m| Some(m.ece), true),
    ("MCE", |m| Some(m.mce), true),
];

/// (run, predictive) pairs in record order.
pub fn predictive_rows(r: &ExperimentRecord) -> Vec<(&RunRecord, &PredictiveRecord)> {
    r.runs
        .iter()
        .flat_map(|run| run.predictives.iter().map(move |p| (run, p)))
        .collect()
}

/// One row per run and predictive; the best value per column (as displayed) is strong.
pub fn metrics(r: &ExperimentRecord) -> Table {
    let rows = predictive_rows(r);
    let best: Vec<String> = METRICS
        .iter()
        .map(|(_, get, lower)| {
            let vals = rows.iter().filter_map(|(_, p)| get(&p.metrics));
            num(if *lower {
                vals.reduce(f64::min)
            } else {
                vals.reduce(f64::max)
            })
        })
        .collect();
    let mut headers = vec!["run".to_string(), "predictive".to_string()];
    headers.extend(
        METRICS
            .iter()
            .map(|(h, _, lower)| format!("{h} {}", if *lower { "↓" } else { "↑" })),
    );
    headers.push("ECE 95% CI".into());
    let mut numeric = vec![false, false];
    numeric.extend([true; 7]);
    let rows = rows
        .iter()
        .map(|(run, p)| {
            let mut cells: Vec<Cell> = vec![run.id.as_str().into(), p.name.as_str().into()];
            for ((_, get, _), b) in METRICS.iter().zip(&best) {
                let text = num(get(&p.metrics));
                let mark = Mark::best_if(text != "–" && &text == b);
                cells.push(Cell { text, mark });
            }
            cells.push(match p.ece_ci {
                Some([lo, hi]) => format!("[{lo:.4}, {hi:.4}]").into(),
                None => "–".into(),
            });
            cells
        })
        .collect();
    Table {
        headers,
        numeric,
        rows,
    }
}

/// How to read the reliability diagrams (report.html says it once above them).
pub const RELIABILITY_GUIDE: &str = "Each diagram: the observed frequency against the mean prediction in each bin (with more than two classes, how often the most probable class was right against its probability), the diagonal of perfect calibration, and the test rows per bin as bars.";

pub fn calibration(p: &PredictiveRecord) -> Table {
    let rows = p
        .calibration
        .iter()
        .map(|b| {
            let close = if b.upper >= 1.0 { "]" } else { ")" };
            vec![
                format!("[{:.3}, {:.3}{close}", b.lower, b.upper).into(),
                b.count.to_string().into(),
                num(b.mean_predicted).into(),
                num(b.observed_frequency).into(),
            ]
        })
        .collect();
    Table {
        headers: ["bin", "count", "mean predicted", "observed frequency"]
            .iter()
            .map(|h| h.to_string())
            .collect(),
        numeric: vec![false, true, true, true],
        rows,
    }
}
