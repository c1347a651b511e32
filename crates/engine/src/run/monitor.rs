//! The engine's side of the events: [`Events`] lends the one monitor to every step of a run at
//! once (a streamed pass tells its progress from inside the fit that also reports iterates),
//! and [`Recorder`] keeps every iterate for trace.csv on the way through.

use std::cell::RefCell;

use super::event::{Event, Interest, Monitor};
use bayeslab_core::optim::{DrawBatch, Iterate, Observer};
use bayeslab_core::record::TraceRow;

/// A run's monitor, shared by the steps that report to it. A send borrows the monitor only for
/// the call, and a monitor never calls back into the run, so no two sends overlap.
#[derive(Clone, Copy)]
pub struct Events<'a> {
    monitor: &'a dyn Shared,
}

impl<'a> Events<'a> {
    pub fn new<'m: 'a>(monitor: &'a RefCell<&'m mut dyn Monitor>) -> Self {
        Events { monitor }
    }

    pub fn send(self, event: Event) {
        self.monitor.send(event);
    }

    pub fn wants(self, interest: Interest) -> bool {
        self.monitor.wants(interest)
    }
}

/// The monitor behind its cell (a trait object, so that [`Events`] has one lifetime).
trait Shared {
    fn send(&self, event: Event);
    fn wants(&self, interest: Interest) -> bool;
}

impl Shared for RefCell<&mut dyn Monitor> {
    fn send(&self, event: Event) {
        self.borrow_mut().event(event);
    }

    fn wants(&self, interest: Interest) -> bool {
        self.borrow().wants(interest)
    }
}

/// Records every iterate for trace.csv and sends it, and any sampler draws, as events.
pub(crate) struct Recorder<'a> {
    pub(crate) rows: Vec<TraceRow>,
    pub(crate) events: Events<'a>,
    /// The draws of the sampler being fitted, for its record's trace and rank plots.
    pub(crate) chains: Option<super::chains::ChainDraws>,
}

impl Observer for Recorder<'_> {
    fn observe(&mut self, run: &str, iterate: &Iterate) {
        self.rows.push(TraceRow {
            run: run.to_string(),
            iterate: iterate.clone(),
        });
        self.events.send(Event::Iterate {
            run: run.to_string(),
            iterate: iterate.clone(),
        });
    }

    /// Always: a sampler's record holds its trace and rank plots.
    fn wants_draws(&self) -> bool {
        true
    }

    fn draws(&mut self, run: &str, batch: &DrawBatch) {
        self.chains
            .get_or_insert_with(|| super::chains::ChainDraws::new(batch.schedule))
            .push(batch);
        if self.events.wants(Interest::Draws) {
            self.events.send(Event::Draws {
                run: run.to_string(),
                columns: None,
                batch: batch.clone(),
            });
        }
    }
}
