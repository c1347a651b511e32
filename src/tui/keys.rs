//! Key bindings: one table, [`BINDINGS`], that the `?` overlay lists and [`App::key`]
//! dispatches from, so that the help cannot drift from what the keys do.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use super::app::{App, Command, Screen};
use super::picks::{predictive_pairs, stepped};

/// Where a binding applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Context {
    Everywhere,
    On(Screen),
    /// While the help overlay is open.
    Help,
}

impl Context {
    /// The overlay's "where" column.
    pub fn name(self) -> &'static str {
        match self {
            Context::Everywhere => "everywhere",
            Context::On(screen) => screen.title(),
            Context::Help => "help",
        }
    }
}

/// What a key does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Show(Screen),
    NextScreen,
    PreviousScreen,
    Run,
    Cancel,
    Export,
    ToggleHelp,
    CloseHelp,
    Quit,
    /// Up (-1) or down (+1) in the screen's list.
    Vertical(isize),
    /// Results: the metric column to the left (-1) or right (+1).
    Column(isize),
    Sort,
    ToggleTraces,
    /// Reparam: the previous (-1) or next (+1) subset size.
    Subset(isize),
    /// Posterior: scroll the weights by this many rows.
    Scroll(isize),
    /// A sweep: scroll its table; plot the next metric; show the previous / next point.
    SweepRows(isize),
    SweepMetric,
    SweepPoint(isize),
}

/// A key code, with Ctrl held or not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    pub code: KeyCode,
    pub ctrl: bool,
}

const fn key(code: KeyCode) -> Key {
    Key { code, ctrl: false }
}

const fn char(c: char) -> Key {
    key(KeyCode::Char(c))
}

/// One row of the help: its keys as shown, where it applies, what it does, and each key with
/// its action.
#[derive(Debug)]
pub struct Binding {
    pub label: &'static str,
    pub context: Context,
    pub what: &'static str,
    pub keys: &'static [(Key, Action)],
}

const fn binding(
    label: &'static str,
    context: Context,
    what: &'static str,
    keys: &'static [(Key, Action)],
) -> Binding {
    Binding {
        label,
        context,
        what,
        keys,
    }
}

use Action::*;
use Context::*;
use KeyCode::{BackTab, Down, Enter, Esc, Left, PageDown, PageUp, Right, Tab, Up};

const UP_DOWN: [(Key, Action); 4] = [
    (key(Up), Vertical(-1)),
    (key(Down), Vertical(1)),
    (char('k'), Vertical(-1)),
    (char('j'), Vertical(1)),
];

