//! The Results screen: one row per run and predictive with every metric and the PSIS k-hat
//! of the run's Gaussian posterior (BAD in bold red), sortable by any column. A value is bold
//! green only when it is the best beyond noise (record `versus_best`: the paired bootstrap
//! against the best), green with `≈` when tied with the best; with room, a Δ column gives the
//! picked metric's difference to the best with its 95 % interval. Failed runs are listed under
//! the table — and so are fits that did not converge and samplers whose chains have not mixed
//! (R-hat > 1.01), their rows marked `!`. Under `[prior]
//! precision = "evidence"` a line above it names the lambda each run chose (evidence.rs).
//! Rows that do not fit scroll (j/k) with their position on the border (widget/table.rs).
//! With a gold-standard run, the approximation-error table follows (screen/gold.rs), and with
//! an estimate of ln p(y | X) the evidence table (screen/log_evidence.rs). A
//! finished sweep shows its own table and plot instead (screen/sweep.rs).

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style, Stylize};
use ratatui::text::Line;
use ratatui::widgets::{Cell, Paragraph, Widget, Wrap};

use crate::app::App;
use crate::picks::{Metric, Picks};
use crate::widget::table::{LabelRow, LabelTable, Value};
use bayeslab_core::metrics::Metrics;
use bayeslab_core::record::{Diagnostics, ExperimentRecord, Standing};

mod lab;

pub struct ResultRow<'a> {
    pub label: String,
    pub run: &'a str,
    pub predictive: &'a str,
    pub metrics: &'a Metrics,
    /// The run is a sampler whose chains have not mixed.
    pub unmixed: bool,
    /// `NOT CONVERGED (max-iterations)` or `NOT MIXED` (RunRecord::flag).
    pub flag: Option<String>,
    /// The PSIS k-hat of the run's Gaussian posterior.
    pub khat: Option<f64>,
    pub khat_draws: Option<usize>,
}

/// "k-hat" values read like `0.62 ok` or `1.33 BAD`.
const KHAT_WIDTH: u16 = 9;

/// The table rows in record order, or sorted as `picks` says (missing values last).
pub fn result_rows<'a>(record: &'a ExperimentRecord, picks: &Picks) -> Vec<ResultRow<'a>> {
    let mut rows: Vec<ResultRow> = record
        .runs
        .iter()
        .flat_map(|run| {
            run.predictives.iter().map(move |p| ResultRow {
                label: format!("{}/{}", run.id, p.name),
                run: &run.id,
                predictive: p.name.name(),
                metrics: &p.metrics,
                unmixed: run.diagnostics.is_some_and(|d| !d.mixed()),
                flag: run.flag(),
                khat: run.khat,
                khat_draws: run.khat_draws,
            })
        })
        .collect();
    if let Some(sort) = picks.sort {
        let metric = Metric::ALL[sort.column.min(Metric::ALL.len() - 1)];
        let flip = metric.higher_is_better() != sort.reversed;
        let key = |r: &ResultRow| metric.of(r.metrics).filter(|v| v.is_finite());
        rows.sort_by(|a, b| match (key(a), key(b)) {
            (Some(x), Some(y)) if flip => y.total_cmp(&x),
            (Some(x), Some(y)) => x.total_cmp(&y),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => std::cmp::Ordering::Equal,
        });
    }
    rows
}

/// The paired bootstrap behind a metric's marks (a name of `compare::METRICS`), if it has one.
fn bootstrap_name(m: Metric) -> Option<&'static str> {
    match m {
        Metric::LogLoss => Some("log_loss"),
        Metric::Brier => Some("brier"),
        Metric::Ece => Some("ece"),
        _ => None,
    }
}

/// For each row and metric, where the row stands against the best (the record's paired
/// bootstrap); `None` for metrics without one (accuracy, AUC, MCE), which are never marked.
pub fn standings(record: &ExperimentRecord, rows: &[ResultRow]) -> Vec<[Option<Standing>; 6]> {
    rows.iter()
        .map(|r| {
            Metric::ALL.map(|m| {
                let name = bootstrap_name(m)?;
                Some(record.standing(r.run, r.predictive, name)?.standing)
            })
        })
        .collect()
}

/// For each metric, the row that is best beyond noise; `None` when it is tied or unmarked.
pub fn best_rows(record: &ExperimentRecord, rows: &[ResultRow]) -> [Option<usize>; 6] {
    let s = standings(record, rows);
    std::array::from_fn(|c| s.iter().position(|r| r[c] == Some(Standing::Best)))
}

