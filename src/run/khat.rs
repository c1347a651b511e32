//! A run's Pareto k-hat (model/importance.rs): its Gaussian posterior used as an
//! importance-sampling proposal for its model's exact posterior, from one more pass over the
//! training rows. Its draws come from the run's own stream, `<id>/khat`.

use crate::config::{MethodPlan, Plan};
use crate::error::{Error, Result};
use crate::model::method::Predictor;
use crate::model::streaming::Chunks;
use crate::numeric::rng;

/// The run's k-hat, when it has a Gaussian posterior over the weights of a binary linear
/// model and draws to spend. A covariance that is not positive definite gives none.
pub fn khat(
    plan: &Plan,
    method: &MethodPlan,
    rows: &dyn Chunks,
    (n, d): (usize, usize),
    precision: f64,
    predictor: &dyn Predictor,
) -> Result<Option<f64>> {
    let Some(likelihood) = method.kind.likelihood(method.options.noise()) else {
        return Ok(None);
    };
    let draws = plan
        .evaluation
        .khat_draws
        .unwrap_or_else(|| crate::model::importance::default_draws(n, d));
    if draws == 0 {
        return Ok(None);
    }
    let Some((mean, cov)) = predictor.gaussian() else {
        return Ok(None);
    };
    let mut stream = rng::stream(plan.seed, &format!("{}/khat", method.id));
    let found = crate::model::importance::posterior_khat(
        likelihood,
        draws,
        rows,
        precision,
        &mean,
        cov.as_ref(),
        &mut stream,
        &format!("posterior covariance of {}", method.id),
    );
    match found {
        Ok(khat) => Ok(khat),
        Err(Error::Numeric(_)) => Ok(None),
        Err(e) => Err(e),
    }
}
