//! What the chain threads send the calling thread: chain 0's trace and, when asked, every
//! chain's draws, in batches.

use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

use crate::numeric::linalg::norm2;
use crate::optim::{DrawBatch, Iterate, Schedule};

/// What a chain thread tells the calling thread, which alone holds the observer.
pub(in crate::model) enum Report {
    /// Chain 0's objective and gradient norm at each sweep: its rows of trace.csv.
    Iterates(Vec<Iterate>),
    Draws(DrawBatch),
}

/// How long a chain gathers sweeps before sending them: often enough for a live plot, and
/// at most 20 messages a second per chain however fast a sweep is.
const FLUSH_EVERY: Duration = Duration::from_millis(50);

/// E(w) and grad E(w) for chain 0's trace, computed on the chain's own thread.
pub(in crate::model) type TraceFn<'a> = dyn Fn(&[f64]) -> (f64, Vec<f64>) + Sync + 'a;

/// One chain's outbox: chain 0's iterates (E(w) and |grad E| at each draw) and, when the
/// observer wants them, every chain's draws, sent in batches.
pub(in crate::model) struct Feed<'a> {
    tx: Sender<Report>,
    trace: Option<&'a TraceFn<'a>>,
    start: Instant,
    last_flush: Instant,
    iterates: Vec<Iterate>,
    batch: Option<DrawBatch>,
}

impl<'a> Feed<'a> {
    pub(super) fn new(
        tx: Sender<Report>,
        chain: usize,
        schedule: Schedule,
        trace: Option<&'a TraceFn<'a>>,
        draws: bool,
    ) -> Self {
        Feed {
            tx,
            trace,
            start: Instant::now(),
            last_flush: Instant::now(),
            iterates: Vec::new(),
            batch: draws.then(|| DrawBatch {
                chain,
                schedule,
                first_sweep: 1,
                w: Vec::new(),
            }),
        }
    }

    pub(in crate::model) fn sweep(&mut self, sweep: usize, w: &[f64]) {
        // One pass over the rows for both.
        let traced = self.trace.map(|trace| trace(w));
        self.sweep_known(sweep, w, traced.map(|(value, g)| (value, norm2(&g))));
    }

    /// A sweep whose E(w) and |grad E(w)| the chain already has (`known`; HMC computes both at
    /// every state it moves to): chain 0 records them instead of calling its trace.
    pub(in crate::model) fn sweep_known(
        &mut self,
        sweep: usize,
        w: &[f64],
        known: Option<(f64, f64)>,
    ) {
        if let Some((value, grad_norm)) = known.filter(|_| self.trace.is_some()) {
            self.iterates.push(Iterate {
                iteration: sweep,
                objective: value,
                grad_norm,
                step: 1.0,
                elapsed_s: self.start.elapsed().as_secs_f64(),
            });
        }
        if let Some(batch) = &mut self.batch {
            if batch.w.is_empty() {
                batch.first_sweep = sweep;
            }
            batch.w.push(w.to_vec());
        }
        if self.last_flush.elapsed() >= FLUSH_EVERY {
            self.flush();
        }
    }

    /// Send what has gathered. A send fails only once the receiver has gone, when nobody
    /// is left to tell.
    pub(in crate::model) fn flush(&mut self) {
        self.last_flush = Instant::now();
        if !self.iterates.is_empty() {
            let _ = self
                .tx
                .send(Report::Iterates(std::mem::take(&mut self.iterates)));
        }
        if let Some(batch) = self.batch.as_mut().filter(|b| !b.w.is_empty()) {
            let w = std::mem::take(&mut batch.w);
            let _ = self
                .tx
                .send(Report::Draws(DrawBatch { w, ..batch.clone() }));
        }
    }
}
