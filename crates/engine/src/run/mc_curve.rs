//! The Monte-Carlo convergence curve of a run's `mc` predictive, for monitors that ask for it
//! (the workbench's Live screen): the mean prediction over the test rows at S/128, S/64, ..., S
//! samples (S = `mc_samples`), each size from its own seeded stream. It needs the test rows in
//! memory.

use std::sync::atomic::{AtomicBool, Ordering};

use super::event::Event;
use super::monitor::Events;
use crate::config::{MethodPlan, Plan};
use bayeslab_core::error::{Error, Result};
use bayeslab_core::model::method::{Fitted, Probabilities};
use bayeslab_core::model::predictive::PredictiveSettings;
use bayeslab_core::model::PredictiveKind;
use bayeslab_core::numeric::rng;
use bayeslab_data::Dataset;

pub fn mc_curve(
    plan: &Plan,
    method: &MethodPlan,
    dataset: &Dataset,
    fitted: &Fitted,
    events: Events<'_>,
    cancel: Option<&AtomicBool>,
) -> Result<()> {
    let full = method.mc_samples;
    let sizes: Vec<usize> = (0..=7)
        .rev()
        .map(|k| full >> k)
        .filter(|&s| s >= 1)
        .collect();
    for s in sizes {
        if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Err(Error::Cancelled);
        }
        let settings = PredictiveSettings {
            mc_samples: s,
            quadrature_nodes: method.quadrature_nodes,
            first_row: 0,
        };
        // The full size reuses the predictive's own stream, so the curve ends on the reported value.
        let label = if s == full {
            format!("{}/mc", method.id)
        } else {
            format!("{}/mc/curve/{s}", method.id)
        };
        let mut stream = rng::stream(plan.seed, &label);
        let x = dataset.test.x.as_ref();
        let p = fitted
            .predictor
            .predict(PredictiveKind::Mc, x, settings, &mut stream);
        let mean = match &p {
            Probabilities::Binary(v) => v.iter().sum::<f64>() / v.len().max(1) as f64,
            Probabilities::Classes(rows) => {
                rows.iter()
                    .map(|r| r.iter().copied().fold(0.0, f64::max))
                    .sum::<f64>()
                    / rows.len().max(1) as f64
            }
        };
        events.send(Event::McEstimate {
            run: method.id.clone(),
            samples: s,
            mean,
        });
    }
    Ok(())
}
