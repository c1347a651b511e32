//! One gauge per method: its state, iterations and latest gradient norm; for a sampler its
//! sweeps and R-hat.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Span;
use ratatui::widgets::{Gauge, Widget};

use crate::chains::ChainTraces;
use crate::session::{LiveRun, RunState};
use bayeslab_core::catalog::Fitting;

pub(super) fn label(run: &LiveRun) -> String {
    if let Some(khat) = super::khat::label(run) {
        return khat;
    }
    if let Some(loo) = super::loo::label(run) {
        return loo;
    }
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
        RunState::Running if run.fitting == Fitting::Iterative => {
            format!("{} — iteration {it}{g}", run.id)
        }
        // no iterations to count: say what it is doing
        RunState::Running => {
            let doing = match run.fitting {
                Fitting::ClosedForm => "computing its closed form",
                Fitting::OnePass => "one pass over the training rows",
                Fitting::Quadrature => "integrating on a grid",
                _ => "sampling",
            };
            format!("{} — {doing}", run.id)
        }
        RunState::Done(t) => format!(
            "{} — {}{}",
            run.id,
            match not_converged(run) {
                true => "NOT CONVERGED: ",
                false => "",
            },
            run.fitting.outcome(t, it, last.map(|i| i.grad_norm))
        ),
        RunState::Failed(e) => format!("{} — {e}", run.id),
    }
}

/// A sampler's sweeps and R-hat: live over the traced weights, then the record's over all.
pub(super) fn sampler_label(run: &LiveRun, t: &ChainTraces) -> String {
    let s = t.schedule;
    let chains = format!("{} chains", t.chains.len());
    let rhat = |r: f64, what: &str| {
        let verdict = if crate::screen::traces::unmixed(r) {
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

/// A finished fit that stopped short of its tolerance (a sampler's flag is its R-hat).
fn not_converged(run: &LiveRun) -> bool {
    matches!(&run.state, RunState::Done(t) if t != "converged") && run.traces.is_none()
}

pub(super) fn render_gauge(run: &LiveRun, color: Color, area: Rect, buf: &mut Buffer) {
    let color = match run.state {
        RunState::Failed(_) => Color::LightRed,
        _ => color,
    };
    let unmixed = match (&run.diagnostics, &run.traces) {
        (Some(d), _) => !d.mixed(),
        (None, Some(t)) => t.rhat_max().is_some_and(crate::screen::traces::unmixed),
        (None, None) => false,
    } || not_converged(run);
    // never cut silently: a label wider than the gauge loses its middle to `…`
    let text = crate::widget::table::elide_middle(&label(run), usize::from(area.width));
    // chains not mixed, or a fit that did not converge: in red
    let label = match unmixed {
        true => Span::styled(
            text,
            Style::new()
                .fg(Color::LightRed)
                .add_modifier(Modifier::BOLD),
        ),
        false => Span::from(text),
    };
    Gauge::default()
        .ratio(run.ratio())
        .label(label)
        .gauge_style(Style::new().fg(color).bg(Color::Black))
        .use_unicode(true)
        .render(area, buf);
}
