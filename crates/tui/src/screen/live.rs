//! The Live screen: a gauge per method (state, iterations, latest gradient norm; for a
//! sampler its sweeps and R-hat) and the convergence plots — objective E(w) and gradient norm
//! ‖g‖ (EP: the largest site distance) per iteration on log10 axes — fed by the same observer
//! stream that writes trace.csv; on a tall enough terminal, the Monte-Carlo predictive's
//! estimate against its number of samples. For a sampler, the trace panel (traces.rs) shows
//! its chains: below it the convergence plots when there is room, instead of them otherwise.
//! A sweep's point and a streamed run's passes over its file come first (passes.rs). After
//! the fits, a line under the gauges says the estimate of the true ln p(y | X) is under way,
//! then shows it, apart from every run (log_evidence.rs). A fit that stopped short of its
//! tolerance reads NOT CONVERGED on its gauge, in red.

mod gauge;
mod khat;
mod legend;
mod log_evidence;
mod loo;
mod plots;

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};

use crate::app::App;
use crate::session::RunState;
use gauge::render_gauge;
pub(super) use legend::COLORS;
use plots::render_plots;

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
    let evidence = log_evidence::lines(session, area.width);
    let [head, gauges, estimates, plots] = Layout::vertical([
        Constraint::Length(super::passes::head_height(session)),
        Constraint::Length(n.min(area.height / 3)),
        Constraint::Length(evidence.len() as u16),
        Constraint::Min(0),
    ])
    .areas(area);
    ratatui::widgets::Widget::render(ratatui::widgets::Paragraph::new(evidence), estimates, buf);
    super::passes::render_head(session, head, buf);
    let plots = super::passes::render_done(session, plots, buf);
    // Not every gauge fits: the last row says which are shown and how to see the others.
    let all = session.runs.len();
    let visible = if all > gauges.height as usize {
        gauges.height.saturating_sub(1) as usize
    } else {
        all
    };
    let first = first_gauge(session, visible, app.picks.gauge_row);
    if visible < all {
        let last = Rect::new(gauges.x, gauges.y + visible as u16, gauges.width, 1);
        let note = format!(
            "runs {}–{} of {all} · PgUp/PgDn",
            first + 1,
            (first + visible).min(all)
        );
        ratatui::widgets::Widget::render(
            ratatui::text::Line::from(note).style(ratatui::style::Style::new().dark_gray()),
            last,
            buf,
        );
    }
    for (row, (i, run)) in session
        .runs
        .iter()
        .enumerate()
        .skip(first)
        .take(visible)
        .enumerate()
    {
        let row = Rect::new(gauges.x, gauges.y + row as u16, gauges.width, 1);
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
            render_plots(session, app.picks.objective, top, buf);
            super::traces::render(&session.runs[i], app.picks.ranks, bottom, buf);
        }
        // Otherwise the traces while their sampler runs, when picked, or once nothing runs.
        Some(i)
            if session.runs[i].state == RunState::Running
                || app.picks.trace == Some(i)
                || !session.runs.iter().any(|r| r.state == RunState::Running) =>
        {
            super::traces::render(&session.runs[i], app.picks.ranks, plots, buf)
        }
        _ => render_plots(session, app.picks.objective, plots, buf),
    }
}

/// The first gauge shown when not all fit (a third of the screen at most): while a run is at
/// work the window ends on it if it would be
/// below the last row, so the work in progress is always in view; once nothing runs, where
/// PgUp/PgDn put it (`picked`), so every finished gauge can be read.
fn first_gauge(session: &crate::session::Session, visible: usize, picked: usize) -> usize {
    let active = session
        .runs
        .iter()
        .rposition(|r| r.state == RunState::Running);
    match active {
        Some(i) if visible > 0 && i >= visible => i + 1 - visible,
        Some(_) => 0,
        None => picked.min(session.runs.len().saturating_sub(visible)),
    }
}
