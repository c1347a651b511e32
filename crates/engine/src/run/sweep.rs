//! `[sweep]`: the same experiment once per value of one key. The data are loaded and prepared
//! once (once per distinct `[data]` section, when the swept key is a data key) and every point
//! runs on them; each point's record is a whole run record.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use super::event::{Event, SweepAt};
use super::loaded::Loaded;
use super::monitor::Events;
use crate::config::{DataPlan, Plan};
use bayeslab_core::error::Result;
use bayeslab_core::record::{SweepPoint, SweepRecord};

/// Run every point of `sweep` (the validated plans of `plan`'s `[sweep]`).
pub fn run(
    plan: &Plan,
    sweep: &crate::config::sweep::Sweep,
    events: Events<'_>,
    cancel: Option<&AtomicBool>,
    out: Option<&Path>,
) -> Result<SweepRecord> {
    let loaded = load_and_check(sweep, out, events)?;
    let mut points = Vec::with_capacity(sweep.points.len());
    for (i, (value, point)) in sweep.points.iter().enumerate() {
        events.send(Event::SweepPoint(SweepAt {
            index: i,
            total: sweep.points.len(),
            key: sweep.key.clone(),
            value: *value,
        }));
        let record = match data_of(point).and_then(|d| loaded.iter().find(|(l, _)| l == d)) {
            Some((_, data)) => super::run_loaded(point, data, events, cancel, out)?,
            None => super::run_with(point, events, cancel, out)?,
        };
        points.push(SweepPoint {
            value: *value,
            label: sweep.labels[i].clone(),
            record,
        });
    }
    Ok(SweepRecord {
        name: plan.name.clone(),
        key: sweep.key.clone(),
        points,
    })
}

/// The data a point fits on, when it fits anything.
fn data_of(point: &Plan) -> Option<&DataPlan> {
    point.data.as_ref().filter(|_| !point.methods.is_empty())
}

/// Load every distinct `[data]` of the sweep and check every point against the data it will
/// run on (config/limits.rs `check_design`) before any point runs: a value the data refuse
/// fails at once, not after every point before it has run.
fn load_and_check(
    sweep: &crate::config::sweep::Sweep,
    out: Option<&Path>,
    events: Events<'_>,
) -> Result<Vec<(DataPlan, Loaded)>> {
    let mut loaded: Vec<(DataPlan, Loaded)> = Vec::new();
    for (label, (_, point)) in sweep.labels.iter().zip(&sweep.points) {
        let Some(data) = data_of(point) else { continue };
        let at = match loaded.iter().position(|(d, _)| d == data) {
            Some(at) => at,
            None => {
                loaded.push((data.clone(), Loaded::load(data, out, events)?));
                loaded.len() - 1
            }
        };
        let source = loaded[at].1.source();
        crate::config::limits::check_design(point, source.columns().len(), source.rows_test())
            .map_err(|e| match e {
                bayeslab_core::error::Error::Config { file, message } => {
                    bayeslab_core::error::Error::Config {
                        file,
                        message: format!("[sweep] {} = {label}: {message}", sweep.key),
                    }
                }
                other => other,
            })?;
    }
    Ok(loaded)
}
