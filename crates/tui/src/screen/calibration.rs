//! The Calibration screen: the reliability diagram of one run with all its predictives
//! overlaid on one axes (as the report and scikit-learn's CalibrationDisplay draw it), the
//! diagonal as the perfectly calibrated reference, and beside it a legend that is also the
//! table of each predictive's ECE and MCE, then the test rows per bin of each predictive
//! (counts on their own table, never on the probability axis). A run that did not converge or
//! mix says so in the title; a predictive whose curve is another's says which.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style, Stylize};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Block, Chart, Dataset, GraphType, Paragraph, Row, Table, Widget};

use crate::app::App;
use crate::picks::calibrated_runs;
use bayeslab_core::record::{PredictiveRecord, RunRecord};

/// One colour per predictive of the run, in record order.
const COLORS: [Color; 6] = [
    Color::Cyan,
    Color::Yellow,
    Color::LightMagenta,
    Color::LightGreen,
    Color::LightRed,
    Color::LightBlue,
];

/// `name` in at most `width` characters, shortened in the middle with `…`.
fn short(name: &str, width: usize) -> String {
    crate::widget::names::fit(&[name], width).remove(0)
}

fn color(i: usize) -> Color {
    COLORS[i % COLORS.len()]
}

pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let Some(record) = app.session.as_ref().and_then(|s| s.record.as_ref()) else {
        super::placeholder(
            "no calibration yet: run an experiment (r) and wait for it to finish",
            area,
            buf,
        );
        return;
    };
    let runs = calibrated_runs(record);
    let at = app.picks.calibration.min(runs.len().saturating_sub(1));
    let Some(&r) = runs.get(at) else {
        super::placeholder("no run produced predictions", area, buf);
        return;
    };
    let run = &record.runs[r];
    let [chart, side] =
        Layout::horizontal([Constraint::Fill(1), Constraint::Length(37)]).areas(area);
    let title = title(
        run,
        at,
        runs.len(),
        usize::from(chart.width.saturating_sub(2)),
    );
    let n = run.predictives.len() as u16;
    let [legend, table] =
        Layout::vertical([Constraint::Length(n + 4), Constraint::Fill(1)]).areas(side);
    render_chart(run, &title, chart, buf);
    render_legend(run, legend, buf);
    render_counts(run, table, buf);
}

/// The chart's title in at most `width` columns: the run, its flag when it did not converge
/// or mix (the reason dropped, then the place, when the title would not fit; the run's name
/// shortened with `…` last), and its place among the runs.
pub(crate) fn title(run: &RunRecord, at: usize, of: usize, width: usize) -> Line<'static> {
    let flag = run.flag();
    let short_flag = flag.as_ref().map(|f| match f.split_once(" (") {
        Some((head, _)) => head.to_string(),
        None => f.clone(),
    });
    let place = [
        format!("(run {}/{of}, ↑↓) ", at + 1),
        format!("{}/{of} ", at + 1),
    ];
    let tries = [
        (flag.clone(), place[0].clone()),
        (flag.clone(), place[1].clone()),
        (short_flag.clone(), place[1].clone()),
        (short_flag.clone(), String::new()),
    ];
    let len = |f: &Option<String>, p: &str| {
        run.id.chars().count()
            + 2
            + f.as_ref().map_or(0, |f| f.chars().count() + 1)
            + p.chars().count()
    };
    let (flag, place) = tries
        .iter()
        .find(|(f, p)| len(f, p) <= width)
        .cloned()
        .unwrap_or((short_flag, String::new()));
    let room = width.saturating_sub(len(&flag, &place) - run.id.chars().count());
    let mut spans = vec![Span::from(format!(" {} ", short(&run.id, room.max(4))))];
    if let Some(flag) = flag {
        spans.push(
            Span::from(format!("{flag} ")).style(
                Style::new()
                    .fg(Color::LightRed)
                    .add_modifier(Modifier::BOLD),
            ),
        );
    }
    spans.push(Span::from(place));
    Line::from(spans)
}

/// (mean prediction, observed frequency) per non-empty bin.
fn points(p: &PredictiveRecord) -> Vec<(f64, f64)> {
    p.calibration
        .iter()
        .filter_map(|b| Some((b.mean_predicted?, b.observed_frequency?)))
        .collect()
}

/// The earlier predictive of `run` whose curve is predictive `i`'s, point for point (the
/// plug-in and MacKay's coincide on a probit model's ranking): drawn under it, so named.
pub(crate) fn same_as(run: &RunRecord, i: usize) -> Option<&str> {
    let mine = points(&run.predictives[i]);
    run.predictives[..i]
        .iter()
        .find(|q| {
            let theirs = points(q);
            theirs.len() == mine.len()
                && theirs
                    .iter()
                    .zip(&mine)
                    .all(|(a, b)| (a.0 - b.0).abs() < 5e-4 && (a.1 - b.1).abs() < 5e-4)
        })
        .map(|q| q.name.name())
}

