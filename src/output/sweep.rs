//! The outputs of a `[sweep]`: each value's full run directory under `<key>=<value>/`, plus
//! sweep.json and one report (Markdown and HTML) with every metric as a function of the
//! swept value.

use std::fmt::Write;

use serde::Serialize;

use super::plots::{self, Figure};
use super::tables::{num, Cell, Table, METRICS};
use super::{html, markdown, render, Artifact};
use crate::metrics::Metrics;
use crate::record::ExperimentRecord;

#[derive(Serialize)]
struct SweepJson<'a> {
    schema_version: u32,
    experiment: &'a str,
    key: &'a str,
    values: Vec<f64>,
    rows: Vec<SweepRow<'a>>,
}

#[derive(Serialize)]
struct SweepRow<'a> {
    value: f64,
    /// The value's run directory, relative to the sweep directory.
    dir: String,
    run: &'a str,
    predictive: &'a str,
    metrics: &'a Metrics,
}

/// The sub-directory of one value, e.g. `prior.precision=0.1`.
pub fn point_dir(key: &str, value: f64) -> String {
    format!("{key}={value}")
}

pub fn render_sweep(name: &str, key: &str, points: &[(f64, ExperimentRecord)]) -> Vec<Artifact> {
    let mut rows = Vec::new();
    for (value, r) in points {
        for run in &r.runs {
            for p in &run.predictives {
                rows.push(SweepRow {
                    value: *value,
                    dir: point_dir(key, *value),
                    run: &run.id,
                    predictive: &p.name,
                    metrics: &p.metrics,
                });
            }
        }
    }
    let series = |get: fn(&Metrics) -> Option<f64>| {
        let mut names: Vec<String> = Vec::new();
        for row in &rows {
            let n = format!("{}/{}", row.run, row.predictive);
            if !names.contains(&n) {
                names.push(n);
            }
        }
        names
            .into_iter()
            .map(|n| {
                let pts = rows
                    .iter()
                    .filter(|r| format!("{}/{}", r.run, r.predictive) == n)
                    .filter_map(|r| Some((r.value, get(r.metrics)?)))
                    .collect();
                (n, pts)
            })
            .collect::<Vec<(String, Vec<(f64, f64)>)>>()
    };
    let figures: Vec<Figure> = METRICS
        .iter()
        .filter(|(h, _, _)| matches!(*h, "log-loss" | "ECE" | "accuracy"))
        .map(|(h, get, _)| plots::against(key, h, &series(*get)))
        .collect();
    let mut table = Table {
        headers: vec![key.to_string(), "run".into(), "predictive".into()],
        numeric: vec![true, false, false],
        rows: Vec::new(),
    };
    table
        .headers
        .extend(METRICS.iter().map(|(h, _, _)| h.to_string()));
    table.numeric.extend([true; 6]);
    for row in &rows {
        let mut cells: Vec<Cell> = vec![
            row.value.to_string().into(),
            row.run.into(),
            row.predictive.into(),
        ];
        cells.extend(
            METRICS
                .iter()
                .map(|(_, get, _)| Cell::from(num(get(row.metrics)))),
        );
        table.rows.push(cells);
    }
    let intro = format!(
        "The experiment `{name}` run once per value of `{key}` ({} values). Each value's full report is in its folder `{key}=<value>/`.",
        points.len()
    );
    let mut md = format!("# bayeslab sweep: {name} over {key}\n\n{intro}\n\n");
    for f in &figures {
        let _ = writeln!(md, "![{}](plots/{}.svg)\n", f.caption, f.stem);
    }
    markdown::table(&mut md, &table);
    let mut page = format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>bayeslab sweep: {}</title><style>{}</style></head><body>\n<h1>bayeslab sweep: {} over {}</h1><p>{}</p><div class=\"figs\">\n",
        html::escape(name),
        html::STYLE,
        html::escape(name),
        html::escape(key),
        html::prose(&intro)
    );
    for f in &figures {
        html::figure(&mut page, f);
    }
    page.push_str("</div>\n");
    html::table(&mut page, &table);
    page.push_str("</body></html>\n");

    let json = SweepJson {
        schema_version: crate::record::SCHEMA_VERSION,
        experiment: name,
        key,
        values: points.iter().map(|(v, _)| *v).collect(),
        rows,
    };
    let mut out = vec![
        Artifact {
            name: "sweep.json".into(),
            bytes: serde_json::to_vec_pretty(&json).expect("sweep serialises"),
        },
        Artifact {
            name: "report.md".into(),
            bytes: md.into_bytes(),
        },
        Artifact {
            name: "report.html".into(),
            bytes: page.into_bytes(),
        },
    ];
    out.extend(figures.into_iter().map(|f| Artifact {
        name: format!("plots/{}.svg", f.stem),
        bytes: f.svg.into_bytes(),
    }));
    for (value, r) in points {
        let dir = point_dir(key, *value);
        out.extend(render(r).into_iter().map(|a| Artifact {
            name: format!("{dir}/{}", a.name),
            bytes: a.bytes,
        }));
    }
    out
}
