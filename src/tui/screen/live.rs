//! The Live screen: a gauge per method (state, iterations, latest gradient norm; for a
//! sampler its sweeps and R-hat) and the convergence plots — objective E(w) and gradient norm
//! ‖g‖ (EP: the largest site distance) per iteration on log10 axes — fed by the same observer
//! stream that writes trace.csv; on a tall enough terminal, the Monte-Carlo predictive's
//! estimate against its number of samples. For a sampler, the trace panel (traces.rs) shows
//! its chains: below it the convergence plots when there is room, instead of them otherwise.
//! A sweep's point and a streamed run's passes over its file come first (passes.rs).

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::symbols::Marker;
use ratatui::text::Span;
use ratatui::widgets::{Axis, Block, Chart, Dataset, Gauge, GraphType, Widget};

use crate::tui::app::App;
use crate::tui::chains::ChainTraces;
use crate::tui::session::{LiveRun, RunState, Session};
use crate::tui::widget::log_chart::{LogChart, Series};

pub(super) const COLORS: [Color; 6] = [
    Color::Yellow,
    Color::Cyan,
    Color::Magenta,
    Color::Green,
    Color::LightRed,
    Color::LightBlue,
];

pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let Some(session) = &app.session else {
        super::placeholder(
            "nothing has run yet: select an experiment and press r",
            area,
            buf,
        );
        return;
    };
    let n = session.runs.len() as u16;
    let [head, gauges, plots] = Layout::vertical([
        Constraint::Length(super::passes::head_height(session)),
        Constraint::Length(n.min(area.height / 3)),
        Constraint::Min(0),
    ])
    .areas(area);
    super::passes::render_head(session, head, buf);
    let plots = super::passes::render_done(session, plots, buf);
    for (i, run) in session.runs.iter().enumerate().take(gauges.height as usize) {
        let row = Rect::new(gauges.x, gauges.y + i as u16, gauges.width, 1);
        render_gauge(run, COLORS[i % COLORS.len()], row, buf);
    }
    let traced = session
        .traced_run(app.picks.trace)
        .filter(|_| !app.picks.hide_traces);
    match traced {
        // Room for both: the convergence plots above the traces.
        Some(i) if plots.height >= 28 => {
            let [top, bottom] =
                Layout::vertical([Constraint::Fill(1), Constraint::Fill(1)]).areas(plots);
            render_plots(session, top, buf);
            super::traces::render(&session.runs[i], bottom, buf);
        }
        // Otherwise the traces while their sampler runs, when picked, or once nothing runs.
        Some(i)
            if session.runs[i].state == RunState::Running
                || app.picks.trace == Some(i)
                || !session.runs.iter().any(|r| r.state == RunState::Running) =>
        {
            super::traces::render(&session.runs[i], plots, buf)
        }
        _ => render_plots(session, plots, buf),
    }
}

/// Each `mc` predictive's mean estimate over the test rows against log10 of the number of
/// samples: the estimate settles as S grows.
fn render_mc(session: &Session, area: Rect, buf: &mut Buffer) {
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

fn label(run: &LiveRun) -> String {
    if let Some(t) = &run.traces {
        return sampler_label(run, t);
    }
    let last = run.iterates.last();
    let it = last.map(|i| i.iteration).unwrap_or(0);
    let g = last
        .map(|i| format!(", |g| {:.1e}", i.grad_norm))
        .unwrap_or_default();
    match &run.state {
        RunState::Pending => format!("{} — waiting", run.id),
        RunState::Running => format!("{} — iteration {it}{g}", run.id),
        RunState::Done(t) => format!("{} — {t} after {it} iterations{g}", run.id),
        RunState::Failed(e) => format!("{} — {e}", run.id),
    }
}

/// A sampler's sweeps and R-hat: live over the traced weights, then the record's over all.
fn sampler_label(run: &LiveRun, t: &ChainTraces) -> String {
    let s = t.schedule;
    let chains = format!("{} chains", t.chains.len());
    let rhat = |r: f64, what: &str| {
        let verdict = if super::traces::unmixed(r) {
            " NOT MIXED"
        } else {
            ""
        };
        format!(", R-hat{what} {r:.3}{verdict}")
    };
    match (&run.state, run.diagnostics) {
        (RunState::Done(_), Some(d)) => format!(
            "{} — {} sweeps × {chains}{}",
            run.id,
            s.sweeps(),
            rhat(d.rhat_max, " max")
        ),
        (RunState::Failed(e), _) => format!("{} — {e}", run.id),
        _ => format!(
            "{} — sweep {}/{} × {chains}{}",
            run.id,
            t.sweeps(),
            s.sweeps(),
            t.rhat_max()
                .map(|r| rhat(r, " (traced)"))
                .unwrap_or_else(|| ", burn-in".into())
        ),
    }
}

fn render_gauge(run: &LiveRun, color: Color, area: Rect, buf: &mut Buffer) {
    let color = match run.state {
        RunState::Failed(_) => Color::LightRed,
        _ => color,
    };
    let unmixed = match (&run.diagnostics, &run.traces) {
        (Some(d), _) => !d.mixed(),
        (None, Some(t)) => t.rhat_max().is_some_and(super::traces::unmixed),
        (None, None) => false,
    };
    let label = match unmixed {
        true => Span::styled(
            label(run),
            Style::new()
                .fg(Color::LightRed)
                .add_modifier(Modifier::BOLD),
        ),
        false => Span::from(label(run)),
    };
    Gauge::default()
        .ratio(run.ratio())
        .label(label)
        .gauge_style(Style::new().fg(color).bg(Color::Black))
        .use_unicode(true)
        .render(area, buf);
}

fn series<'a>(session: &'a Session, pick: fn(&crate::optim::Iterate) -> f64) -> Vec<Series<'a>> {
    session
        .runs
        .iter()
        .enumerate()
        .filter(|(_, r)| !r.iterates.is_empty())
        .map(|(i, r)| Series {
            name: &r.id,
            color: COLORS[i % COLORS.len()],
            points: r
                .iterates
                .iter()
                .map(|it| (it.iteration as f64, pick(it)))
                .collect(),
        })
        .collect()
}

fn render_plots(session: &Session, area: Rect, buf: &mut Buffer) {
    // The Monte-Carlo panel needs rows of its own; below 24 rows the convergence plots keep them.
    let has_mc = session.runs.iter().any(|r| !r.mc.is_empty()) && area.height >= 24;
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
    let split = if area.width >= 100 {
        Layout::horizontal([Constraint::Fill(1); 2])
    } else {
        Layout::vertical([Constraint::Fill(2), Constraint::Fill(3)])
    };
    let [left, right] = split.areas(area);
    LogChart {
        title: " objective E(w), log10 ",
        x_title: "iteration",
        series: series(session, |it| it.objective),
    }
    .render(left, buf);
    // The full title needs 52 columns with the borders; side by side at 100 to 103 columns
    // each panel has fewer, so the short form keeps "log10" on screen.
    let full = " gradient norm |g| (EP: max site distance), log10 ";
    let title = if usize::from(right.width) >= full.chars().count() + 2 {
        full
    } else {
        " |g| (EP: max site distance), log10 "
    };
    LogChart {
        title,
        x_title: "iteration",
        series: series(session, |it| it.grad_norm),
    }
    .render(right, buf);
}