fn render_chart(run: &RunRecord, title: &Line<'static>, area: Rect, buf: &mut Buffer) {
    let diagonal = [(0.0, 0.0), (1.0, 1.0)];
    let curves: Vec<Vec<(f64, f64)>> = run.predictives.iter().map(points).collect();
    let mut datasets = vec![Dataset::default()
        .marker(Marker::Braille)
        .graph_type(GraphType::Line)
        .style(Style::new().fg(Color::DarkGray))
        .data(&diagonal)];
    for (i, pts) in curves.iter().enumerate() {
        datasets.push(
            Dataset::default()
                .marker(Marker::Braille)
                .graph_type(GraphType::Line)
                .style(Style::new().fg(color(i)))
                .data(pts),
        );
        datasets.push(
            Dataset::default()
                .marker(Marker::Dot)
                .graph_type(GraphType::Scatter)
                .style(Style::new().fg(color(i)))
                .data(pts),
        );
    }
    let axis = |t: &'static str| {
        Axis::default()
            .title(t)
            .bounds([0.0, 1.0])
            .labels(["0", "0.5", "1"])
    };
    Chart::new(datasets)
        .block(Block::bordered().title(title.clone()))
        .x_axis(axis("mean predicted"))
        .y_axis(axis("observed"))
        .render(area, buf);
}

/// The legend: each predictive's colour, name, ECE and MCE; the diagonal's grey.
fn render_legend(run: &RunRecord, area: Rect, buf: &mut Buffer) {
    let mut lines = vec![Line::from(vec![
        Span::from("   predictive ").bold(),
        Span::from("ECE    MCE").bold(),
    ])];
    for (i, p) in run.predictives.iter().enumerate() {
        let mut spans = vec![
            Span::from("━━ ").fg(color(i)),
            Span::from(format!(
                "{:<9} {:.4} {:.4}",
                short(p.name.name(), 9),
                p.metrics.ece,
                p.metrics.mce
            )),
        ];
        if let Some(other) = same_as(run, i) {
            spans.push(Span::from(format!(" ={}", short(other, 7))).fg(color(i)));
        }
        lines.push(Line::from(spans));
    }
    lines.push(Line::from(vec![
        Span::from("━━ ").fg(Color::DarkGray),
        Span::from("perfect calibration"),
    ]));
    Paragraph::new(lines)
        .block(Block::bordered().title(" legend "))
        .render(area, buf);
}

/// Test rows per bin, a column per predictive in its colour. When the bins do not fit the
/// height, each row sums `group` neighbouring bins (said in the title): no bin is cut unseen.
fn render_counts(run: &RunRecord, area: Rect, buf: &mut Buffer) {
    let Some(first) = run.predictives.first() else {
        return;
    };
    let n = run.predictives.len();
    // inside the borders: the bin (9) and a space before each predictive's column
    let free = usize::from(area.width.saturating_sub(2 + 9)).saturating_sub(n);
    let width = (free / n.max(1)).clamp(3, 8);
    let fit = usize::from(area.height.saturating_sub(3)).max(1);
    let group = first.calibration.len().div_ceil(fit).max(1);
    let rows = first
        .calibration
        .chunks(group)
        .enumerate()
        .map(|(r, bins)| {
            let (lo, hi) = (bins[0].lower, bins[bins.len() - 1].upper);
            let mut cells = vec![ratatui::widgets::Cell::from(format!("{lo:.2}–{hi:.2}"))];
            cells.extend(run.predictives.iter().enumerate().map(|(i, p)| {
                let count: usize = (r * group..r * group + bins.len())
                    .map(|b| p.calibration.get(b).map_or(0, |x| x.count))
                    .sum();
                ratatui::widgets::Cell::from(count.to_string()).style(Style::new().fg(color(i)))
            }));
            Row::new(cells)
        });
    let title = match group {
        1 => " test rows per bin ".to_string(),
        g => format!(" test rows, {g} bins a row "),
    };
    let mut header = vec![ratatui::widgets::Cell::from("bin")];
    header.extend(run.predictives.iter().enumerate().map(|(i, p)| {
        ratatui::widgets::Cell::from(short(p.name.name(), width)).style(Style::new().fg(color(i)))
    }));
    let mut widths = vec![Constraint::Length(9)];
    widths.extend(std::iter::repeat_n(Constraint::Length(width as u16), n));
    Table::new(rows, widths)
        .header(Row::new(header).style(Style::new().add_modifier(Modifier::BOLD)))
        .column_spacing(1)
        .block(Block::bordered().title(title))
        .render(area, buf);
}
