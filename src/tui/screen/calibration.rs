//! The Calibration screen: the reliability diagram of one run/predictive (observed
//! frequency against mean prediction per non-empty bin, the diagonal as the perfectly
//! calibrated reference) beside its bin table with counts, ECE and MCE.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::symbols::Marker;
use ratatui::widgets::{
    Axis, Block, Chart, Dataset, GraphType, LegendPosition, Row, Table, Widget,
};

use crate::record::PredictiveRecord;
use crate::tui::app::App;
use crate::tui::picks::predictive_pairs;

pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let Some(record) = app.session.as_ref().and_then(|s| s.record.as_ref()) else {
        super::placeholder(
            "no calibration yet: run an experiment (r) and wait for it to finish",
            area,
            buf,
        );
        return;
    };
    let pairs = predictive_pairs(record);
    let Some(&(r, p)) = pairs.get(app.picks.calibration.min(pairs.len().saturating_sub(1))) else {
        super::placeholder("no run produced predictions", area, buf);
        return;
    };
    let (run, pred) = (&record.runs[r], &record.runs[r].predictives[p]);
    let title = format!(
        " {}/{} ({}/{}) ",
        run.id,
        pred.name,
        app.picks.calibration.min(pairs.len() - 1) + 1,
        pairs.len()
    );
    let [chart, table] =
        Layout::horizontal([Constraint::Fill(1), Constraint::Length(37)]).areas(area);
    render_chart(pred, &title, chart, buf);
    render_table(pred, table, buf);
}

fn render_chart(pred: &PredictiveRecord, title: &str, area: Rect, buf: &mut Buffer) {
    let diagonal = [(0.0, 0.0), (1.0, 1.0)];
    let points: Vec<(f64, f64)> = pred
        .calibration
        .iter()
        .filter_map(|b| Some((b.mean_predicted?, b.observed_frequency?)))
        .collect();
    let datasets = vec![
        Dataset::default()
            .name("ideal")
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(Style::new().fg(Color::DarkGray))
            .data(&diagonal),
        Dataset::default()
            .name("observed")
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(Style::new().fg(Color::Cyan))
            .data(&points),
        Dataset::default()
            .marker(Marker::Dot)
            .graph_type(GraphType::Scatter)
            .style(Style::new().fg(Color::Yellow))
            .data(&points),
    ];
    let axis = |t: &'static str| {
        Axis::default()
            .title(t)
            .bounds([0.0, 1.0])
            .labels(["0", "0.5", "1"])
    };
    Chart::new(datasets)
        .block(Block::bordered().title(title.to_string()))
        .legend_position(Some(LegendPosition::TopLeft))
        // the legend always, however small the chart (ratatui hides it past a quarter)
        .hidden_legend_constraints((Constraint::Percentage(100), Constraint::Percentage(100)))
        .x_axis(axis("mean predicted"))
        .y_axis(axis("observed"))
        .render(area, buf);
}

fn render_table(pred: &PredictiveRecord, area: Rect, buf: &mut Buffer) {
    let rows = pred.calibration.iter().map(|b| {
        Row::new([
            format!("{:.2}–{:.2}", b.lower, b.upper),
            b.count.to_string(),
            super::num(b.mean_predicted),
            super::num(b.observed_frequency),
        ])
    });
    Table::new(
        rows,
        [
            Constraint::Length(9),
            Constraint::Length(5),
            Constraint::Length(8),
            Constraint::Length(8),
        ],
    )
    .header(
        Row::new(["bin", "n", "mean p", "observed"])
            .style(Style::new().add_modifier(Modifier::BOLD)),
    )
    .block(Block::bordered().title(format!(
        " ECE {:.4}  MCE {:.4} ",
        pred.metrics.ece, pred.metrics.mce
    )))
    .render(area, buf);
}
