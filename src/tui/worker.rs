//! The background worker: one std thread per experiment run, reporting owned snapshots over
//! the loop's channel and honouring a cancellation flag that the engine's iteration loop
//! checks between steps. The work is CPU-bound, so no async runtime.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::thread::JoinHandle;

use crate::config::Plan;
use crate::optim::{DrawBatch, Iterate, Observer};
use crate::record::{DatasetInfo, EvidenceEstimate, LooRecord, Outcome, PassRecord, RunRecord};
use crate::run::{self, Monitor, PassProbe, PassProgress, ScoringStep};
use crate::Error;

use super::chains::traced_weights;
use super::event::{Event, LooProgress, Progress, SweepAt};

/// A running job: dropping it does not stop the thread; [`Worker::cancel`] does.
pub struct Worker {
    cancel: Arc<AtomicBool>,
    handle: Option<JoinHandle<()>>,
}

impl Worker {
    pub fn spawn(job: u64, plan: Plan, tx: Sender<Event>) -> Worker {
        let cancel = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&cancel);
        let handle = std::thread::spawn(move || work(job, &plan, &tx, &flag));
        Worker {
            cancel,
            handle: Some(handle),
        }
    }

    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// Cancel and wait for the thread (used before starting the next job, when the previous
    /// one has already ended, so the wait is immediate).
    pub fn stop(mut self) {
        self.cancel();
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

/// Forwards the engine's monitor calls as events. A send only fails when the UI has gone,
/// in which case there is nobody to tell.
struct Channel<'a> {
    job: u64,
    tx: &'a Sender<Event>,
    /// The design columns whose draws the Live screen traces (chosen when the data load).
    traced: Vec<usize>,
    /// The leave-one-out cross-validation in progress, whose refits update it.
    loo: Option<LooProgress>,
    /// When the last `Reading` was sent (the first chunk's always is).
    last_read: Option<std::time::Instant>,
}

impl Channel<'_> {
    fn send(&self, progress: Progress) {
        let _ = self.tx.send(Event::Progress {
            job: self.job,
            progress,
        });
    }
}

impl Observer for Channel<'_> {
    fn observe(&mut self, run: &str, iterate: &Iterate) {
        self.send(Progress::Iterate {
            run: run.to_string(),
            iterate: iterate.clone(),
        });
    }

    fn wants_draws(&self) -> bool {
        true
    }

    /// Only the traced weights travel on to the UI thread.
    fn draws(&mut self, run: &str, batch: &DrawBatch) {
        let w = batch
            .w
            .iter()
            .map(|w| {
                self.traced
                    .iter()
                    .filter_map(|&j| w.get(j).copied())
                    .collect()
            })
            .collect();
        self.send(Progress::Draws {
            run: run.to_string(),
            weights: self.traced.clone(),
            batch: DrawBatch {
                chain: batch.chain,
                schedule: batch.schedule,
                first_sweep: batch.first_sweep,
                w,
            },
        });
    }
}

