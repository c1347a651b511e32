//! The predictive-formulas panel of the Posterior screen (`f`; docs/maths.md §16): on the left
//! σ(a) against the probit curve Φ(√(π/8)·a) that stands in for it, on the right the moderated
//! predictive E[σ(a)], a ~ N(μ_a, s²), against the activation variance s² at μ_a = 2, the
//! probit and MacKay formulas and a Monte-Carlo estimate (± 2 MCSE) beside the exact integral
//! (white, on top) and the plug-in σ(μ_a) (grey dots). The same curves as the reports' two
//! figures, from `output::formulas`; the Monte-Carlo draws from the record's seed.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style, Stylize};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Block, Chart, Dataset, GraphType, Paragraph, Widget, Wrap};

use bayeslab_core::record::ExperimentRecord;
use bayeslab_report::formulas::{self, Curve, Link, Moderated, Series, LINK_RANGE, MAX_VAR};

/// The moderated panel's p(y = 1) range, as the report's figure draws it.
const P_RANGE: [f64; 2] = [0.5, 0.9];

pub fn render(r: &ExperimentRecord, area: Rect, buf: &mut Buffer) {
    let [left, right] =
        Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(area);
    link_panel(&formulas::link(), left, buf);
    moderated_panel(&formulas::moderated(r.experiment.seed), right, buf);
}

fn link_panel(link: &Link, area: Rect, buf: &mut Buffer) {
    let block = Block::bordered()
        .title(" σ(a) against Φ(√(π/8)·a) ")
        .title_bottom(Line::from(" x: activation a · y: p(y = 1) ").fg(Color::Cyan));
    let inner = block.inner(area);
    block.render(area, buf);
    let legend = vec![
        key("━━ ", Curve::ProbitLink, Color::Yellow),
        key("━━ ", Curve::Sigmoid, Color::White).add_modifier(Modifier::BOLD),
        Line::from(format!("they differ by at most {:.3}", link.gap)),
        Line::from("f: whiskers · docs/maths.md §16").fg(Color::DarkGray),
    ];
    let [plot, keys] = split(inner, &legend);
    // σ is the curve the probit one stands in for: drawn last, on top
    let datasets = vec![
        line(&link.probit, Color::Yellow),
        line(&link.sigmoid, Color::White),
    ];
    chart(
        datasets,
        [-LINK_RANGE, LINK_RANGE],
        ["−6", "0", "6"],
        [0.0, 1.0],
        "a",
        plot,
        buf,
    );
    Paragraph::new(legend)
        .wrap(Wrap { trim: true })
        .render(keys, buf);
}

fn moderated_panel(m: &Moderated, area: Rect, buf: &mut Buffer) {
    let title = format!(" E[σ(a)], a ~ N(μ_a = {}, s²), against s² ", m.mu_a);
    let title = match title.chars().count() + 2 > area.width as usize {
        true => format!(" moderated predictive, μ_a = {} ", m.mu_a),
        false => title,
    };
    let block = Block::bordered()
        .title(title)
        .title_bottom(Line::from(" x: s², variance of a · y: p(y = 1) ").fg(Color::Cyan));
    let inner = block.inner(area);
    block.render(area, buf);
    let [probit, mackay] = [&m.approximations[0], &m.approximations[1]];
    let last = |s: &Series| s.points.last().map_or(f64::NAN, |p| p.1);
    let mut legend = vec![
        key("━━ ", probit.curve, Color::Yellow),
        key("━━ ", mackay.curve, Color::Cyan),
        key("•│ ", Curve::MonteCarlo, Color::LightGreen),
        Line::from(vec![
            Span::from("┈┈ ").fg(Color::Gray),
            Span::from(format!("{} = {:.3}", Curve::PlugIn.label(), m.plug_in)),
        ]),
        key("━━ ", Curve::Exact, Color::White).add_modifier(Modifier::BOLD),
    ];
    legend.push(Line::from(format!(
        "at s² = {MAX_VAR}: exact {:.3}, probit {:.3}, MacKay {:.3}",
        last(&m.exact),
        last(probit),
        last(mackay)
    )));
    let [plot, keys] = split(inner, &legend);
    // the plug-in as dots every 0.4 of s², so that it reads as a guide, not a curve
    let plug_in: Vec<(f64, f64)> = (0..=40)
        .map(|k| (f64::from(k) * MAX_VAR / 40.0, m.plug_in))
        .collect();
    let bars: Vec<[(f64, f64); 2]> =
        m.mc.iter()
            .map(|p| [(p.var, p.mean - 2.0 * p.se), (p.var, p.mean + 2.0 * p.se)])
            .collect();
    let means: Vec<(f64, f64)> = m.mc.iter().map(|p| (p.var, p.mean)).collect();
    let mut datasets = vec![Dataset::default()
        .marker(Marker::Braille)
        .graph_type(GraphType::Scatter)
        .style(Style::new().fg(Color::Gray))
        .data(&plug_in)];
    datasets.push(line(probit, Color::Yellow));
    datasets.push(line(mackay, Color::Cyan));
    datasets.extend(bars.iter().map(|b| {
        Dataset::default()
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(Style::new().fg(Color::Green))
            .data(b)
    }));
    datasets.push(line(&m.exact, Color::White));
    // the estimates' dots after the truth: they lie on it, and would vanish under it
    datasets.push(
        Dataset::default()
            .marker(Marker::Dot)
            .graph_type(GraphType::Scatter)
            .style(Style::new().fg(Color::LightGreen))
            .data(&means),
    );
    chart(
        datasets,
        [0.0, MAX_VAR],
        ["0", "8", "16"],
        P_RANGE,
        "s²",
        plot,
        buf,
    );
    Paragraph::new(legend)
        .wrap(Wrap { trim: true })
        .render(keys, buf);
}

