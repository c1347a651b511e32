//! The paired-bootstrap comparison of a run against its baseline.

use super::table::{Cell, Mark, Table};

/// The paired-bootstrap comparison of two runs, one row per run, predictive and metric.
pub fn comparison(rows: &[crate::compare::Comparison]) -> Table {
    let headers = [
        "run",
        "predictive",
        "metric",
        "A",
        "B",
        "B − A",
        "95% CI",
        "verdict",
    ];
    let rows = rows
        .iter()
        .map(|c| {
            vec![
                c.run.as_str().into(),
                c.predictive.as_str().into(),
                c.metric.as_str().into(),
                format!("{:.4}", c.a).into(),
                format!("{:.4}", c.b).into(),
                format!("{:+.4}", c.diff).into(),
                format!("[{:+.4}, {:+.4}]", c.ci_low, c.ci_high).into(),
                Cell {
                    text: c.verdict.name().into(),
                    mark: match c.verdict {
                        crate::compare::Verdict::Improved => Mark::Best,
                        crate::compare::Verdict::Worse => Mark::Warn,
                        crate::compare::Verdict::WithinNoise => Mark::Plain,
                    },
                },
            ]
        })
        .collect();
    Table {
        headers: headers.iter().map(|h| h.to_string()).collect(),
        numeric: vec![false, false, false, true, true, true, true, false],
        rows,
    }
}
