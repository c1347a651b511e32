//! The Results screen of a finished `[sweep]`: its table (one row per value, run and
//! predictive, every metric; the rows of the point the other screens show marked ▸) and one
//! metric against the swept value — the plot report.html draws, on a log axis when the
//! values span decades. Up/Down scroll the table, `m` cycles the metric.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style, Stylize};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Block, Cell, Chart, Dataset, GraphType, Row, Table, Widget};

use crate::app::App;
use crate::picks::Metric;
use crate::sweep::sweep_rows;
use bayeslab_core::record::SweepRecord;
use bayeslab_report::{self as output, tables::METRICS};

pub fn render(app: &App, sweep: &SweepRecord, area: Rect, buf: &mut Buffer) {
    let rows = sweep_rows(sweep).len() as u16;
    let [top, bottom] = Layout::vertical([
        Constraint::Length((rows + 3).min(area.height / 2)),
        Constraint::Min(0),
    ])
    .areas(area);
    render_table(app, sweep, top, buf);
    render_plot(sweep, app.picks.sweep_metric, bottom, buf);
}

/// The first row to show so that `first` is honoured but the last page stays full.
pub fn first_row(first: usize, rows: usize, visible: usize) -> usize {
    first.min(rows.saturating_sub(visible))
}

fn render_table(app: &App, sweep: &SweepRecord, area: Rect, buf: &mut Buffer) {
    let rows = sweep_rows(sweep);
    let shown = app.session.as_ref().map_or(0, |s| s.shown);
    let visible = usize::from(area.height.saturating_sub(3));
    let first = first_row(app.picks.sweep_row, rows.len(), visible);
    let last = (first + visible).min(rows.len());
    let header = Row::new(
        ["value", "run", "predictive"]
            .into_iter()
            .chain(Metric::ALL.iter().map(|m| m.label()))
            .map(Cell::from),
    )
    .style(Style::new().add_modifier(Modifier::BOLD));
    let body = rows[first..last].iter().map(|r| {
        let mark = if r.point == shown { "▸" } else { " " };
        let cells = [
            format!("{mark}{}", r.value),
            r.run.into(),
            r.predictive.into(),
        ]
        .into_iter()
        .chain(Metric::ALL.iter().map(|m| super::num(m.of(r.metrics))));
        let row = Row::new(cells.map(Cell::from));
        match r.point == shown {
            true => row.fg(Color::Cyan),
            false => row,
        }
    });
    let width = |w: Vec<usize>, least: usize| w.into_iter().max().unwrap_or(0).max(least) as u16;
    let widths = [
        Constraint::Length(width(
            rows.iter().map(|r| r.value.to_string().len() + 1).collect(),
            6,
        )),
        Constraint::Length(width(
            rows.iter().map(|r| r.run.chars().count()).collect(),
            3,
        )),
        Constraint::Length(width(
            rows.iter().map(|r| r.predictive.chars().count()).collect(),
            10,
        )),
    ]
    .into_iter()
    .chain([Constraint::Length(7); 6]);
    let title = format!(
        " {} over {}: rows {}-{last} of {} (j/k); ▸ on 5-7 ([ ]) ",
        sweep.name,
        sweep.key,
        (first + 1).min(last),
        rows.len()
    );
    Table::new(body, widths)
        .header(header)
        .column_spacing(1)
        .block(Block::bordered().title(title))
        .render(area, buf);
}

/// x as plotted: log10 of the values when they are all positive and span two decades or more.
fn log_axis(values: &[f64]) -> bool {
    let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    lo > 0.0 && hi / lo >= 100.0
}

