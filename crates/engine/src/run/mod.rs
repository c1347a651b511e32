//! Running an experiment: load and prepare the data once, fit every method, evaluate every
//! predictive, compare with the gold standard and a baseline, and build the run record
//! (`record/`). No I/O beyond reading the data and a streamed run's predictions file; callers
//! decide where the record goes.

mod baseline;
mod build;
mod chains;
mod event;
mod evidence;
pub mod exact_pairs;
mod experiment;
mod failure;
mod fit;
mod gold;
mod input_pair;
mod input_space;
mod keep;
mod khat;
mod loaded;
pub mod loo;
mod mc_curve;
mod metrics;
mod monitor;
mod predict;
mod provenance;
pub mod refit;
pub mod score;
mod sink;
mod source;
mod sweep;
mod true_evidence;

pub use event::{Event, Interest, Monitor, PassProgress, ScoringStep, Silent, SweepAt};
pub use gold::bernoulli_kl;
pub(crate) use monitor::Events;
pub use provenance::sha256_file;
pub use source::Source;

use std::cell::RefCell;
use std::path::Path;
use std::sync::atomic::AtomicBool;

use crate::config::Plan;
use bayeslab_core::error::Result;
use bayeslab_core::record::{ExperimentRecord, Outcome};

/// Run `plan`: once, or once per value of its `[sweep]`.
pub fn run_plan(
    plan: &Plan,
    monitor: &mut dyn Monitor,
    cancel: Option<&AtomicBool>,
    out: Option<&Path>,
) -> Result<Outcome> {
    let monitor = RefCell::new(monitor);
    let events = Events::new(&monitor);
    match &plan.sweep {
        None => run_with(plan, events, cancel, out).map(|r| Outcome::Single(Box::new(r))),
        Some(sweep) => sweep::run(plan, sweep, events, cancel, out).map(Outcome::Sweep),
    }
}

/// Load the data of `plan` and run it (its `[sweep]`, if any, is not applied). An experiment
/// with only `[[posterior]]` tables has no dataset: its record's dataset section is empty and
/// it has no runs.
pub fn run(
    plan: &Plan,
    monitor: &mut dyn Monitor,
    cancel: Option<&AtomicBool>,
) -> Result<ExperimentRecord> {
    run_for(plan, monitor, cancel, None)
}

/// [`run`] for an output that will be written to directory `out`: files made before the
/// output (a streamed predictions.csv) go into a hidden sibling of `out`
/// ([`bayeslab_core::files::Scratch`]), which a later run removes if this process is killed.
pub fn run_for(
    plan: &Plan,
    monitor: &mut dyn Monitor,
    cancel: Option<&AtomicBool>,
    out: Option<&Path>,
) -> Result<ExperimentRecord> {
    let monitor = RefCell::new(monitor);
    run_with(plan, Events::new(&monitor), cancel, out)
}

/// [`run_for`], telling `events`.
fn run_with(
    plan: &Plan,
    events: Events<'_>,
    cancel: Option<&AtomicBool>,
    out: Option<&Path>,
) -> Result<ExperimentRecord> {
    match &plan.data {
        Some(data) if !plan.methods.is_empty() => {
            let loaded = loaded::Loaded::load(data, out, events)?;
            run_loaded(plan, &loaded, events, cancel, out)
        }
        _ => build::record(plan, build::Parts::empty()),
    }
}

/// Run `plan` on data already loaded, then compare it with its baseline.
fn run_loaded(
    plan: &Plan,
    loaded: &loaded::Loaded,
    events: Events<'_>,
    cancel: Option<&AtomicBool>,
    out: Option<&Path>,
) -> Result<ExperimentRecord> {
    let mut record = experiment::run_on(plan, loaded, events, cancel, out)?;
    if let Some(dir) = &plan.baseline {
        record.comparison = Some(baseline::compare(plan, dir, &record)?);
    }
    Ok(record)
}
