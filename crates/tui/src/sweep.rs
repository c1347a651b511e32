//! A `[sweep]` in the workbench: the point running now, the finished sweep whose table and
//! plot the Results screen shows, the point whose record the other results screens show
//! (`[` and `]` pick it), and its export (what `bayeslab run` writes for a sweep).

use std::path::{Path, PathBuf};

use bayeslab_core::record::SweepRecord;
use bayeslab_report as output;

use super::app::App;
use super::picks::{stepped, Picks};
use super::session::{JobState, RunState, Session};
use bayeslab_engine::run::SweepAt;

impl Session {
    /// A new point starts: its runs start over, and so do its passes over the data file.
    pub(super) fn start_point(&mut self, at: SweepAt) {
        self.point = Some(at);
        self.passes = Default::default();
        for r in &mut self.runs {
            r.state = RunState::Pending;
            r.iterates.clear();
            r.mc.clear();
            r.traces = None;
            r.diagnostics = None;
        }
    }

    pub(super) fn finish_sweep(&mut self, sweep: SweepRecord) {
        self.state = JobState::Finished;
        self.sweep = Some(sweep);
        // the point Live has just drawn, so that Live, the status line and 4-7 name one point
        self.show(usize::MAX);
    }

    /// Show point `index` (clamped) on the results screens.
    fn show(&mut self, index: usize) {
        let Some(sweep) = &self.sweep else { return };
        let index = index.min(sweep.points.len().saturating_sub(1));
        let record = sweep.points.get(index).map(|p| p.record.clone());
        self.shown = index;
        if let Some(record) = &record {
            for run in &record.runs {
                self.finish_run(run);
            }
        }
        self.record = record;
    }

    /// The shown point as a label, e.g. `point 1/7: prior.precision = 0.001`.
    pub fn shown_label(&self) -> Option<String> {
        let sweep = self.sweep.as_ref()?;
        let point = sweep.points.get(self.shown)?;
        let at = SweepAt {
            index: self.shown,
            total: sweep.points.len(),
            key: sweep.key.clone(),
            value: point.value,
        };
        Some(at.label())
    }
}

impl App {
    pub(super) fn sweep_finished(&mut self, job: u64, sweep: SweepRecord) {
        let Some(s) = self.session.as_mut().filter(|s| s.job == job) else {
            return;
        };
        let failed: usize = sweep
            .points
            .iter()
            .map(|p| p.record.failed_runs().count())
            .sum();
        let n = sweep.points.len();
        s.finish_sweep(sweep);
        self.picks = self.picks.for_new_record();
        match failed {
            0 => self.info(format!(
                "finished {n} points: 4 shows the sweep, [ ] pick the point for 5-7, e exports"
            )),
            f => self.error(format!(
                "finished; {f} run(s) failed over the {n} points: see 4 Results"
            )),
        }
    }

    /// `[` / `]`: the previous / next point of a finished sweep on the results screens.
    pub(super) fn step_point(&mut self, delta: isize) {
        let Some(s) = self.session.as_mut().filter(|s| s.sweep.is_some()) else {
            self.info("[ and ] pick a sweep's point: run an experiment with a [sweep] first");
            return;
        };
        let n = s.sweep.as_ref().map_or(0, |w| w.points.len());
        s.show(stepped(s.shown, delta, n));
        // The new record's rows are new; keep the sweep view's own choices.
        self.picks = Picks {
            sweep_row: self.picks.sweep_row,
            sweep_metric: self.picks.sweep_metric,
            ..self.picks.for_new_record()
        };
        // The status line's job label names the point from now on.
        self.info("5-7 show this point; [ ] pick another");
    }

    /// Up / Down on a sweep's table.
    pub(super) fn sweep_rows(&mut self, delta: isize) {
        self.picks.sweep_row = self.picks.sweep_row.saturating_add_signed(delta);
        // Clamped again where drawn, where the number of visible rows is known.
        let rows = self.sweep().map_or(0, |w| sweep_rows(w).len());
        self.picks.sweep_row = self.picks.sweep_row.min(rows.saturating_sub(1));
    }

    /// `m`: the next metric on a sweep's plot.
    pub(super) fn sweep_metric(&mut self) {
        self.picks.sweep_metric = (self.picks.sweep_metric + 1) % output::tables::METRICS.len();
    }

    pub fn sweep(&self) -> Option<&SweepRecord> {
        self.session.as_ref().and_then(|s| s.sweep.as_ref())
    }

    /// Write the finished sweep to `root`/runs/<name>/ as `bayeslab run` does: sweep.json,
    /// the report and one directory per value, swapped in atomically, refusing a directory
    /// that is not a previous output.
    pub(super) fn export_sweep(&mut self, root: &Path) {
        let Some(sweep) = self.sweep() else { return };
        let dir = root.join("runs").join(&sweep.name);
        let artifacts = output::render_sweep(sweep);
        let files = output::sweep_files(sweep);
        let mut inputs: Vec<PathBuf> = sweep
            .points
            .iter()
            .flat_map(|p| output::inputs(&p.record))
            .collect();
        inputs.sort();
        inputs.dedup();
        match output::write_dir_with_files(&dir, &artifacts, &files, &inputs) {
            Ok(()) => self.info(super::app::exported(
                "sweep.json, report.md, report.html and one folder per value",
                &dir,
            )),
            Err(e) => self.error(format!("export failed: {e}")),
        }
    }
}

/// One row of a sweep's table: the value, the run, the predictive and its metrics.
pub struct SweepRow<'a> {
    pub point: usize,
    pub value: f64,
    pub run: &'a str,
    pub predictive: &'a str,
    pub metrics: &'a bayeslab_core::metrics::Metrics,
}

/// Every (point, run, predictive) of the sweep, in order (sweep.json's `rows`).
pub fn sweep_rows(sweep: &SweepRecord) -> Vec<SweepRow<'_>> {
    sweep
        .points
        .iter()
        .enumerate()
        .flat_map(|(i, p)| {
            p.record.runs.iter().flat_map(move |run| {
                run.predictives.iter().map(move |pr| SweepRow {
                    point: i,
                    value: p.value,
                    run: &run.id,
                    predictive: pr.name.name(),
                    metrics: &pr.metrics,
                })
            })
        })
        .collect()
}