fn render_plot(sweep: &SweepRecord, metric: usize, area: Rect, buf: &mut Buffer) {
    let (name, get, _, _) = METRICS[metric % METRICS.len()];
    let values: Vec<f64> = sweep.points.iter().map(|p| p.value).collect();
    let log = log_axis(&values);
    let x = |v: f64| if log { v.log10() } else { v };
    let series: Vec<(String, Vec<(f64, f64)>)> = output::sweep_series(sweep, get)
        .into_iter()
        .map(|(n, pts)| (n, pts.into_iter().map(|(v, m)| (x(v), m)).collect()))
        .collect();
    let colors = super::live::COLORS;
    let legend = Line::from(
        series
            .iter()
            .enumerate()
            .flat_map(|(i, (n, pts))| {
                let c = colors[i % colors.len()];
                // a series drawn under an identical one says so, or it would be invisible
                let under = (0..i)
                    .find(|&j| bayeslab_report::plots::coincide(pts, &series[j].1))
                    .map(|j| format!(" (= {})", series[j].0))
                    .unwrap_or_default();
                [
                    Span::from(" ── ").fg(c),
                    Span::from(format!("{n}{under}")).fg(c),
                ]
            })
            .chain([Span::from(" ")])
            .collect::<Vec<_>>(),
    );
    let axis = if log { " (log axis)" } else { "" };
    let block = Block::bordered()
        .title(format!(
            " {name} against {}{axis}; m: next metric ",
            sweep.key
        ))
        .title_bottom(legend);
    let ys = series.iter().flat_map(|(_, p)| p.iter().map(|q| q.1));
    let (ylo, yhi) = ys.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), y| {
        (a.min(y), b.max(y))
    });
    if !ylo.is_finite() || values.is_empty() {
        let inner = block.inner(area);
        block.render(area, buf);
        Line::from(format!("no {name} values")).render(inner, buf);
        return;
    }
    let pad = ((yhi - ylo) * 0.05).max(1e-3);
    let [y0, y1] = [ylo - pad, yhi + pad];
    let xs: Vec<f64> = values.iter().map(|&v| x(v)).collect();
    let (x0, x1) = xs
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
            (a.min(v), b.max(v))
        });
    let (x0, x1) = match log {
        true => (x0.floor(), x1.ceil().max(x0.floor() + 1.0)),
        false => (x0, x1.max(x0 + 1e-9)),
    };
    let datasets = series
        .iter()
        .enumerate()
        .map(|(i, (n, pts))| {
            Dataset::default()
                .name(n.clone())
                .marker(Marker::Braille)
                .graph_type(GraphType::Line)
                .style(Style::new().fg(colors[i % colors.len()]))
                .data(pts)
        })
        .collect();
    Chart::new(datasets)
        .block(block)
        .legend_position(None)
        .x_axis(
            Axis::default()
                .title(sweep.key.as_str())
                .bounds([x0, x1])
                .labels(x_labels(log, x0, x1, area.width)),
        )
        .y_axis(Axis::default().bounds([y0, y1]).labels([
            format!("{y0:.3}"),
            format!("{:.3}", (y0 + y1) / 2.0),
            format!("{y1:.3}"),
        ]))
        .render(area, buf);
}

/// Every decade when they fit (about 8 columns each), else the two ends; on a linear axis
/// the two ends.
fn x_labels(log: bool, x0: f64, x1: f64, width: u16) -> Vec<String> {
    let decades = (x1 - x0).round() as usize;
    match log {
        true if (decades + 1) * 8 <= usize::from(width) => (0..=decades)
            .map(|k| 10f64.powi(x0 as i32 + k as i32).to_string())
            .collect(),
        true => vec![10f64.powf(x0).to_string(), 10f64.powf(x1).to_string()],
        false => vec![x0.to_string(), x1.to_string()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decades_are_labelled_by_their_value() {
        assert!(log_axis(&[0.001, 1.0, 1000.0]));
        assert!(!log_axis(&[0.0, 1.0, 1000.0]));
        assert!(!log_axis(&[1.0, 50.0]));
        assert_eq!(x_labels(true, -1.0, 1.0, 80), ["0.1", "1", "10"]);
        assert_eq!(x_labels(true, -3.0, 3.0, 20), ["0.001", "1000"]);
        assert_eq!(first_row(10, 21, 8), 10);
        assert_eq!(first_row(20, 21, 8), 13);
        assert_eq!(first_row(3, 2, 8), 0);
    }
}