/// A metric's cell: bold green when best beyond noise, green with `≈` when tied with it.
fn metric_cell(value: Option<f64>, standing: Option<Standing>) -> Value {
    let text = super::num(value);
    match standing {
        Some(Standing::Best) => {
            Value::from(text).style(Style::new().fg(Color::Green).add_modifier(Modifier::BOLD))
        }
        Some(Standing::Tied) => {
            Value::from(format!("{text}≈")).style(Style::new().fg(Color::Green))
        }
        _ => Value::from(text),
    }
}

/// The Δ column of the picked metric: `+0.004…+0.020` (the 95 % interval of the difference to
/// the best), `best` or `≈ best`; `None` for a metric without a paired bootstrap.
fn delta_text(record: &ExperimentRecord, row: &ResultRow, m: Metric) -> Option<String> {
    let v = record.standing(row.run, row.predictive, bootstrap_name(m)?)?;
    let own = v.best == format!("{}/{}", v.run, v.predictive);
    Some(match (v.standing, own) {
        (Standing::Best, _) => "best".into(),
        (Standing::Tied, true) => "≈ best".into(),
        _ => format!("{:+.3}…{:+.3}", v.ci_low, v.ci_high),
    })
}

const DELTA_WIDTH: u16 = 13;

pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    if let Some(sweep) = app.sweep() {
        return super::sweep::render(app, sweep, area, buf);
    }
    let Some(record) = app.session.as_ref().and_then(|s| s.record.as_ref()) else {
        super::placeholder(
            "no results yet: run an experiment (r) and wait for it to finish",
            area,
            buf,
        );
        return;
    };
    if record.runs.is_empty() {
        return lab::render(&record.posteriors, area, buf);
    }
    let rows = result_rows(record, &app.picks);
    let failed = warnings(record);
    let fail_height = if failed.is_empty() {
        0
    } else {
        (failed.len() as u16 * 2).min(area.height / 3)
    };
    let [tables, fails] =
        Layout::vertical([Constraint::Min(0), Constraint::Length(fail_height)]).areas(area);
    let table = side_tables(app, record, rows.len(), tables, buf);
    let table = loo_pane(record, table, buf);
    let table = match super::evidence::evidence_line(record) {
        Some(line) => {
            let [top, rest] =
                Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(table);
            line.render(top, buf);
            rest
        }
        None => table,
    };
    metrics_table(app, record, &rows, table, buf);
    Paragraph::new(failed)
        .wrap(Wrap { trim: true })
        .render(fails, buf);
}

/// What must not be missed under the table, in red: failed runs, chains not mixed, divergent
/// HMC trajectories and fits that did not converge.
fn warnings(record: &ExperimentRecord) -> Vec<Line<'static>> {
    let unmixed = record.runs.iter().filter_map(|r| {
        let d = r.diagnostics.filter(|d| !d.mixed())?;
        let hmc = d.hmc.map(|h| format!("; HMC {}", h.words())).unwrap_or_default();
        Some(Line::from(format!(
            "{}: chains NOT MIXED — split-R-hat {:.3} > {} (bulk ESS {:.0}); run longer chains (draws, burn_in) before trusting it{hmc}",
            r.id, d.rhat_max, Diagnostics::RHAT_LIMIT, d.ess_min
        )))
    });
    let divergent = record.runs.iter().filter_map(|r| {
        let h = r.diagnostics.and_then(|d| d.hmc).filter(|h| h.divergent > 0)?;
        Some(Line::from(format!(
            "{}: {} DIVERGENT HMC trajectories ({}): part of the posterior is too curved for the step; compare with the gibbs kind",
            r.id, h.divergent, h.words()
        )))
    });
    let unconverged = record.runs.iter().filter_map(|r| {
        let flag = r.flag().filter(|_| r.diagnostics.is_none())?;
        Some(Line::from(format!(
            "{}: {flag} after {} iterations — its numbers are those of the last iterate; raise max_iter",
            r.id, r.iterations
        )))
    });
    record
        .failed_runs()
        .map(|r| Line::from(format!("{}: {}", r.id, r.error.as_deref().unwrap_or(""))))
        .chain(unmixed)
        .chain(divergent)
        .chain(unconverged)
        .map(|l| l.fg(Color::LightRed))
        .collect()
}

