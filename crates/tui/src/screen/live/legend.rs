//! The convergence plots' one legend, above them: each run's colour, what its x axis runs
//! over (every run is drawn from its first to its last iteration so far, so Newton's 6
//! iterations and gradient descent's 9,923 both span the width) and, under `[prior] precision =
//! "evidence"`, the lambda its evidence chose. Drawn as text rather than ratatui's in-chart
//! legend, which hides itself whenever it would cover a quarter of the plot — on every
//! chart at 80x24.

use ratatui::style::{Color, Stylize};
use ratatui::text::{Line, Span};

use crate::screen::evidence::lambda;
use crate::screen::traces::{pack, Chunk};
use crate::session::{LiveRun, RunState, Session};
use bayeslab_core::catalog::thousands;
use bayeslab_core::catalog::Fitting;

/// One colour per run, in plan order: its gauge, its curves and its legend entry.
pub(in crate::screen) const COLORS: [Color; 6] = [
    Color::Yellow,
    Color::Cyan,
    Color::Magenta,
    Color::Green,
    Color::LightRed,
    Color::LightBlue,
];

/// "6 iterations", "1,200 sweeps", "one pass": the span of a run's x axis.
fn span(run: &LiveRun) -> String {
    let last = run.iterates.last().map_or(0, |i| i.iteration);
    let n = thousands(last);
    match run.fitting {
        Fitting::OnePass => "one pass".into(),
        Fitting::Sampled => format!("{n} sweeps (chain 0)"),
        _ if last == 1 => "1 iteration".into(),
        _ => format!("{n} iterations"),
    }
}

/// The legend's lines for `width` columns: the runs drawn on the charts of objective `kind`
/// (every optimising run when `None`); samplers are never drawn there, and a note says so.
pub(super) fn legend(
    session: &Session,
    kind: Option<bayeslab_report::plots::Objective>,
    width: u16,
) -> Vec<Line<'static>> {
    let mut chunks: Vec<Chunk> = vec![vec![
        Span::from("x: each run over its own iterations").fg(Color::DarkGray)
    ]];
    for (i, run) in session.runs.iter().enumerate() {
        if run.iterates.is_empty() || run.traces.is_some() {
            continue;
        }
        if kind.is_some_and(|k| run.objective != k) {
            continue;
        }
        let lambda = run
            .evidence_lambda
            .map(|l| {
                let edge = run
                    .evidence_edge
                    .map_or(String::new(), |e| format!(" (at the {}!)", e.mark()));
                format!(", λ = {} by evidence{edge}", lambda(l))
            })
            .unwrap_or_default();
        chunks.push(vec![
            Span::from("━━ ").fg(COLORS[i % COLORS.len()]),
            Span::from(format!("{}: {}{lambda}", run.id, span(run))),
        ]);
    }
    if session.runs.iter().any(|r| r.traces.is_some()) {
        chunks.push(vec![Span::from(
            "samplers: no convergence curve (t: their chains)",
        )
        .fg(Color::DarkGray)]);
    }
    pack(vec![chunks], usize::from(width))
}

/// Why there is nothing to plot: nothing has iterated yet, the runs fit without iterating,
/// or the experiment is an approximation lab with no `[[method]]` at all.
pub(super) fn nothing_to_plot(session: &Session) -> String {
    if session.runs.is_empty() {
        return match session.running() {
            true => "an approximation lab: computing its [[posterior]] tables (no [[method]] iterates)".into(),
            false => "an approximation lab, no [[method]]: nothing iterates here — its [[posterior]] tables are on 7 Reparam".into(),
        };
    }
    let waiting = session
        .runs
        .iter()
        .any(|r| matches!(r.state, RunState::Pending | RunState::Running));
    let done: Vec<String> = session
        .runs
        .iter()
        .filter_map(|r| match &r.state {
            RunState::Done(t) => Some(format!("{} {}", r.id, r.fitting.outcome(t, 0, None))),
            _ => None,
        })
        .collect();
    match (waiting, done.is_empty()) {
        (true, true) => "no iterations yet".into(),
        (true, false) => format!("no iterations yet; {}", done.join(", ")),
        (false, _) => format!("no iterations to plot: {}", done.join(", ")),
    }
}
