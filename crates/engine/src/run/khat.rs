//! A run's Pareto k-hat (model/importance.rs): its Gaussian posterior used as an
//! importance-sampling proposal for its model's exact posterior, from one more pass over the
//! training rows. Its draws come from the run's own stream, `<id>/khat`. It is a phase of its
//! own for whoever watches ([`Monitor::khat_started`], [`Monitor::khat_finished`]): 20,000
//! draws over every training row take a visible moment after a fit of milliseconds.

use std::time::Instant;

use super::event::Event;
use super::monitor::Events;
use crate::config::{MethodPlan, Plan};
use bayeslab_core::error::{Error, Result};
use bayeslab_core::model::method::Predictor;
use bayeslab_core::model::streaming::Chunks;
use bayeslab_core::numeric::rng;

/// A run's k-hat and the seconds it took; both `None` when the run has none to compute.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct KhatPhase {
    pub khat: Option<f64>,
    pub seconds: Option<f64>,
    pub draws: Option<usize>,
}

/// The run's k-hat, when it has a Gaussian posterior over the weights of a binary linear
/// model and draws to spend. A covariance that is not positive definite gives none.
pub fn khat(
    plan: &Plan,
    method: &MethodPlan,
    rows: &dyn Chunks,
    (n, d): (usize, usize),
    precision: f64,
    predictor: &dyn Predictor,
    events: Events<'_>,
) -> Result<KhatPhase> {
    let Some(likelihood) = method.kind.likelihood(method.options.noise()) else {
        return Ok(KhatPhase::default());
    };
    let draws = plan
        .evaluation
        .khat_draws
        .unwrap_or_else(|| bayeslab_core::model::importance::default_draws(n, d));
    if draws == 0 {
        return Ok(KhatPhase::default());
    }
    let Some((mean, cov)) = predictor.gaussian() else {
        return Ok(KhatPhase::default());
    };
    events.send(Event::KhatStarted {
        run: method.id.clone(),
        draws,
    });
    let start = Instant::now();
    let mut stream = rng::stream(plan.seed, &format!("{}/khat", method.id));
    let found = bayeslab_core::model::importance::posterior_khat(
        likelihood,
        draws,
        rows,
        precision,
        &mean,
        cov.as_ref(),
        &mut stream,
        &format!("posterior covariance of {}", method.id),
    );
    let khat = match found {
        Ok(khat) => khat,
        Err(Error::Numeric(_)) => None,
        Err(e) => return Err(e),
    };
    let seconds = start.elapsed().as_secs_f64();
    events.send(Event::KhatFinished {
        run: method.id.clone(),
        khat,
        seconds,
    });
    Ok(KhatPhase {
        khat,
        seconds: Some(seconds),
        draws: Some(draws),
    })
}
