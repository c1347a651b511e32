//! Key bindings: one table (shown by `?`) and the dispatch from a key to an [`App`] change.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use super::app::{App, Command, Screen};
use super::picks::{predictive_pairs, stepped};

/// Every key, as the help overlay lists it: (keys, where, what).
pub const BINDINGS: &[(&str, &str, &str)] = &[
    ("1-7, Tab, S-Tab", "everywhere", "switch screen"),
    (
        "r, Enter",
        "everywhere",
        "run / re-run the selected experiment",
    ),
    ("c", "everywhere", "cancel the running experiment"),
    ("e", "everywhere", "export the report to runs/<name>/"),
    ("?", "everywhere", "show / hide this help"),
    (
        "q, Ctrl-C",
        "everywhere",
        "quit (cancels a running experiment)",
    ),
    ("Up/Down, k/j", "Experiments", "select an experiment file"),
    ("Left/Right, h/l", "Results", "choose a metric column"),
    (
        "s",
        "Results",
        "sort by it (best first, again: worst first, again: off)",
    ),
    (
        "Up/Down, k/j",
        "Live",
        "choose the sampler whose chains are traced",
    ),
    ("t", "Live", "show / hide the chain traces"),
    ("Up/Down, k/j", "Calibration", "choose the run / predictive"),
    ("Up/Down, k/j", "Posterior", "choose the run"),
    ("PgUp/PgDn", "Posterior", "scroll the weights"),
    ("Up/Down, k/j", "Reparam", "choose the [[posterior]]"),
    (
        "Left/Right, h/l",
        "Reparam",
        "step through its subset sizes",
    ),
    ("Esc", "help", "close the help"),
];

/// The first entry of the next (or previous) `[[posterior]]` id: the subset sizes of one
/// posterior are adjacent entries in the record.
fn next_posterior(r: &crate::record::ExperimentRecord, at: usize, delta: isize) -> usize {
    let ps = &r.posteriors;
    if ps.is_empty() {
        return 0;
    }
    let at = at.min(ps.len() - 1);
    let id = &ps[at].id;
    let first_of = |i: usize| {
        (0..=i)
            .rev()
            .take_while(|&j| ps[j].id == ps[i].id)
            .last()
            .unwrap_or(i)
    };
    if delta > 0 {
        (at..ps.len())
            .find(|&j| ps[j].id != *id)
            .unwrap_or(first_of(at))
    } else {
        let start = first_of(at);
        if start == 0 {
            0
        } else {
            first_of(start - 1)
        }
    }
}

impl App {
    /// Step to the previous / next subset size of the current `[[posterior]]`.
    fn reparam_subset(&mut self, delta: isize) {
        let Some(r) = self.session.as_ref().and_then(|s| s.record.as_ref()) else {
            return;
        };
        let ps = &r.posteriors;
        if ps.is_empty() {
            return;
        }
        let at = self.picks.reparam.min(ps.len() - 1);
        let next = at as isize + delta;
        if next >= 0 && (next as usize) < ps.len() && ps[next as usize].id == ps[at].id {
            self.picks.reparam = next as usize;
        }
    }

    pub(super) fn key(&mut self, key: KeyEvent) -> Option<Command> {
        if key.kind == KeyEventKind::Release {
            return None;
        }
        let ctrl_c =
            key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c');
        if ctrl_c || key.code == KeyCode::Char('q') {
            self.quit = true;
            return Some(Command::Quit);
        }
        if self.help {
            if matches!(key.code, KeyCode::Esc | KeyCode::Char('?')) {
                self.help = false;
            }
            return None;
        }
        match key.code {
            KeyCode::Char('?') => self.help = true,
            KeyCode::Char('r') | KeyCode::Enter => return self.run_selected(),
            KeyCode::Char('c') => return self.cancel(),
            KeyCode::Char('e') => return Some(Command::Export),
            KeyCode::Tab => {
                self.screen = Screen::ALL[(self.screen.index() + 1) % Screen::ALL.len()]
            }
            KeyCode::BackTab => {
                self.screen =
                    Screen::ALL[(self.screen.index() + Screen::ALL.len() - 1) % Screen::ALL.len()]
            }
            KeyCode::Char(d @ '1'..='7') => self.screen = Screen::ALL[d as usize - '1' as usize],
            KeyCode::Left | KeyCode::Char('h') if self.screen == Screen::Reparam => {
                self.reparam_subset(-1)
            }
            KeyCode::Right | KeyCode::Char('l') if self.screen == Screen::Reparam => {
                self.reparam_subset(1)
            }
            KeyCode::Char('t') if self.screen == Screen::Live => {
                self.picks.hide_traces = !self.picks.hide_traces
            }
            KeyCode::Up | KeyCode::Char('k') => self.vertical(-1),
            KeyCode::Down | KeyCode::Char('j') => self.vertical(1),
            KeyCode::Left | KeyCode::Char('h') if self.screen == Screen::Results => {
                self.picks.column_step(-1)
            }
            KeyCode::Right | KeyCode::Char('l') if self.screen == Screen::Results => {
                self.picks.column_step(1)
            }
            KeyCode::Char('s') if self.screen == Screen::Results => self.picks.sort_here(),
            KeyCode::PageUp if self.screen == Screen::Posterior => {
                self.picks.scroll = self.picks.scroll.saturating_sub(10)
            }
            KeyCode::PageDown if self.screen == Screen::Posterior => self.picks.scroll += 10,
            _ => {}
        }
        None
    }

    fn vertical(&mut self, delta: isize) {
        if let (Screen::Live, Some(s)) = (self.screen, &self.session) {
            let samplers: Vec<usize> = (0..s.runs.len())
                .filter(|&i| s.runs[i].traces.is_some())
                .collect();
            if let Some(at) = s
                .traced_run(self.picks.trace)
                .and_then(|r| samplers.iter().position(|&i| i == r))
            {
                self.picks.trace = Some(samplers[stepped(at, delta, samplers.len())]);
            }
            return;
        }
        let record = self.session.as_ref().and_then(|s| s.record.as_ref());
        match (self.screen, record) {
            (Screen::Experiments, _) => self.catalog.step(delta),
            (Screen::Calibration, Some(r)) => {
                let n = predictive_pairs(r).len();
                self.picks.calibration = stepped(self.picks.calibration, delta, n);
            }
            (Screen::Reparam, Some(r)) => {
                self.picks.reparam = next_posterior(r, self.picks.reparam, delta)
            }
            (Screen::Posterior, Some(r)) => {
                self.picks.posterior = stepped(self.picks.posterior, delta, r.runs.len());
                self.picks.scroll = 0;
            }
            _ => {}
        }
    }
}
