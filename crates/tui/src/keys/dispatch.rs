//! Turning a key press into the action its binding names, and carrying the action out on
//! the [`App`].

use ratatui::crossterm::event::{KeyEvent, KeyEventKind, KeyModifiers};

use super::binding::{Action, Context};
use super::table::BINDINGS;
use crate::app::{App, Command, Screen};
use crate::picks::{predictive_pairs, stepped, Picture};
use Action::*;

/// The first entry of the next (or previous) `[[posterior]]` id: the subset sizes of one
/// posterior are adjacent entries in the record.
fn next_posterior(r: &bayeslab_core::record::ExperimentRecord, at: usize, delta: isize) -> usize {
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

    /// The weight-space picture: step to the previous / next pair of weights, cyclically.
    /// Step mode: the next or previous recorded step of the run shown, stopping at the ends.
    fn next_step(&mut self, delta: isize) {
        let Some(r) = self.session.as_ref().and_then(|s| s.record.as_ref()) else {
            return;
        };
        let runs = bayeslab_report::steps::stepped_runs(r);
        let n = runs
            .get(self.picks.step_run.min(runs.len().saturating_sub(1)))
            .and_then(|run| run.steps.as_ref())
            .map_or(0, |s| s.steps.len());
        self.picks.picture = Picture::Steps;
        self.picks.step = stepped(self.picks.step, delta, n);
    }

    fn pick_pair(&mut self, delta: isize) {
        let Some(r) = self.session.as_ref().and_then(|s| s.record.as_ref()) else {
            return;
        };
        let n = bayeslab_report::contour::pairs(r.dataset.columns.len()).len();
        if n > 0 {
            let at = crate::screen::pair_index(r, self.picks.pair) as isize;
            self.picks.pair = Some((at + delta).rem_euclid(n as isize) as usize);
        }
    }

    /// The input-space picture: step to the previous / next pair of features, cyclically.
    fn pick_features(&mut self, delta: isize) {
        let Some(r) = self.session.as_ref().and_then(|s| s.record.as_ref()) else {
            return;
        };
        let n = crate::screen::input_planes(r).len();
        if n > 0 {
            let at = self.picks.features.min(n - 1) as isize;
            self.picks.features = (at + delta).rem_euclid(n as isize) as usize;
        }
    }

    /// The action `key` has here: the first binding that applies in the current context
    /// and lists the key with exactly its Ctrl state, else one that lists it without Ctrl
    /// (so Ctrl-C quits while c cancels, and a key held with Shift still counts). While the
    /// help is open only quitting, closing and scrolling it act.
    pub fn action(&self, key: KeyEvent) -> Option<Action> {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        let applies = |context: Context| match context {
            Context::Everywhere => true,
            Context::On(screen) => !self.help && screen == self.screen,
            Context::Help => self.help,
            Context::Presenting => !self.help && self.picks.present,
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
        let closes = matches!(action, Quit | ToggleHelp | CloseHelp | HelpScroll(_));
        (!self.help || closes).then_some(action)
    }

    pub(crate) fn key(&mut self, key: KeyEvent) -> Option<Command> {
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
            Vertical(delta) => {
                self.vertical(delta);
                if self.screen == Screen::Experiments {
                    return self.describe_selected();
                }
            }
            DatasetScroll(delta) => {
                // Both tables follow one position, each stopping at its own last page.
                let rows = crate::screen::dataset_shown(self).map_or(0, |d| {
                    let levels = crate::screen::encoding_rows(&d.encoding).len();
                    d.summaries.len().max(levels)
                });
                self.picks.dataset_scroll = stepped(self.picks.dataset_scroll, delta, rows);
            }
            Column(delta) => self.picks.column_step(delta),
            Sort => self.picks.sort_here(),
            ToggleTraces => {
                let p = &mut self.picks;
                (p.hide_traces, p.ranks) = match (p.hide_traces, p.ranks) {
                    (false, false) => (false, true),
                    (false, true) => (true, false),
                    (true, _) => (false, false),
                };
            }
            NextObjective => self.picks.objective = self.picks.objective.wrapping_add(1),
            Coefficients => self.picks.coefficients = (self.picks.coefficients + 1) % 3,
            Draw(picture) => self.picks.picture = picture.toggled(self.picks.picture),
            Step(delta) => self.next_step(delta),
            Present => {
                self.screen = Screen::Posterior;
                self.picks.present = true;
                self.picks.picture = self.picks.picture.presented();
            }
            LeavePresent => self.picks.present = false,
            Subset(delta) => self.reparam_subset(delta),
            Scroll(delta) => {
                let rows = self
                    .session
                    .as_ref()
                    .and_then(|s| s.record.as_ref())
                    .map_or(0, |r| {
                        crate::screen::posterior_rows(r, self.picks.posterior)
                    });
                self.picks.scroll = stepped(self.picks.scroll, delta, rows);
            }
            HelpScroll(delta) => {
                let last = super::BINDINGS.len() - 1;
                self.picks.help_scroll = stepped(self.picks.help_scroll, delta, last + 1);
            }
            TextScroll(delta) => {
                let lines = self.catalog.current().map_or(0, |e| match &e.text {
                    Ok(t) => t.lines().count(),
                    Err(e) => e.lines().count(),
                });
                self.picks.text_scroll = stepped(self.picks.text_scroll, delta, lines);
            }
            TableRows(delta) if self.sweep().is_some() => self.sweep_rows(delta),
            TableRows(delta) => self.result_rows(delta),
            GoldRows(delta) => self.gold_rows(delta),
            EvidenceRows(delta) => self.evidence_rows(delta),
            GaugeRows(delta) => {
                let n = self.session.as_ref().map_or(0, |s| s.runs.len());
                self.picks.gauge_row = stepped(self.picks.gauge_row, delta, n);
            }
            LowerPane => self.picks.evidence_pane = !self.picks.evidence_pane,
            SweepMetric => self.sweep_metric(),
            // `[`/`]` pick the weight-space picture's pair while it is shown on Posterior
            SweepPoint(delta)
                if self.screen == Screen::Posterior
                    && self.picks.picture == Picture::WeightSpace =>
            {
                self.pick_pair(delta)
            }
            SweepPoint(delta)
                if self.screen == Screen::Posterior
                    && self.picks.picture == Picture::InputSpace =>
            {
                self.pick_features(delta)
            }
            SweepPoint(delta) => self.step_point(delta),
        }
        None
    }

    /// Scroll the Results metrics table, within its rows (clamped again where drawn, where
    /// the number of visible rows is known).
    fn result_rows(&mut self, delta: isize) {
        let record = self.session.as_ref().and_then(|s| s.record.as_ref());
        let n = record.map_or(0, |r| predictive_pairs(r).len());
        self.picks.result_row = stepped(self.picks.result_row, delta, n);
    }

    /// Scroll the approximation-error table under the metrics.
    fn gold_rows(&mut self, delta: isize) {
        let record = self.session.as_ref().and_then(|s| s.record.as_ref());
        let n = record.map_or(0, |r| r.approximation_error.len());
        self.picks.gold_row = stepped(self.picks.gold_row, delta, n);
    }

    /// Scroll the evidence table under the metrics (its rows: every run with an evidence of
    /// an estimated model, and the estimates).
    fn evidence_rows(&mut self, delta: isize) {
        let record = self.session.as_ref().and_then(|s| s.record.as_ref());
        let n = record
            .and_then(bayeslab_report::tables::log_evidence_table)
            .map_or(0, |e| e.table.rows.len());
        self.picks.evidence_row = stepped(self.picks.evidence_row, delta, n);
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
            (Screen::Experiments, _) => {
                self.catalog.step(delta);
                self.picks.text_scroll = 0;
                self.picks.dataset_scroll = 0;
            }
            (Screen::Calibration, Some(r)) => {
                let n = crate::picks::calibrated_runs(r).len();
                self.picks.calibration = stepped(self.picks.calibration, delta, n);
            }
            (Screen::Reparam, Some(r)) => {
                self.picks.reparam = next_posterior(r, self.picks.reparam, delta)
            }
            (Screen::Posterior, Some(r)) if self.picks.picture == Picture::Steps => {
                let n = bayeslab_report::steps::stepped_runs(r).len();
                self.picks.step_run = stepped(self.picks.step_run, delta, n);
                self.picks.step = 0;
            }
            (Screen::Posterior, Some(r)) => {
                self.picks.posterior = stepped(self.picks.posterior, delta, r.runs.len());
                self.picks.scroll = 0;
            }
            _ => {}
        }
    }
}
