//! `[sweep]`: the same experiment once per value of one key. The data are loaded and prepared
//! once (once per distinct `[data]` section, when the swept key is a data key) and every point
//! runs on them; each point's record is a whole run record.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use super::loaded::Loaded;
use super::monitor::Monitor;
use crate::config::{DataPlan, Plan};
use crate::error::Result;
use crate::record::{SweepPoint, SweepRecord};

/// Run every point of `sweep` (the validated plans of `plan`'s `[sweep]`).
pub fn run(
    plan: &Plan,
    sweep: &crate::config::sweep::Sweep,
    monitor: &mut dyn Monitor,
    cancel: Option<&AtomicBool>,
    out: Option<&Path>,
) -> Result<SweepRecord> {
    let mut loaded: Vec<(DataPlan, Loaded)> = Vec::new();
    let mut points = Vec::with_capacity(sweep.points.len());
    for (i, (value, point)) in sweep.points.iter().enumerate() {
        monitor.sweep_point(i, sweep.points.len(), &sweep.key, *value);
        let record = match &point.data {
            Some(data) if !point.methods.is_empty() => {
                let at = match loaded.iter().position(|(d, _)| d == data) {
                    Some(at) => at,
                    None => {
                        loaded.push((data.clone(), Loaded::load(data, out)?));
                        loaded.len() - 1
                    }
                };
                super::run_loaded(point, &loaded[at].1, monitor, cancel, out)?
            }
            _ => super::run_for(point, monitor, cancel, out)?,
        };
        points.push(SweepPoint {
            value: *value,
            record,
        });
    }
    Ok(SweepRecord {
        name: plan.name.clone(),
        key: sweep.key.clone(),
        points,
    })
}