/// The gold-standard and evidence tables at the foot of `tables` (the metrics keep their
/// `metric_rows`); the area left for the metrics.
fn side_tables(
    app: &App,
    record: &ExperimentRecord,
    metric_rows: usize,
    tables: Rect,
    buf: &mut Buffer,
) -> Rect {
    // The metrics keep their rows; the gold-standard and evidence tables share the rest, at
    // least half.
    let evidence = bayeslab_report::tables::log_evidence_table(record);
    let budget = tables
        .height
        .saturating_sub(metric_rows as u16 + 3)
        .max(tables.height / 2);
    let gold_want = super::gold::height(record.approximation_error.len());
    let evidence_want = evidence
        .as_ref()
        .map_or(0, |e| super::log_evidence::height(e, tables.width));
    // Both when both fit; else one at a time, `v` switching (the title says so).
    let both = gold_want + evidence_want <= budget || gold_want == 0 || evidence_want == 0;
    let (gold_height, evidence_height) = match (both, app.picks.evidence_pane) {
        (true, _) => (gold_want, evidence_want),
        (false, false) => (gold_want.min(budget), 0),
        (false, true) => (0, evidence_want.min(budget)),
    };
    let [table, gold, ev] = Layout::vertical([
        Constraint::Min(0),
        Constraint::Length(gold_height.min(budget)),
        Constraint::Length(evidence_height.min(budget.saturating_sub(gold_height))),
    ])
    .areas(tables);
    let hint = |other: &'static str| (!both).then_some(other);
    if gold_height > 0 {
        let rows = &record.approximation_error;
        let sources = super::gold::sources(rows, &record.runs);
        let first = app.picks.gold_row;
        super::gold::render(rows, first, gold, buf, hint("v: evidence"), &sources);
    }
    if let Some(e) = evidence.as_ref().filter(|_| evidence_height > 0) {
        let first = app.picks.evidence_row;
        super::log_evidence::render(e, first, ev, buf, hint("v: vs gold"));
    }
    table
}

/// The LOO ranking at the foot of `table`; the area left above it.
fn loo_pane(record: &ExperimentRecord, table: Rect, buf: &mut Buffer) -> Rect {
    // The LOO ranking keeps at most a third of what is left under the metrics; where that
    // would show fewer than two of its rows, one line sums it up instead.
    let loo_want = super::loo::height(record);
    let loo_height = match loo_want.min(table.height / 3) {
        0 => 0,
        h if h >= loo_want.min(5) => h,
        _ => 1,
    };
    let [table, loo] =
        Layout::vertical([Constraint::Min(0), Constraint::Length(loo_height)]).areas(table);
    match loo_height {
        0 => {}
        1 => super::loo::summary_line(record, loo.width as usize).render(loo, buf),
        _ => super::loo::render(record, loo, buf),
    }
    table
}

/// The metrics of every run and predictive, with their standings, k-hat and (when it fits)
/// the picked metric's difference from the best with its interval.
fn metrics_table(
    app: &App,
    record: &ExperimentRecord,
    rows: &[ResultRow],
    table: Rect,
    buf: &mut Buffer,
) {
    let marks = standings(record, rows);
    let columns = Metric::ALL
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let arrow = match app.picks.sort {
                Some(s) if s.column == i && !s.reversed => "▲",
                Some(s) if s.column == i => "▼",
                _ => "",
            };
            let style = match i == app.picks.column {
                true => Style::new().add_modifier(Modifier::REVERSED),
                false => Style::new(),
            };
            let cell = Cell::from(format!("{}{arrow}", m.label())).style(style);
            (cell, if i == 0 { 8 } else { 7 })
        })
        .chain([(Cell::from("k-hat"), KHAT_WIDTH)])
        .collect::<Vec<_>>();
    let picked = Metric::ALL[app.picks.column.min(Metric::ALL.len() - 1)];
    // The Δ column when the labels keep at least 14 characters beside it.
    let fixed: u16 = columns.iter().map(|(_, w)| w + 1).sum::<u16>() + 2;
    let delta = bootstrap_name(picked).is_some()
        && !record.versus_best.is_empty()
        && table.width >= fixed + DELTA_WIDTH + 1 + 14;
    let mut columns = columns;
    if delta {
        let header = format!("Δ{} 95%", picked.label());
        columns.push((Cell::from(header), DELTA_WIDTH));
    }
    let body = rows
        .iter()
        .enumerate()
        .map(|(r, row)| LabelRow {
            label: match row.flag.is_some() {
                true => format!("{} !", row.label),
                false => row.label.clone(),
            },
            label_style: match row.flag.is_some() {
                true => Style::new().fg(Color::LightRed),
                false => Style::new(),
            },
            cells: Metric::ALL
                .iter()
                .enumerate()
                .map(|(c, m)| metric_cell(m.of(row.metrics), marks[r][c]))
                .chain([super::gold::khat_cell(row.khat, row.khat_draws)])
                .chain(
                    delta.then(|| Value::from(delta_text(record, row, picked).unwrap_or_default())),
                )
                .collect(),
        })
        .collect();
    LabelTable {
        title: Line::from(format!(
            " {} — {} test rows; green: best beyond noise, ≈ tie{} ",
            record.experiment.name,
            record.dataset.rows_test,
            match rows.iter().any(|r| r.flag.is_some()) {
                true => "; ! see below",
                false => "",
            }
        )),
        label_header: "run/predictive",
        columns,
        rows: body,
        first: app.picks.result_row,
        keys: "j/k",
    }
    .render(table, buf);
}
