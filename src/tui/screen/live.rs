//! The Live screen: a gauge per method (state, iterations, latest gradient norm) and the
//! convergence plots — objective E(w) and gradient norm ‖g‖ per iteration on log10 axes —
//! fed by the same observer stream that writes trace.csv.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Style};
use ratatui::widgets::{Gauge, Widget};

use crate::tui::app::App;
use crate::tui::session::{LiveRun, RunState, Session};
use crate::tui::widget::log_chart::{LogChart, Series};

const COLORS: [Color; 6] = [
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
    let [gauges, plots] = Layout::vertical([
        Constraint::Length(n.min(area.height / 3)),
        Constraint::Min(0),
    ])
    .areas(area);
    for (i, run) in session.runs.iter().enumerate().take(gauges.height as usize) {
        let row = Rect::new(gauges.x, gauges.y + i as u16, gauges.width, 1);
        render_gauge(run, COLORS[i % COLORS.len()], row, buf);
    }
    render_plots(session, plots, buf);
}

fn label(run: &LiveRun) -> String {
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

fn render_gauge(run: &LiveRun, color: Color, area: Rect, buf: &mut Buffer) {
    let color = match run.state {
        RunState::Failed(_) => Color::LightRed,
        _ => color,
    };
    Gauge::default()
        .ratio(run.ratio())
        .label(label(run))
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
    let split = if area.width >= 100 {
        Layout::horizontal([Constraint::Fill(1); 2])
    } else {
        Layout::vertical([Constraint::Fill(1); 2])
    };
    let [left, right] = split.areas(area);
    LogChart {
        title: " objective E(w), log10 ",
        x_title: "iteration",
        series: series(session, |it| it.objective),
    }
    .render(left, buf);
    LogChart {
        title: " gradient norm |g|, log10 ",
        x_title: "iteration",
        series: series(session, |it| it.grad_norm),
    }
    .render(right, buf);
}