/// A legend line: the curve's mark in its colour, then its name.
fn key(mark: &'static str, curve: Curve, colour: Color) -> Line<'static> {
    Line::from(vec![
        Span::from(mark).fg(colour),
        Span::from(curve.label()).fg(colour),
    ])
}

fn line(s: &Series, colour: Color) -> Dataset<'_> {
    Dataset::default()
        .marker(Marker::Braille)
        .graph_type(GraphType::Line)
        .style(Style::new().fg(colour))
        .data(&s.points)
}

/// The plot above, the legend below (its wrapped rows, at most half the panel).
fn split(inner: Rect, legend: &[Line]) -> [Rect; 2] {
    let width = inner.width.max(1) as usize;
    let rows: usize = legend
        .iter()
        .map(|l| l.width().div_ceil(width).max(1))
        .sum();
    let rows = (rows as u16).min(inner.height / 2);
    Layout::vertical([Constraint::Min(0), Constraint::Length(rows)]).areas(inner)
}

/// The plot's rows and its y labels' count: 5 (or 3) labels fall exactly on rows when the
/// rows less one divide by 4 (or 2), so the plot gives up rows to have them: for 5 labels at
/// most an eighth of its rows, for 3 at most one; 2 (the ends) when too short.
fn fitted_rows(rows: u16) -> (u16, usize) {
    let fit = |step: u16, least: u16| (least..=rows).rev().find(|g| (g - 1) % step == 0);
    match (fit(4, 9), fit(2, 5)) {
        (Some(g), _) if g + rows / 8 >= rows => (g, 5),
        (_, Some(g)) => (g, 3),
        _ => (rows, 2),
    }
}

/// A linear chart whose y labels fall exactly on their rows ([`fitted_rows`]), each the value
/// of its row.
fn chart(
    datasets: Vec<Dataset>,
    x: [f64; 2],
    x_labels: [&'static str; 3],
    y: [f64; 2],
    x_title: &'static str,
    area: Rect,
    buf: &mut Buffer,
) {
    // the plot's rows: the chart's less the x axis and its labels
    let (rows, n) = fitted_rows(area.height.saturating_sub(2));
    let area = Rect {
        height: (rows + 2).min(area.height),
        ..area
    };
    let y_labels: Vec<String> = (0..n)
        .map(|k| y[0] + (y[1] - y[0]) * k as f64 / (n - 1) as f64)
        .map(|v| {
            let s = format!("{v:.3}");
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        })
        .collect();
    Chart::new(datasets)
        .legend_position(None)
        .x_axis(Axis::default().title(x_title).bounds(x).labels(x_labels))
        .y_axis(Axis::default().bounds(y).labels(y_labels))
        .render(area, buf);
}

#[cfg(test)]
mod tests {
    use super::fitted_rows;

    #[test]
    fn the_plot_gives_up_at_most_three_rows_for_labels_on_exact_rows() {
        for rows in 0..80u16 {
            let (g, n) = fitted_rows(rows);
            assert!(g <= rows, "{rows}");
            match n {
                5 => assert!(
                    (g - 1) % 4 == 0 && g + rows / 8 >= rows && g >= 9,
                    "{rows}: {g}"
                ),
                3 => assert!((g - 1) % 2 == 0 && g + 1 >= rows && g >= 5, "{rows}: {g}"),
                _ => assert!(n == 2 && g == rows && rows < 10, "{rows}: {g} {n}"),
            }
        }
    }
}
