//! What the user has picked on the results screens: the Results column and sort order, the
//! run/predictive on Calibration, the run and scroll position on Posterior; and on Live, the
//! sampler whose chains are traced. Indices are clamped where they are used, so a new record
//! with fewer rows never indexes out of range.

use bayeslab_core::record::ExperimentRecord;

/// The metric columns of the Results table, in display order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metric {
    LogLoss,
    Brier,
    Accuracy,
    Auc,
    Ece,
    Mce,
}

impl Metric {
    pub const ALL: [Metric; 6] = [
        Metric::LogLoss,
        Metric::Brier,
        Metric::Accuracy,
        Metric::Auc,
        Metric::Ece,
        Metric::Mce,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Metric::LogLoss => "logloss",
            Metric::Brier => "Brier",
            Metric::Accuracy => "acc.",
            Metric::Auc => "AUC",
            Metric::Ece => "ECE",
            Metric::Mce => "MCE",
        }
    }

    /// Accuracy and AUC are better when larger; the losses and calibration errors when smaller.
    pub fn higher_is_better(self) -> bool {
        matches!(self, Metric::Accuracy | Metric::Auc)
    }

    pub fn of(self, m: &bayeslab_core::metrics::Metrics) -> Option<f64> {
        match self {
            Metric::LogLoss => Some(m.log_loss),
            Metric::Brier => Some(m.brier),
            Metric::Accuracy => Some(m.accuracy),
            Metric::Auc => m.auc,
            Metric::Ece => Some(m.ece),
            Metric::Mce => Some(m.mce),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Sort {
    pub column: usize,
    /// Best first (ascending for losses, descending for accuracy and AUC) when false.
    pub reversed: bool,
}

/// What the Posterior screen draws in place of the whiskers: one picture at a time, each key
/// (`w`, `i`, `s`, `f`) showing its own or going back to the whiskers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Picture {
    #[default]
    Whiskers,
    /// `w`: each approximation's regions in weight space against the exact contours.
    WeightSpace,
    /// `i`: the training points, the predictives' contours and sampled boundaries.
    InputSpace,
    /// `s`: a fit's recorded steps, one at a time.
    Steps,
    /// `f`: the predictive formulas (σ against the probit curve, the moderated predictive).
    Formulas,
}

impl Picture {
    /// `self`, or the whiskers when `self` is already shown.
    pub fn toggled(self, shown: Picture) -> Picture {
        match self == shown {
            true => Picture::Whiskers,
            false => self,
        }
    }

    /// The picture presentation mode (`P`) fills the terminal with: the one shown when it can
    /// be presented, else the weight-space picture.
    pub fn presented(self) -> Picture {
        match self {
            Picture::InputSpace | Picture::Formulas => self,
            _ => Picture::WeightSpace,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Picks {
    /// The highlighted Results column.
    pub column: usize,
    /// `None`: rows in run order.
    pub sort: Option<Sort>,
    /// Index into the runs with predictives ([`calibrated_runs`]).
    pub calibration: usize,
    /// Index into the runs.
    pub posterior: usize,
    /// First weight shown in the Posterior whisker list.
    pub scroll: usize,
    /// Posterior: 0 whiskers, 1 the coefficient table on the design scale, 2 in original units.
    pub coefficients: u8,
    /// Index into the record's `posteriors` (one entry per `[[posterior]]` and subset size).
    pub reparam: usize,
    /// The sampler run (index into the session's runs) whose chains Live traces; `None`
    /// follows the running sampler.
    pub trace: Option<usize>,
    /// Live without its trace panel.
    pub hide_traces: bool,
    /// Live's trace panel shows the rank plots instead of the traces.
    pub ranks: bool,
    /// Live's objective chart: which kind of objective (index into the kinds present).
    pub objective: usize,
    /// A sweep's table: its first row shown.
    pub sweep_row: usize,
    /// The Results metrics table: its first row shown.
    pub result_row: usize,
    /// The Results approximation-error table: its first row shown.
    pub gold_row: usize,
    /// Live: the first run gauge shown once nothing runs, when not every gauge fits.
    pub gauge_row: usize,
    /// The Results evidence table: its first row shown.
    pub evidence_row: usize,
    /// Results: the evidence table instead of the gold table, when the two do not both fit.
    pub evidence_pane: bool,
    /// A sweep's plot: the metric against the swept value (index into `output::tables::METRICS`).
    pub sweep_metric: usize,
    /// The first key binding the help overlay shows.
    pub help_scroll: usize,
    /// The first line of the selected experiment file's text on Experiments.
    pub text_scroll: usize,
    /// The first row of Dataset's features table and encodings panel (each stops at its last
    /// page).
    pub dataset_scroll: usize,
    /// Posterior: the picture drawn instead of the whiskers (`w`, `i`, `s`, `f`), if any.
    pub picture: Picture,
    /// The weight-space picture's pair of weights (index into `output::contour::pairs`);
    /// `None` shows the default pair.
    pub pair: Option<usize>,
    /// The step-by-step mode's run (index into the runs that recorded steps) and its step
    /// shown (`n` / `N`).
    pub step_run: usize,
    pub step: usize,
    /// The input-space picture's pair of features (index into the record's planes).
    pub features: usize,
    /// Presentation mode (`P`): the picture fills the terminal, without tabs or status line.
    pub present: bool,
}

impl Picks {
    /// The picks for a new record: its rows are new, but the choices that are not about its
    /// rows (Live's traces, the help and the experiment text) still apply.
    pub fn for_new_record(self) -> Picks {
        Picks {
            trace: self.trace,
            hide_traces: self.hide_traces,
            ranks: self.ranks,
            coefficients: self.coefficients,
            help_scroll: self.help_scroll,
            text_scroll: self.text_scroll,
            dataset_scroll: self.dataset_scroll,
            picture: self.picture,
            present: self.present,
            ..Picks::default()
        }
    }

    pub fn column_step(&mut self, delta: isize) {
        self.column = self
            .column
            .saturating_add_signed(delta)
            .min(Metric::ALL.len() - 1);
    }

    /// Sort by the highlighted column, best first; again on the same column reverses.
    pub fn sort_here(&mut self) {
        self.sort = match self.sort {
            Some(s) if s.column == self.column && !s.reversed => Some(Sort {
                column: self.column,
                reversed: true,
            }),
            Some(s) if s.column == self.column => None,
            _ => Some(Sort {
                column: self.column,
                reversed: false,
            }),
        };
    }
}

/// Every (run index, predictive index) pair of the record, in order.
pub fn predictive_pairs(record: &ExperimentRecord) -> Vec<(usize, usize)> {
    record
        .runs
        .iter()
        .enumerate()
        .flat_map(|(r, run)| (0..run.predictives.len()).map(move |p| (r, p)))
        .collect()
}

/// The runs with predictives (the Calibration screen's list), as indices into the runs.
pub fn calibrated_runs(record: &ExperimentRecord) -> Vec<usize> {
    (0..record.runs.len())
        .filter(|&r| !record.runs[r].predictives.is_empty())
        .collect()
}

/// Move `index` by `delta` inside `0..len`.
pub fn stepped(index: usize, delta: isize, len: usize) -> usize {
    index
        .saturating_add_signed(delta)
        .min(len.saturating_sub(1))
}
