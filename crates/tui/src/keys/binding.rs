//! What a key binding is: the key, where it applies, the action it takes and the help line
//! that describes it.

use ratatui::crossterm::event::KeyCode;

use crate::app::Screen;
use crate::picks::Picture;

/// Where a binding applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Context {
    Everywhere,
    On(Screen),
    /// While the help overlay is open.
    Help,
    /// While a picture fills the terminal (presentation mode, `P`).
    Presenting,
}

impl Context {
    /// The overlay's "where" column.
    pub fn name(self) -> &'static str {
        match self {
            Context::Everywhere => "everywhere",
            Context::On(screen) => screen.title(),
            Context::Help => "help",
            Context::Presenting => "presenting",
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
    /// Live: traces, then rank plots, then neither.
    ToggleTraces,
    /// Live: the objective chart's next kind of objective.
    NextObjective,
    /// Posterior: whiskers, then coefficients on the design scale, then in original units.
    Coefficients,
    /// Reparam: the previous (-1) or next (+1) subset size.
    Subset(isize),
    /// Posterior: scroll the weights by this many rows.
    Scroll(isize),
    /// The help overlay: scroll by this many bindings.
    HelpScroll(isize),
    /// Experiments: scroll the selected file's text by this many lines.
    TextScroll(isize),
    /// Dataset: scroll the features table and the encodings panel by this many rows.
    DatasetScroll(isize),
    /// Results: scroll the metrics table (a sweep's table when swept) by this many rows.
    TableRows(isize),
    /// Results: scroll the approximation-error table by this many rows.
    GoldRows(isize),
    /// Live: scroll the run gauges by this many rows (when not every gauge fits).
    GaugeRows(isize),
    /// Results: scroll the evidence table by this many rows.
    EvidenceRows(isize),
    /// Results: the evidence table instead of the gold table (or back) when both do not fit.
    LowerPane,
    /// A sweep: plot the next metric; show the previous / next point.
    SweepMetric,
    /// (On Posterior with the weight-space picture shown: the previous / next pair of weights.)
    SweepPoint(isize),
    /// Posterior: this picture instead of the whiskers (weight space, input space, the
    /// step-by-step mode, the predictive formulas), or back to the whiskers.
    Draw(Picture),
    /// Posterior's step mode: the next (+1) or previous (-1) step.
    Step(isize),
    /// The picture (weight space, or input space or the formulas when shown) fills the
    /// terminal.
    Present,
    /// Back from the presentation to the screens.
    LeavePresent,
}

/// A key code, with Ctrl held or not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    pub code: KeyCode,
    pub ctrl: bool,
}

pub(super) const fn key(code: KeyCode) -> Key {
    Key { code, ctrl: false }
}

pub(super) const fn char(c: char) -> Key {
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

pub(super) const fn binding(
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
