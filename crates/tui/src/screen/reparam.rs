//! The Reparameterisation screen (the approximation lab): the exact posterior density and each
//! approximation overlaid on a Braille canvas, one colour each with a legend in its own column
//! (the plot shrinks, never the legend), above the table
//! of moments, quantiles and distances. Left/Right step through the subset sizes of one
//! `[[posterior]]`, Up/Down through the posteriors.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{
    Axis, Block, Borders, Chart, Dataset, GraphType, Paragraph, Row, Table, Widget,
};

use crate::app::App;
use bayeslab_core::record::PosteriorResult;

const COLOURS: [Color; 6] = [
    Color::White,
    Color::Cyan,
    Color::Yellow,
    Color::Magenta,
    Color::Green,
    Color::Red,
];

pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let Some(record) = app.session.as_ref().and_then(|s| s.record.as_ref()) else {
        super::placeholder(
            "no posteriors yet: run an experiment with [[posterior]] tables (e.g. lab_counts.toml)",
            area,
            buf,
        );
        return;
    };
    let n = record.posteriors.len();
    let Some(p) = record
        .posteriors
        .get(app.picks.reparam.min(n.saturating_sub(1)))
    else {
        super::placeholder(
            "this experiment has no [[posterior]] tables: try experiments/lab_counts.toml",
            area,
            buf,
        );
        return;
    };
    let title = format!(
        " {} — {}, subset {} (n = {}) [{}/{}] ",
        p.id,
        p.kind,
        p.subset,
        p.n,
        app.picks.reparam.min(n - 1) + 1,
        n
    );
    let [chart, table] = Layout::vertical([
        Constraint::Fill(1),
        Constraint::Length(p.approximations.len() as u16 + 4),
    ])
    .areas(area);
    render_chart(p, &title, chart, buf);
    render_table(p, table, buf);
}

fn render_chart(p: &PosteriorResult, title: &str, area: Rect, buf: &mut Buffer) {
    let c = &p.curves;
    let series: Vec<(&str, Vec<(f64, f64)>)> = std::iter::once(("exact", &c.exact))
        .chain(c.approximations.iter().map(|(n, y)| (n.name(), y)))
        .map(|(name, ys)| {
            (
                name,
                c.x.iter()
                    .copied()
                    .zip(ys.iter().copied())
                    .filter(|(x, y)| x.is_finite() && y.is_finite())
                    .collect(),
            )
        })
        .collect();
    let (x0, x1) =
        c.x.iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
                (a.min(*v), b.max(*v))
            });
    let y1 = series
        .iter()
        .flat_map(|(_, s)| s.iter().map(|q| q.1))
        .fold(0.0, f64::max)
        * 1.05;
    if !(x0 < x1 && y1 > 0.0) {
        super::placeholder("no density curve to draw", area, buf);
        return;
    }
    // The legend has its own column beside the plot: ratatui hides a chart's own legend when it
    // takes more than a quarter of the chart, which on 80x24 left four curves unnamed.
    let keys = Line::from(" ←/→ subset · ↑/↓ posterior ").right_aligned();
    let block = Block::bordered()
        .title(title.to_string())
        .title_bottom(keys);
    let inner = block.inner(area);
    block.render(area, buf);
    let names: Vec<&str> = series.iter().map(|(n, _)| *n).collect();
    let legend_width = names.iter().map(|n| n.chars().count()).max().unwrap_or(0) as u16 + 5;
    let [plot, legend] =
        Layout::horizontal([Constraint::Min(0), Constraint::Length(legend_width)]).areas(inner);
    render_legend(&names, legend, buf);
    // the truth (index 0) drawn last, on top of the approximations
    let datasets = series
        .iter()
        .enumerate()
        .skip(1)
        .chain(series.iter().enumerate().take(1))
        .map(|(i, (name, pts))| {
            Dataset::default()
                .name(name.to_string())
                .marker(Marker::Braille)
                .graph_type(GraphType::Line)
                .style(Style::new().fg(COLOURS[i % COLOURS.len()]))
                .data(pts)
        })
        .collect();
    let fmt = |v: f64| format!("{v:.3}");
    Chart::new(datasets)
        .legend_position(None)
        .x_axis(
            Axis::default()
                .title(p.parameter.clone())
                .bounds([x0, x1])
                .labels([fmt(x0), fmt((x0 + x1) / 2.0), fmt(x1)]),
        )
        .y_axis(
            Axis::default()
                .title("density")
                .bounds([0.0, y1])
                .labels(["0".to_string(), fmt(y1)]),
        )
        .render(plot, buf);
}

/// One line per curve, `━━ name` in its colour, in the order the curves are drawn.
fn render_legend(names: &[&str], area: Rect, buf: &mut Buffer) {
    let lines: Vec<Line> = names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            Line::from(vec![
                Span::styled("━━ ", Style::new().fg(COLOURS[i % COLOURS.len()])),
                Span::from(name.to_string()),
            ])
        })
        .collect();
    Paragraph::new(lines)
        .block(Block::new().borders(Borders::LEFT))
        .render(area, buf);
}

fn render_table(p: &PosteriorResult, area: Rect, buf: &mut Buffer) {
    // the three quantiles right-aligned under their own headers, six characters each
    let q = |q: &[f64; 3]| format!("{:>6.3} {:>6.3} {:>6.3}", q[0], q[1], q[2]);
    let four = |v: f64| format!("{v:.4}");
    // at most six characters (the KL and TV columns): fewer decimals as the value grows
    let small = |v: f64| {
        if v != 0.0 && v.abs() < 1e-3 {
            format!("{v:.1e}")
        } else if v.abs() >= 100.0 {
            format!("{v:.0}")
        } else if v.abs() >= 10.0 {
            format!("{v:.2}")
        } else {
            format!("{v:.4}")
        }
    };
    let mut rows = vec![Row::new(vec![
        "exact".to_string(),
        four(p.exact.mean),
        four(p.exact.sd),
        q(&p.exact.quantiles),
        "–".into(),
        "–".into(),
        "–".into(),
        "–".into(),
    ])];
    rows.extend(p.approximations.iter().map(|a| {
        Row::new(vec![
            a.name.name().to_string(),
            four(a.mean),
            four(a.sd),
            q(&a.quantiles),
            small(a.kl),
            small(a.tv),
            small(a.hellinger),
            small(a.mass_outside_support),
        ])
    }));
    Table::new(
        rows,
        [
            // 78 columns in all with the spacing, so "Hellinger" is whole at 80x24.
            Constraint::Length(9),
            Constraint::Length(7),
            Constraint::Length(7),
            Constraint::Min(20),
            Constraint::Length(6),
            Constraint::Length(6),
            Constraint::Length(9),
            Constraint::Length(7),
        ],
    )
    .header(
        Row::new([
            "",
            "mean",
            "sd",
            "  2.5%    50%  97.5%",
            "KL",
            "TV",
            "Hellinger",
            "outside",
        ])
        .style(Style::new().add_modifier(Modifier::BOLD)),
    )
    .block(Block::bordered().title(format!(" exact: {} ", p.exact_form)))
    .render(area, buf);
}
