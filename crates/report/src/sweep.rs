//! The outputs of a `[sweep]`: each value's full run directory under `<key>=<value>/`, plus
//! sweep.json and one report (Markdown and HTML) with every metric as a function of the
//! swept value.

use std::fmt::Write;

use serde::Serialize;

use super::plots::{self, Figure};
use super::tables::{num, Cell, Table, METRICS};
use super::{html, markdown, render, streamed_files, Artifact};
use bayeslab_core::metrics::Metrics;
use bayeslab_core::record::SweepRecord;

#[derive(Serialize)]
struct SweepJson<'a> {
    schema_version: u32,
    experiment: &'a str,
    key: &'a str,
    values: Vec<f64>,
    rows: Vec<SweepRow<'a>>,
    /// K-fold cross-validation (`[data] split.folds`): each run and predictive over the folds.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    cross_validation: Vec<super::folds::FoldSummary>,
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

/// The sub-directory of one value, e.g. `prior.precision=0.1`, from the point's label
/// (config/sweep.rs `label`: exact and distinct for every point, and short).
pub fn point_dir(key: &str, label: &str) -> String {
    format!("{key}={label}")
}

/// One line per point, run and predictive: the sweep's table (sweep.json `rows`).
fn sweep_rows(sweep: &SweepRecord) -> Vec<SweepRow<'_>> {
    let mut rows = Vec::new();
    for point in &sweep.points {
        for run in &point.record.runs {
            for p in &run.predictives {
                rows.push(SweepRow {
                    value: point.value,
                    dir: point_dir(&sweep.key, &point.label),
                    run: &run.id,
                    predictive: p.name.name(),
                    metrics: &p.metrics,
                });
            }
        }
    }
    rows
}

/// Per `<run>/<predictive>`, the metric `get` against the swept value: the sweep's plots.
pub fn sweep_series(
    sweep: &SweepRecord,
    get: fn(&Metrics) -> Option<f64>,
) -> Vec<(String, Vec<(f64, f64)>)> {
    series(&sweep_rows(sweep), get)
}

fn series(
    rows: &[SweepRow<'_>],
    get: fn(&Metrics) -> Option<f64>,
) -> Vec<(String, Vec<(f64, f64)>)> {
    let mut names: Vec<String> = Vec::new();
    for row in rows {
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
}

/// Per run with its own ln p(y | X) (the Laplace evidence, ln Z_EP, a bound: named by its
/// kind's catalogue row), and per model with an importance-sampling estimate of the true one,
/// that value against the swept value: what every point computed.
pub fn log_evidence_series(sweep: &SweepRecord) -> Vec<(String, Vec<(f64, f64)>)> {
    let mut out: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
    let mut push = |name: String, point: (f64, f64)| match out.iter_mut().find(|s| s.0 == name) {
        Some(s) => s.1.push(point),
        None => out.push((name, vec![point])),
    };
    for point in &sweep.points {
        for run in point.record.runs.iter().filter(|r| r.error.is_none()) {
            let Some(v) = run.posterior.as_ref().and_then(|p| p.log_evidence) else {
                continue;
            };
            let label = run
                .kind
                .log_evidence()
                .map_or("own ln p(y|X)", |e| e.label(run.mean_field));
            push(format!("{} ({label})", run.id), (point.value, v));
        }
        for e in &point.record.evidence {
            let name = format!("true ln p(y|X), {} (importance sampling)", e.model);
            push(name, (point.value, e.log_evidence));
        }
    }
    out
}

/// sweep.json, report.md, report.html and plots/ of the sweep, and each point's own run
/// directory `<key>=<value>/`.
pub fn render_sweep(sweep: &SweepRecord) -> Vec<Artifact> {
    let (name, key, points) = (&sweep.name, &sweep.key, &sweep.points);
    let rows = sweep_rows(sweep);
    let mut figures: Vec<Figure> = METRICS
        .iter()
        .filter(|(h, _, _, _)| matches!(*h, "log-loss" | "ECE" | "accuracy"))
        .map(|(h, get, _, _)| plots::against(key, h, &series(&rows, *get)))
        .collect();
    let evidence = log_evidence_series(sweep);
    if !evidence.is_empty() {
        figures.push(plots::against(key, "log evidence ln p(y|X)", &evidence));
    }
    let mut table = Table {
        headers: vec![key.to_string(), "run".into(), "predictive".into()],
        numeric: vec![true, false, false],
        rows: Vec::new(),
    };
    table
        .headers
        .extend(METRICS.iter().map(|(h, _, _, _)| h.to_string()));
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
                .map(|(_, get, _, _)| Cell::from(num(get(row.metrics)))),
        );
        table.rows.push(cells);
    }
    let intro = format!(
        "The experiment `{name}` run once per value of `{key}` ({} values). Each value's full report is in its folder `{key}=<value>/`.",
        points.len()
    );
    let cv = super::folds::summaries(sweep);
    let mut md = format!("# bayeslab sweep: {name} over {key}\n\n{intro}\n\n");
    if !cv.is_empty() {
        let _ = writeln!(md, "## Cross-validation\n");
        markdown::table(&mut md, &super::folds::table(&cv));
        let _ = writeln!(md, "{}\n\n## Each fold\n", super::folds::note(&cv));
    }
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
    if !cv.is_empty() {
        page.push_str("<h2>Cross-validation</h2>\n");
        html::table(&mut page, &super::folds::table(&cv));
        let _ = writeln!(
            page,
            "<p>{}</p><h2>Each fold</h2>",
            html::prose(&super::folds::note(&cv))
        );
    }
    html::table(&mut page, &table);
    page.push_str("</body></html>\n");

    let json = SweepJson {
        schema_version: bayeslab_core::record::SCHEMA_VERSION,
        experiment: name,
        key,
        values: points.iter().map(|p| p.value).collect(),
        rows,
        cross_validation: cv,
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
    for point in points {
        let dir = point_dir(key, &point.label);
        out.extend(render(&point.record).into_iter().map(|a| Artifact {
            name: format!("{dir}/{}", a.name),
            bytes: a.bytes,
        }));
    }
    out
}

/// The files of a sweep already on disk (each streamed point's predictions.csv), as (name in
/// the sweep's directory, current path).
pub fn sweep_files(sweep: &SweepRecord) -> Vec<(String, std::path::PathBuf)> {
    sweep
        .points
        .iter()
        .flat_map(|p| {
            let dir = point_dir(&sweep.key, &p.label);
            streamed_files(&p.record)
                .into_iter()
                .map(move |(name, path)| (format!("{dir}/{name}"), path))
        })
        .collect()
}