impl Monitor for Channel<'_> {
    fn wants_mc_curve(&self) -> bool {
        true
    }

    fn mc_estimate(&mut self, run: &str, samples: usize, mean: f64) {
        self.send(Progress::McEstimate {
            run: run.to_string(),
            samples,
            mean,
        });
    }

    /// At most every tenth of a second: a read of a large file gathers many chunks a second.
    fn reading(&mut self, file: &std::path::Path, rows: usize, total: Option<usize>) {
        let every = std::time::Duration::from_millis(100);
        if self.last_read.is_none_or(|t| t.elapsed() >= every) {
            self.last_read = Some(std::time::Instant::now());
            self.send(Progress::Reading {
                file: file.to_path_buf(),
                rows,
                total,
            });
        }
    }

    fn scoring(&mut self, run: &str, predictive: &str, rows: usize, step: ScoringStep) {
        self.send(Progress::Scoring {
            run: run.to_string(),
            predictive: predictive.to_string(),
            rows,
            step,
        });
    }

    fn data_loaded(&mut self, dataset: &DatasetInfo) {
        self.traced = traced_weights(&dataset.columns);
        self.send(Progress::DataLoaded(Box::new(dataset.clone())));
    }

    fn run_started(&mut self, index: usize, total: usize, id: &str) {
        self.send(Progress::RunStarted {
            index,
            total,
            id: id.to_string(),
        });
    }

    fn run_finished(&mut self, run: &RunRecord) {
        self.send(Progress::RunFinished(Box::new(run.clone())));
    }

    fn khat_started(&mut self, run: &str, draws: usize) {
        self.send(Progress::KhatStarted {
            run: run.to_string(),
            draws,
        });
    }

    fn khat_finished(&mut self, run: &str, khat: Option<f64>, seconds: f64) {
        self.send(Progress::KhatFinished {
            run: run.to_string(),
            khat,
            seconds,
        });
    }

    fn loo_started(&mut self, run: &str, draws: usize, rows: usize) {
        self.loo = Some(LooProgress {
            run: run.to_string(),
            draws,
            rows,
            refit: None,
        });
        self.send(Progress::Loo(self.loo.clone().expect("just set")));
    }

    fn loo_refit(&mut self, _run: &str, row: usize, done: usize, total: usize) {
        if let Some(mut p) = self.loo.clone() {
            p.refit = Some((row, done, total));
            self.send(Progress::Loo(p));
        }
    }

    fn loo_finished(&mut self, run: &str, _loo: &LooRecord) {
        self.loo = None;
        self.send(Progress::LooFinished {
            run: run.to_string(),
        });
    }

    fn evidence_started(&mut self, model: &str, proposal: &str, draws: usize) {
        self.send(Progress::EvidenceStarted {
            model: model.to_string(),
            proposal: proposal.to_string(),
            draws,
        });
    }

    fn slicing(&mut self, run: &str, done: usize, total: usize, rows: usize) {
        self.send(Progress::Slicing {
            run: run.to_string(),
            done,
            total,
            rows,
        });
    }

    fn evidence_finished(&mut self, estimate: &EvidenceEstimate) {
        self.send(Progress::EvidenceFinished(Box::new(estimate.clone())));
    }

    /// Called from inside the model's work after every chunk: owns its own sender.
    fn pass_probe(&self) -> Option<PassProbe> {
        let (job, tx) = (self.job, self.tx.clone());
        Some(std::sync::Arc::new(move |pass: &PassProgress| {
            let progress = Progress::Pass(pass.clone());
            let _ = tx.send(Event::Progress { job, progress });
        }))
    }

    fn pass_finished(&mut self, pass: &PassRecord) {
        self.send(Progress::PassFinished(Box::new(pass.clone())));
    }

    fn sweep_point(&mut self, index: usize, total: usize, key: &str, value: f64) {
        self.send(Progress::SweepPoint(SweepAt {
            index,
            total,
            key: key.to_string(),
            value,
        }));
    }
}

fn work(job: u64, plan: &Plan, tx: &Sender<Event>, cancel: &AtomicBool) {
    let mut channel = Channel {
        job,
        tx,
        traced: Vec::new(),
        loo: None,
        last_read: None,
    };
    // A streamed run's predictions wait beside runs/<name>/, where the export (e) puts them.
    let out = std::path::Path::new("runs").join(&plan.name);
    let result = run::run_plan(plan, &mut channel, Some(cancel), Some(&out));
    let event = match result {
        Ok(Outcome::Single(record)) => Event::Finished { job, record },
        Ok(Outcome::Sweep(sweep)) => Event::SweepFinished {
            job,
            sweep: Box::new(sweep),
        },
        Err(e) => Event::Failed {
            job,
            cancelled: matches!(e, Error::Cancelled),
            error: e.to_string(),
        },
    };
    let _ = tx.send(event);
}

/// Run one job on the calling thread, sending the same events the worker thread sends.
/// Tests and the frame benchmark use it to reach a finished state deterministically.
pub fn run_blocking(job: u64, plan: &Plan, tx: &Sender<Event>, cancel: &AtomicBool) {
    work(job, plan, tx, cancel)
}
