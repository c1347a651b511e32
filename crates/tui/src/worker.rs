//! The background worker: one std thread per experiment run, reporting owned snapshots over
//! the loop's channel and honouring a cancellation flag that the engine's iteration loop
//! checks between steps. The work is CPU-bound, so no async runtime.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::thread::JoinHandle;

use bayeslab_core::optim::DrawBatch;
use bayeslab_core::record::Outcome;
use bayeslab_core::Error;
use bayeslab_engine::config::Plan;
use bayeslab_engine::run::{self, Interest, Monitor};

use super::chains::traced_weights;
use super::event::Event;

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

/// Forwards the engine's events to the loop. A send only fails when the UI has gone, in which
/// case there is nobody to tell.
struct Channel<'a> {
    job: u64,
    tx: &'a Sender<Event>,
    /// The design columns whose draws the Live screen traces (chosen when the data load).
    traced: Vec<usize>,
    /// When the last `Reading` was sent (the first chunk's always is).
    last_read: Option<std::time::Instant>,
}

impl Monitor for Channel<'_> {
    fn event(&mut self, event: run::Event) {
        let event = match event {
            // At most every tenth of a second: a read of a large file gathers many chunks a second.
            run::Event::Reading { .. } => {
                let every = std::time::Duration::from_millis(100);
                if self.last_read.is_some_and(|t| t.elapsed() < every) {
                    return;
                }
                self.last_read = Some(std::time::Instant::now());
                event
            }
            run::Event::DataLoaded(ref dataset) => {
                self.traced = traced_weights(&dataset.columns);
                event
            }
            // Only the traced weights travel on to the UI thread.
            run::Event::Draws { run, batch, .. } => run::Event::Draws {
                run,
                batch: traced(&batch, &self.traced),
                columns: Some(self.traced.clone()),
            },
            other => other,
        };
        let _ = self.tx.send(Event::Progress {
            job: self.job,
            event,
        });
    }

    fn wants(&self, _interest: Interest) -> bool {
        true
    }
}

/// `batch` reduced to the values of design columns `traced`.
fn traced(batch: &DrawBatch, traced: &[usize]) -> DrawBatch {
    let w = batch
        .w
        .iter()
        .map(|w| traced.iter().filter_map(|&j| w.get(j).copied()).collect())
        .collect();
    DrawBatch {
        chain: batch.chain,
        schedule: batch.schedule,
        first_sweep: batch.first_sweep,
        w,
    }
}

fn work(job: u64, plan: &Plan, tx: &Sender<Event>, cancel: &AtomicBool) {
    let mut channel = Channel {
        job,
        tx,
        traced: Vec::new(),
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
