//! The true evidence phase: after every fit, ln p(y | X) of each binary likelihood the
//! experiment fits with a Gaussian posterior, by importance sampling
//! (model/importance/evidence.rs), from one more pass over the training rows per likelihood.
//! Its draws come from the stream `<model>/evidence`, so the estimate does not depend on
//! which runs the experiment has beyond the proposal.

use std::time::Instant;

use super::event::Event;
use super::monitor::Events;
use super::source::Source;
use crate::config::{MethodPlan, Plan};
use bayeslab_core::catalog::Link;
use bayeslab_core::error::{Error, Result};
use bayeslab_core::model::importance::evidence::{log_evidence, Model, EVIDENCE_DRAWS};
use bayeslab_core::model::importance::{default_draws, KHAT_LIMIT};
use bayeslab_core::model::method::Fitted;
use bayeslab_core::model::options::Options;
use bayeslab_core::numeric::rng;
use bayeslab_core::record::{EvidenceEstimate, PassPurpose, RunRecord};

/// A streamed pass the estimate made: the proposal run's id, the purpose and its statistics.
pub type EvidencePass = (String, PassPurpose, bayeslab_data::PassStats);

/// The estimates, one per likelihood with a usable proposal, logistic first, and the streamed
/// passes they made.
pub fn estimates(
    plan: &Plan,
    source: Source<'_>,
    fitted: &[Option<Fitted>],
    runs: &[RunRecord],
    events: Events<'_>,
) -> Result<(Vec<EvidenceEstimate>, Vec<EvidencePass>)> {
    let draws = plan.evaluation.evidence_draws.unwrap_or_else(|| {
        if plan.methods.iter().any(|m| m.kind.is_gold()) {
            EVIDENCE_DRAWS.min(default_draws(source.rows_train(), source.columns().len()))
        } else {
            0
        }
    });
    let mut found = Vec::new();
    let mut passes = Vec::new();
    if draws == 0 {
        return Ok((found, passes));
    }
    for model in Link::ALL {
        let Some(i) = proposal(plan, fitted, runs, model) else {
            continue;
        };
        let (method, run) = (&plan.methods[i], &runs[i]);
        let Some(likelihood) = method.kind.likelihood(method.options.noise()) else {
            continue;
        };
        let Some((mean, cov)) = fitted[i].as_ref().and_then(|f| f.predictor.gaussian()) else {
            continue;
        };
        let precision = run.prior_precision.unwrap_or(plan.prior.precision);
        events.send(Event::EvidenceStarted {
            model,
            proposal: method.id.clone(),
            draws,
        });
        let start = Instant::now();
        let rows = source.training(&method.id, None);
        rows.purpose(PassPurpose::Evidence);
        let target = Model {
            likelihood,
            rows: &rows,
            precision,
        };
        let estimate = log_evidence(
            target,
            draws,
            &mean,
            cov.as_ref(),
            &mut rng::stream(plan.seed, &format!("{model}/evidence")),
            &format!("posterior covariance of {}", method.id),
        );
        for (purpose, stats) in rows.take_passes() {
            passes.push((method.id.clone(), purpose, stats));
        }
        let e = match estimate {
            Ok(e) => e,
            Err(Error::Numeric(_)) => continue,
            Err(e) => return Err(e),
        };
        let record = EvidenceEstimate {
            model,
            prior_precision: precision,
            log_evidence: e.log_evidence,
            mcse: e.mcse,
            khat: e.khat,
            reliable: e.khat.is_some_and(|k| k <= KHAT_LIMIT),
            draws,
            proposal: method.id.clone(),
            seconds: start.elapsed().as_secs_f64(),
        };
        events.send(Event::EvidenceFinished(Box::new(record.clone())));
        found.push(record);
    }
    Ok((found, passes))
}

/// The run whose Gaussian builds the proposal for `model`: EP first (its moments match the
/// posterior's, so it is as wide as the posterior and centred at its mean), then the
/// KL-optimal Gaussian (full rank before mean field: KL(q || p) makes q narrower than p, the
/// diagonal more so), then Laplace (at the mode, with the mode's curvature, blind to the
/// skew), then ADF and the Jaakkola-Jordan Gaussian; among equals the first in the experiment.
fn proposal(
    plan: &Plan,
    fitted: &[Option<Fitted>],
    runs: &[RunRecord],
    model: Link,
) -> Option<usize> {
    (0..plan.methods.len())
        .filter(|&i| runs[i].error.is_none() && fitted[i].is_some())
        .filter(|&i| link(&plan.methods[i]) == Some(model))
        .filter(|&i| !plan.methods[i].kind.is_gold())
        .filter_map(|i| rank(&plan.methods[i]).map(|r| (r, i)))
        .min()
        .map(|(_, i)| i)
}

fn link(method: &MethodPlan) -> Option<Link> {
    Some(method.kind.likelihood(method.options.noise())?.link())
}

/// Lower is better; `None`: no Gaussian posterior to build a proposal from.
fn rank(method: &MethodPlan) -> Option<u8> {
    let mean_field = matches!(method.options, Options::Variational(o) if o.mean_field);
    method.kind.proposal_rank(mean_field)
}
