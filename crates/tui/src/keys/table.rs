//! Every binding of the workbench, one row each: the help overlay lists this table and the
//! dispatcher reads it.

use ratatui::crossterm::event::KeyCode;

use super::binding::{binding, char, key, Action, Binding, Context, Key};
use crate::app::Screen;
use crate::picks::Picture::{Formulas, InputSpace, Steps, WeightSpace};

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
        "PgUp/PgDn",
        On(Screen::Experiments),
        "scroll the experiment file's text",
        &[
            (key(PageUp), TextScroll(-10)),
            (key(PageDown), TextScroll(10)),
        ],
    ),
    binding(
        "PgUp/PgDn",
        On(Screen::Dataset),
        "scroll the features (and levels) by ten rows",
        &[
            (key(PageUp), DatasetScroll(-10)),
            (key(PageDown), DatasetScroll(10)),
        ],
    ),
    binding(
        "Up/Down, k/j",
        On(Screen::Dataset),
        "scroll the features and levels by a row",
        &[
            (key(Up), DatasetScroll(-1)),
            (key(Down), DatasetScroll(1)),
            (char('k'), DatasetScroll(-1)),
            (char('j'), DatasetScroll(1)),
        ],
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
        "PgUp/PgDn",
        On(Screen::Live),
        "scroll the run gauges when not every one fits",
        &[(key(PageUp), GaugeRows(-5)), (key(PageDown), GaugeRows(5))],
    ),
    binding(
        "t",
        On(Screen::Live),
        "chain traces, then rank plots, then neither",
        &[(char('t'), ToggleTraces)],
    ),
    binding(
        "o",
        On(Screen::Live),
        "the objective chart's next kind (E(w), −ln Z_EP, −ELBO, −JJ bound)",
        &[(char('o'), NextObjective)],
    ),
    binding(
        "Up/Down, k/j",
        On(Screen::Calibration),
        "choose the run (its predictives overlaid)",
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
        "u",
        On(Screen::Posterior),
        "whiskers / coefficients, design scale / original units",
        &[(char('u'), Coefficients)],
    ),
    binding(
        "w",
        On(Screen::Posterior),
        "weight-space picture / whiskers",
        &[(char('w'), Draw(WeightSpace))],
    ),
    binding(
        "s",
        On(Screen::Posterior),
        "step-by-step mode: a fit's recorded steps (record_steps) / back",
        &[(char('s'), Draw(Steps))],
    ),
    binding(
        "n/N",
        On(Screen::Posterior),
        "step mode: the next / previous step (Up/Down: the run)",
        &[(char('n'), Step(1)), (char('N'), Step(-1))],
    ),
    binding(
        "i",
        On(Screen::Posterior),
        "input-space picture / whiskers",
        &[(char('i'), Draw(InputSpace))],
    ),
    binding(
        "f",
        On(Screen::Posterior),
        "predictive formulas: σ vs Φ(√(π/8)·a), moderation / whiskers",
        &[(char('f'), Draw(Formulas))],
    ),
    binding(
        "P",
        Everywhere,
        "present: the picture (weight space; input space after i, formulas after f) fills the terminal",
        &[(char('P'), Present)],
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
        "scroll the metrics table (a sweep's table)",
        &[
            (key(Up), TableRows(-1)),
            (key(Down), TableRows(1)),
            (char('k'), TableRows(-1)),
            (char('j'), TableRows(1)),
        ],
    ),
    binding(
        "PgUp/PgDn",
        On(Screen::Results),
        "scroll the table against the gold run",
        &[(key(PageUp), GoldRows(-5)), (key(PageDown), GoldRows(5))],
    ),
    binding(
        "K/J",
        On(Screen::Results),
        "scroll the evidence table (ln p(y|X))",
        &[(char('K'), EvidenceRows(-1)), (char('J'), EvidenceRows(1))],
    ),
    binding(
        "v",
        On(Screen::Results),
        "swap the evidence and the gold tables",
        &[(char('v'), LowerPane)],
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
        "previous / next: a sweep's point on 5-7; the picture's pair of weights or of features",
        &[(char('['), SweepPoint(-1)), (char(']'), SweepPoint(1))],
    ),
    binding("Esc", Help, "close the help", &[(key(Esc), CloseHelp)]),
    binding(
        "Up/Down, k/j, PgUp/PgDn",
        Help,
        "scroll the help",
        &[
            (key(Up), HelpScroll(-1)),
            (key(Down), HelpScroll(1)),
            (char('k'), HelpScroll(-1)),
            (char('j'), HelpScroll(1)),
            (key(PageUp), HelpScroll(-10)),
            (key(PageDown), HelpScroll(10)),
        ],
    ),
    binding(
        "Esc",
        Presenting,
        "leave the presentation",
        &[(key(Esc), LeavePresent)],
    ),
];
