//! The convergence plots (objective and gradient norm per iteration, log10 axes, each run
//! over its own iterations) under their legend (legend.rs), and the Monte-Carlo
//! predictive's estimate against its number of samples.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::symbols::Marker;
use ratatui::widgets::{Axis, Block, Chart, Dataset, GraphType, Paragraph, Widget};

use super::legend::COLORS;
use crate::session::{LiveRun, Session};
use bayeslab_report::plots::Objective;

/// The kinds of objective among the optimising runs that have iterated, in a fixed order.
pub(super) fn objectives(session: &Session) -> Vec<Objective> {
    let mut kinds: Vec<Objective> = session
        .runs
        .iter()
        .filter(|r| !r.iterates.is_empty() && r.traces.is_none())
        .map(|r| r.objective)
        .collect();
    kinds.sort();
    kinds.dedup();
    kinds
}
use crate::widget::log_chart::{LogChart, Series};

/// Each `mc` predictive's mean estimate over the test rows against log10 of the number of
/// samples: the estimate settles as S grows.
pub(super) fn render_mc(session: &Session, area: Rect, buf: &mut Buffer) {
    // (colour index, run, points in (log10 S, estimate))
    type Curve<'a> = (usize, &'a LiveRun, Vec<(f64, f64)>);
    let curves: Vec<Curve> = session
        .runs
        .iter()
        .enumerate()
        .filter(|(_, r)| !r.mc.is_empty())
        .map(|(i, r)| (i, r, r.mc.iter().map(|&(s, m)| (s.log10(), m)).collect()))
        .collect();
    let pts = curves.iter().flat_map(|c| c.2.iter());
    let (x0, x1) = pts
        .clone()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| {
            (a.min(p.0), b.max(p.0))
        });
    let (y0, y1) = pts.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| {
        (a.min(p.1), b.max(p.1))
    });
    let pad = ((y1 - y0) * 0.1).max(1e-4);
    let datasets = curves
        .iter()
        .map(|(i, r, data)| {
            Dataset::default()
                .name(r.id.clone())
                .marker(Marker::Braille)
                .graph_type(GraphType::Line)
                .style(Style::new().fg(COLORS[i % COLORS.len()]))
                .data(data)
        })
        .collect();
    let decade = |v: f64| format!("{}", 10f64.powf(v).round());
    Chart::new(datasets)
        .block(
            Block::bordered()
                .title(" Monte Carlo: mean estimate over test rows against samples S (log10) "),
        )
        .x_axis(
            Axis::default()
                .title("S")
                .bounds([x0, x1.max(x0 + 1e-9)])
                .labels([decade(x0), decade(x1)]),
        )
        .y_axis(
            Axis::default()
                .bounds([y0 - pad, y1 + pad])
                .labels([format!("{:.4}", y0 - pad), format!("{:.4}", y1 + pad)]),
        )
        .render(area, buf);
}

/// Each optimising run's points of `pick` against its share of its own iterations: x = k / K
/// for its iterate k of K so far, so every run spans the width whatever its number of
/// iterations. Samplers are left out: the gradient at each draw is not a convergence curve
/// (their chains are on the trace panel).
pub(super) fn series<'a>(
    session: &'a Session,
    objective: Option<Objective>,
    pick: fn(&bayeslab_core::optim::Iterate) -> f64,
) -> Vec<Series<'a>> {
    session
        .runs
        .iter()
        .enumerate()
        .filter(|(_, r)| !r.iterates.is_empty() && r.traces.is_none())
        .filter(|(_, r)| objective.is_none_or(|o| r.objective == o))
        .map(|(i, r)| {
            let last = r.iterates.last().map_or(0, |it| it.iteration).max(1) as f64;
            Series {
                name: &r.id,
                color: COLORS[i % COLORS.len()],
                points: r
                    .iterates
                    .iter()
                    .map(|it| (it.iteration as f64 / last, pick(it)))
                    .collect(),
            }
        })
        .collect()
}

/// The convergence plots of the runs of one kind of objective (`pick`, modulo the kinds
/// present): E(w), −ln Z_EP, −ELBO and the JJ bound are different quantities and never share
/// an axis, nor do a gradient norm and EP's site distance.
pub(super) fn render_plots(session: &Session, pick: usize, area: Rect, buf: &mut Buffer) {
    if session.runs.iter().all(|r| r.iterates.is_empty()) {
        crate::screen::placeholder(&super::legend::nothing_to_plot(session), area, buf);
        return;
    }
    // The Monte-Carlo panel needs rows of its own: from 24 rows for the plots and their legend
    // (below that the convergence plots keep them).
    let has_mc = session.runs.iter().any(|r| !r.mc.is_empty()) && area.height >= 24;
    let kinds = objectives(session);
    let kind = kinds.get(pick % kinds.len().max(1)).copied();
    let legend = super::legend::legend(session, kind, area.width);
    let [legend_area, area] =
        Layout::vertical([Constraint::Length(legend.len() as u16), Constraint::Min(0)]).areas(area);
    Paragraph::new(legend).render(legend_area, buf);
    let area = if has_mc {
        let [top, bottom] =
            Layout::vertical([Constraint::Fill(2), Constraint::Fill(1)]).areas(area);
        render_mc(session, bottom, buf);
        top
    } else {
        area
    };
    // Stacked, the gradient norm gets the larger share: it spans many decades (1e2 to 1e-15 for
    // a Newton run) where the objective spans one or two.
    // Side by side when wide, or when stacking would leave a chart a row or two high.
    let split = if area.width >= 100 || area.height < 14 {
        Layout::horizontal([Constraint::Fill(1); 2])
    } else {
        Layout::vertical([Constraint::Fill(2), Constraint::Fill(3)])
    };
    let [left, right] = split.areas(area);
    let x_labels = || ["0".to_string(), "100 %".to_string()];
    let more = match kinds.len() {
        0 | 1 => String::new(),
        n => format!("· o: {}/{n} ", pick % n + 1),
    };
    let title = format!(
        " objective {}, log10 {more}",
        kind.map_or("", Objective::label)
    );
    LogChart {
        title: &title,
        x_bounds: [0.0, 1.0],
        x_labels: x_labels(),
        series: series(session, kind, |it| it.objective),
        empty: "no positive objective to plot on a log axis",
    }
    .render(left, buf);
    let title = match kind {
        Some(Objective::Ep) => format!(" max site distance, log10 {more}"),
        _ => format!(" gradient norm |g|, log10 {more}"),
    };
    LogChart {
        title: &title,
        x_bounds: [0.0, 1.0],
        x_labels: x_labels(),
        series: series(session, kind, |it| it.grad_norm),
        empty: "no gradient norms (the samplers have none)",
    }
    .render(right, buf);
}
