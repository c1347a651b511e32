//! The test-set metrics table (one row per run and predictive) and a predictive's
//! calibration bins.

use super::table::{num, Cell, Mark, Table};
use bayeslab_core::metrics::Metrics;
use bayeslab_core::record::{ExperimentRecord, PredictiveRecord, RunRecord, Standing, VersusBest};

/// Metric columns: (header, accessor, lower is better, the name of its paired bootstrap in
/// `compare::METRICS` when it has one).
type MetricColumn = (
    &'static str,
    fn(&Metrics) -> Option<f64>,
    bool,
    Option<&'static str>,
);

pub const METRICS: [MetricColumn; 6] = [
    ("log-loss", |m| Some(m.log_loss), true, Some("log_loss")),
    ("Brier", |m| Some(m.brier), true, Some("brier")),
    ("accuracy", |m| Some(m.accuracy), false, None),
    ("AUC", |m| m.auc, false, None),
    ("ECE", |m| Some(m.ece), true, Some("ece")),
    ("MCE", |m| Some(m.mce), true, None),
];

/// What the marks of the metrics table mean, said once under it in both reports.
pub const METRICS_NOTE: &str = "Marked best: better than every other predictive beyond noise, i.e. the 95 % paired-bootstrap interval (test rows resampled, every predictive scored on the same resamples) of each other's difference to it excludes zero. `≈` marks a tie: within noise of the best. Δ log-loss is the difference to the best with that interval. Accuracy, AUC and MCE have no paired interval and are never marked. Log-loss clips p to [1e-15, 1 − 1e-15].";

/// What the ECE interval is, in one line under every table that shows it.
pub const ECE_NOTE: &str = "ECE debiased: the binned ECE minus its bootstrap estimate of bias (binned ECE is biased upward: noise in a bin only adds to the gap), with the 95 % basic-bootstrap interval over test rows, which corrects the same bias and so brackets the debiased value, not always the binned ECE.";

/// (run, predictive) pairs in record order.
pub fn predictive_rows(r: &ExperimentRecord) -> Vec<(&RunRecord, &PredictiveRecord)> {
    r.runs
        .iter()
        .flat_map(|run| run.predictives.iter().map(move |p| (run, p)))
        .collect()
}

/// `+0.0123 [+0.0040, +0.0200]`, or `best` / `≈ best` for the best row itself.
pub fn versus_best_text(v: &VersusBest) -> String {
    match (
        v.standing,
        v.diff == 0.0 && v.best == format!("{}/{}", v.run, v.predictive),
    ) {
        (Standing::Best, _) => "best".into(),
        (Standing::Tied, true) => "≈ best".into(),
        _ => format!(
            "{} [{}, {}]",
            signed(v.diff),
            signed(v.ci_low),
            signed(v.ci_high)
        ),
    }
}

/// `+0.0123`; a value that four decimals would show as ±0.0000 in scientific form
/// (`+3.2e-5`), so that an interval just above zero never reads as one touching it.
fn signed(v: f64) -> String {
    match v.abs() {
        a if a > 0.0 && a < 5e-5 => format!("{v:+.1e}"),
        _ => format!("{v:+.4}"),
    }
}

/// `0.0412 [0.0000, 0.0830]`: the debiased ECE and its bias-corrected interval ("–" without).
pub fn ece_debiased_text(p: &PredictiveRecord) -> String {
    match (p.ece_debiased, p.ece_ci) {
        (Some(d), Some([lo, hi])) => format!("{d:.4} [{lo:.4}, {hi:.4}]"),
        _ => "–".into(),
    }
}

/// A metric's cell: marked best only beyond noise, `≈` when tied with the best.
fn metric_cell(
    r: &ExperimentRecord,
    run: &RunRecord,
    p: &PredictiveRecord,
    c: &MetricColumn,
) -> Cell {
    let text = num((c.1)(&p.metrics));
    let standing =
        c.3.and_then(|m| r.standing(&run.id, p.name.name(), m))
            .map(|v| v.standing);
    match standing {
        Some(Standing::Best) => Cell {
            text,
            mark: Mark::Best,
        },
        Some(Standing::Tied) => Cell {
            text: format!("{text} ≈"),
            mark: Mark::Tie,
        },
        _ => text.into(),
    }
}

/// The run column: its id, flagged when its fit did not converge or its chains did not mix.
pub fn run_cell(run: &RunRecord) -> Cell {
    match run.flag() {
        Some(flag) => Cell {
            text: format!("{} — {flag}", run.id),
            mark: Mark::Warn,
        },
        None => run.id.as_str().into(),
    }
}

/// One row per run and predictive, marked as [`METRICS_NOTE`] says.
pub fn metrics(r: &ExperimentRecord) -> Table {
    let rows = predictive_rows(r);
    let mut headers = vec!["run".to_string(), "predictive".to_string()];
    headers.extend(
        METRICS
            .iter()
            .map(|(h, _, lower, _)| format!("{h} {}", if *lower { "↓" } else { "↑" })),
    );
    headers.push("Δ log-loss to best [95 %]".into());
    headers.push("ECE debiased [95 %]".into());
    let mut numeric = vec![false, false];
    numeric.extend([true; 8]);
    let rows = rows
        .iter()
        .map(|(run, p)| {
            let mut cells: Vec<Cell> = vec![run_cell(run), p.name.name().into()];
            cells.extend(METRICS.iter().map(|c| metric_cell(r, run, p, c)));
            cells.push(
                r.standing(&run.id, p.name.name(), "log_loss")
                    .map_or("–".to_string(), versus_best_text)
                    .into(),
            );
            cells.push(ece_debiased_text(p).into());
            cells
        })
        .collect();
    Table {
        headers,
        numeric,
        rows,
    }
}

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
