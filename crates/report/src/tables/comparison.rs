//! The paired-bootstrap comparison of a run against its baseline.

use super::table::{Cell, Mark, Table};

/// The paired-bootstrap comparison of two runs, one row per run, predictive and metric.
pub fn comparison(rows: &[bayeslab_engine::compare::Comparison]) -> Table {
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
    let cells = rows
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
                        bayeslab_engine::compare::Verdict::Improved => Mark::Best,
                        bayeslab_engine::compare::Verdict::Worse => Mark::Warn,
                        bayeslab_engine::compare::Verdict::WithinNoise
                        | bayeslab_engine::compare::Verdict::TooFewResamples => Mark::Plain,
                    },
                },
            ]
        })
        .collect();
    let mut table = Table {
        headers: headers.iter().map(|h| h.to_string()).collect(),
        numeric: vec![false, false, false, true, true, true, true, false],
        rows: cells,
    };
    name_b_columns(&mut table, rows);
    add_notes(&mut table, rows);
    table
}

/// A last "note" column when some line carries one (B's ECE rescored on A's bins).
fn add_notes(table: &mut Table, rows: &[bayeslab_engine::compare::Comparison]) {
    if rows.iter().all(|c| c.note.is_none()) {
        return;
    }
    table.headers.push("note".to_string());
    table.numeric.push(false);
    for (cells, c) in table.rows.iter_mut().zip(rows) {
        cells.push(c.note.clone().unwrap_or_default().into());
    }
}

/// When some row compares A's column with a differently named one of B (`compare --pair`),
/// a "B column" after "predictive" says which; `run` and `predictive` are then A's. Without
/// such rows the table is as it always was.
fn name_b_columns(table: &mut Table, rows: &[bayeslab_engine::compare::Comparison]) {
    if rows.iter().all(|c| c.b_column.is_none()) {
        return;
    }
    table.headers.insert(2, "B column".to_string());
    table.numeric.insert(2, false);
    for (cells, c) in table.rows.iter_mut().zip(rows) {
        let b = c
            .b_column
            .clone()
            .unwrap_or_else(|| format!("{}/{}", c.run, c.predictive));
        cells.insert(2, b.into());
    }
}
