//! Fitting an EP kind: `ep-probit` and `ep-logistic` sweep in row order until converged,
//! `adf-probit` makes one pass in a seeded order; the probit kinds predict through the probit
//! of their noise (predictor.rs), the logistic one through the shared Gaussian predictives.

use rand::seq::SliceRandom;

use super::{Ep, EpPredictor, Site};
use crate::catalog::{Likelihood, Link};
use crate::error::Result;
use crate::model::fit::{FitInput, Fitted, PosteriorSummary};
use crate::model::gaussian::GaussianPosterior;
use crate::model::linear::LinearPredictor;
use crate::model::options::EpOptions;
use crate::model::MethodKind;
use crate::numeric::rng::stream;
use crate::optim::{drive, Control, Observer, Outcome, Termination};
use crate::record::StepKind;

/// `ep-probit` and `ep-logistic` (sweeps in row order until converged) and `adf-probit` (one
/// pass, seeded order).
pub fn fit_method(
    input: &FitInput<'_>,
    options: &EpOptions,
    observer: &mut dyn Observer,
) -> Result<Fitted> {
    let m = input.method;
    let adf = m.kind == MethodKind::AdfProbit;
    let logistic = m.kind.likelihood(options.noise).map(Likelihood::link) == Some(Link::Logistic);
    let mut order: Vec<usize> = (0..input.x.nrows()).collect();
    if adf {
        order.shuffle(&mut stream(input.seed, &format!("{}/order", m.id)));
    }
    let site = match logistic {
        true => Site::logistic(),
        false => Site::probit(options.noise),
    };
    let mut ep = Ep::with_site(
        input.x,
        input.y,
        site,
        1.0 / input.precision,
        options.damping,
        order,
    )?;
    if input.record_steps {
        ep.record_steps(match adf {
            true => StepKind::AdfExample,
            false => StepKind::EpSite,
        });
    }
    let control = Control {
        max_iter: if adf { 1 } else { m.max_iter },
        tolerance: if adf { 0.0 } else { m.tolerance },
        cancel: input.cancel,
    };
    let mut outcome = drive(input.run(), &mut ep, &control, observer)?;
    if adf && outcome.termination == Termination::MaxIterations && outcome.iterations == 1 {
        // ADF is complete after its single pass.
        outcome = Outcome {
            termination: Termination::Converged,
            iterations: 1,
        };
    }
    let posterior = PosteriorSummary {
        mean: ep.mu.clone(),
        cov_diag: (0..ep.mu.len()).map(|i| ep.sigma(i, i)).collect(),
        cov: crate::model::fit::full_cov(ep.mu.len(), || ep.covariance()),
        precision_factor: None,
        log_evidence: Some(ep.log_evidence),
    };
    if logistic {
        // The logistic likelihood predicts through the shared Gaussian predictives.
        let predictor = LinearPredictor {
            weights: ep.mu.clone(),
            posterior: Some(GaussianPosterior {
                mean: ep.mu.clone(),
                precision: ep.precision_factor()?,
                log_evidence: Some(ep.log_evidence),
            }),
            link: Link::Logistic,
        };
        return Ok(Fitted {
            pass_times: None,
            steps: ep.steps(),
            weights: ep.mu,
            objective: Some(-ep.log_evidence),
            outcome,
            posterior: Some(posterior),
            predictor: Box::new(predictor),
        });
    }
    let sigma = ep.covariance();
    Ok(Fitted {
        pass_times: None,
        steps: ep.steps(),
        weights: ep.mu.clone(),
        objective: Some(-ep.log_evidence),
        outcome,
        posterior: Some(posterior),
        predictor: Box::new(EpPredictor {
            mu: ep.mu,
            sigma,
            beta: options.noise,
        }),
    })
}