/// Every key, in the order the help overlay lists them.
pub const BINDINGS: &[Binding] = &[
    binding(
        "1-7, Tab, S-Tab",
        Everywhere,
        "switch screen",
        &[
            (char('1'), Show(Screen::Experiments)),
            (char('2'), Show(Screen::Dataset)),
            (char('3'), Show(Screen::Live)),
            (char('4'), Show(Screen::Results)),
            (char('5'), Show(Screen::Calibration)),
            (char('6'), Show(Screen::Posterior)),
            (char('7'), Show(Screen::Reparam)),
            (key(Tab), NextScreen),
            (key(BackTab), PreviousScreen),
        ],
    ),
    binding(
        "r, Enter",
        Everywhere,
        "run / re-run the selected experiment",
        &[(char('r'), Run), (key(Enter), Run)],
    ),
    binding(
        "c",
        Everywhere,
        "cancel the running experiment",
        &[(char('c'), Cancel)],
    ),
    binding(
        "e",
        Everywhere,
        "export the report to runs/<name>/",
        &[(char('e'), Export)],
    ),
    binding(
        "?",
        Everywhere,
        "show / hide this help",
        &[(char('?'), ToggleHelp)],
    ),
    binding(
        "q, Ctrl-C",
        Everywhere,
        "quit (cancels a running experiment)",
        &[
            (char('q'), Quit),
            (
                Key {
                    code: KeyCode::Char('c'),
                    ctrl: true,
                },
                Quit,
            ),
        ],
    ),
    binding(
        "Up/Down, k/j",
        On(Screen::Experiments),
        "select an experiment file",
        &UP_DOWN,
    ),
    binding(
        "Left/Right, h/l",
        On(Screen::Results),
        "choose a metric column",
        &[
            (key(Left), Column(-1)),
            (key(Right), Column(1)),
            (char('h'), Column(-1)),
            (char('l'), Column(1)),
        ],
    ),
    binding(
        "s",
        On(Screen::Results),
        "sort by it (best first, again: worst first, again: off)",
        &[(char('s'), Sort)],
    ),
    binding(
        "Up/Down, k/j",
        On(Screen::Live),
        "choose the sampler whose chains are traced",
        &UP_DOWN,
    ),
    binding(
        "t",
        On(Screen::Live),
        "show / hide the chain traces",
        &[(char('t'), ToggleTraces)],
    ),
    binding(
        "Up/Down, k/j",
        On(Screen::Calibration),
        "choose the run / predictive",
        &UP_DOWN,
    ),
    binding(
        "Up/Down, k/j",
        On(Screen::Posterior),
        "choose the run",
        &UP_DOWN,
    ),
    binding(
        "PgUp/PgDn",
        On(Screen::Posterior),
        "scroll the weights",
        &[(key(PageUp), Scroll(-10)), (key(PageDown), Scroll(10))],
    ),
    binding(
        "Up/Down, k/j",
        On(Screen::Reparam),
        "choose the [[posterior]]",
        &UP_DOWN,
    ),
    binding(
        "Left/Right, h/l",
        On(Screen::Reparam),
        "step through its subset sizes",
        &[
            (key(Left), Subset(-1)),
            (key(Right), Subset(1)),
            (char('h'), Subset(-1)),
            (char('l'), Subset(1)),
        ],
    ),
    binding(
        "Up/Down, k/j",
        On(Screen::Results),
        "sweep: scroll its table",
        &[
            (key(Up), SweepRows(-1)),
            (key(Down), SweepRows(1)),
            (char('k'), SweepRows(-1)),
            (char('j'), SweepRows(1)),
        ],
    ),
    binding(
        "m",
        On(Screen::Results),
        "sweep: plot the next metric against the value",
        &[(char('m'), SweepMetric)],
    ),
    binding(
        "[/]",
        Everywhere,
        "sweep: show the previous / next point on 5-7",
        &[(char('['), SweepPoint(-1)), (char(']'), SweepPoint(1))],
    ),
    binding("Esc", Help, "close the help", &[(key(Esc), CloseHelp)]),
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

    /// The action `key` has here: the first binding that applies in the current context
    /// and lists the key with exactly its Ctrl state, else one that lists it without Ctrl
    /// (so Ctrl-C quits while c cancels, and a key held with Shift still counts). While the
    /// help is open only quitting and closing it act.
    pub fn action(&self, key: KeyEvent) -> Option<Action> {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        let applies = |context: Context| match context {
            Context::Everywhere => true,
            Context::On(screen) => !self.help && screen == self.screen,
            Context::Help => self.help,
        };
        let listed = |with_ctrl: bool| {
            BINDINGS
                .iter()
                .filter(|b| applies(b.context))
                .flat_map(|b| b.keys)
                .find(|(k, _)| k.code == key.code && k.ctrl == with_ctrl)
                .map(|&(_, action)| action)
        };
        let action = listed(ctrl).or_else(|| listed(false).filter(|_| ctrl))?;
        let closes = matches!(action, Quit | ToggleHelp | CloseHelp);
        (!self.help || closes).then_some(action)
    }

    pub(super) fn key(&mut self, key: KeyEvent) -> Option<Command> {
        if key.kind == KeyEventKind::Release {
            return None;
        }
        let n = Screen::ALL.len();
        match self.action(key)? {
            Quit => {
                self.quit = true;
                return Some(Command::Quit);
            }
            Run => return self.run_selected(),
            Cancel => return self.cancel(),
            Export => return Some(Command::Export),
            ToggleHelp => self.help = !self.help,
            CloseHelp => self.help = false,
            Show(screen) => self.screen = screen,
            NextScreen => self.screen = Screen::ALL[(self.screen.index() + 1) % n],
            PreviousScreen => self.screen = Screen::ALL[(self.screen.index() + n - 1) % n],
            Vertical(delta) => self.vertical(delta),
            Column(delta) => self.picks.column_step(delta),
            Sort => self.picks.sort_here(),
            ToggleTraces => self.picks.hide_traces = !self.picks.hide_traces,
            Subset(delta) => self.reparam_subset(delta),
            Scroll(delta) => self.picks.scroll = self.picks.scroll.saturating_add_signed(delta),
            SweepRows(delta) => self.sweep_rows(delta),
            SweepMetric => self.sweep_metric(),
            SweepPoint(delta) => self.step_point(delta),
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

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::tui::catalog::Catalog;

    fn app() -> App {
        App::new(Catalog::discover(Path::new("experiments"), None))
    }

    fn press(k: Key) -> KeyEvent {
        let modifiers = if k.ctrl {
            KeyModifiers::CONTROL
        } else {
            KeyModifiers::NONE
        };
        KeyEvent::new(k.code, modifiers)
    }

    /// A key as the labels write it.
    fn name(k: Key) -> String {
        match k.code {
            KeyCode::Char(c) if k.ctrl => format!("Ctrl-{}", c.to_ascii_uppercase()),
            KeyCode::Char(c) => c.to_string(),
            BackTab => "S-Tab".into(),
            PageUp => "PgUp".into(),
            PageDown => "PgDn".into(),
            code => format!("{code:?}"),
        }
    }

    #[test]
    fn every_listed_key_does_what_its_row_says_where_its_row_says() {
        // No binding listed earlier may take a later one's key in its context.
        for b in BINDINGS {
            let contexts: Vec<(Screen, bool)> = match b.context {
                Context::Everywhere => Screen::ALL.iter().map(|&s| (s, false)).collect(),
                Context::On(screen) => vec![(screen, false)],
                Context::Help => Screen::ALL.iter().map(|&s| (s, true)).collect(),
            };
            for (screen, help) in contexts {
                let mut app = app();
                (app.screen, app.help) = (screen, help);
                for &(k, action) in b.keys {
                    let closes = matches!(action, Quit | ToggleHelp | CloseHelp);
                    if help && !closes {
                        continue;
                    }
                    assert_eq!(
                        app.action(press(k)),
                        Some(action),
                        "{} ({}) on {}",
                        name(k),
                        b.label,
                        screen.title()
                    );
                }
            }
        }
    }

    #[test]
    fn each_label_names_exactly_its_keys() {
        // "1-7" stands for 1, 2, ..., 7.
        let covers = |token: &str, key: &str| {
            token == key
                || matches!(token.split_once('-'),
                    Some((lo, hi)) if lo.len() == 1 && hi.len() == 1 && key.len() == 1
                        && lo <= key && key <= hi)
        };
        for b in BINDINGS {
            let tokens: Vec<&str> = b.label.split(", ").flat_map(|t| t.split('/')).collect();
            let names: Vec<String> = b.keys.iter().map(|&(k, _)| name(k)).collect();
            for n in &names {
                assert!(tokens.iter().any(|t| covers(t, n)), "{}: no {n}", b.label);
            }
            for t in &tokens {
                assert!(
                    names.iter().any(|n| covers(t, n)),
                    "{}: {t} is no key",
                    b.label
                );
            }
        }
    }

    #[test]
    fn with_the_help_open_only_quitting_and_closing_it_act() {
        let mut app = app();
        app.help = true;
        for code in [
            KeyCode::Char('r'),
            KeyCode::Char('4'),
            Tab,
            Up,
            KeyCode::Char('c'),
        ] {
            assert_eq!(app.action(press(key(code))), None, "{code:?}");
        }
        assert_eq!(app.action(press(key(Esc))), Some(CloseHelp));
        assert_eq!(app.action(press(char('?'))), Some(ToggleHelp));
        assert_eq!(app.action(press(char('q'))), Some(Quit));
        app.help = false;
        // Ctrl-C quits, c cancels, and a letter held with Ctrl still acts as the letter.
        let ctrl = |c: char| KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL);
        assert_eq!(app.action(ctrl('c')), Some(Quit));
        assert_eq!(app.action(press(char('c'))), Some(Cancel));
        assert_eq!(app.action(ctrl('r')), Some(Run));
        // Esc does nothing while the help is closed; Up/Down nothing on Dataset.
        assert_eq!(app.action(press(key(Esc))), None);
        app.screen = Screen::Dataset;
        assert_eq!(app.action(press(key(Down))), None);
    }
}
