//! Variational Gaussian approximations q(w) = N(m, S) of a binary GLM's posterior under the
//! prior N(0, lambda^{-1} I), each with a lower bound on ln p(y | X) as its evidence
//! (docs/maths.md §6): `vb-logistic` maximises the Jaakkola-Jordan bound (jaakkola.rs),
//! `vi-logistic` and `vi-probit` the ELBO itself (kl.rs, over expectations.rs). The bound is
//! reported per iteration (as `objective` = -bound, which falls as the bound rises) and at the
//! end as `posterior.log_evidence`; q predicts through the shared linear predictor, so every
//! Gaussian predictive and the k-hat check apply to it.

use super::fit::{FitInput, Fitted};
use super::gaussian::GaussianPosterior;
use super::linear::LinearPredictor;
use super::options::VariationalOptions;
use crate::catalog::{Likelihood, Link};
use crate::error::Result;
use crate::model::MethodKind;
use crate::numeric::linalg::Cholesky;
use crate::numeric::quadrature::GaussHermite;
use crate::optim::{drive, Control, Observer, Outcome};

mod expectations;
mod jaakkola;
mod kl;

pub use expectations::{row_expectations, Elbo, ElboProblem, RowTerms, ELBO_NODES};
pub use jaakkola::{jj_lambda, JaakkolaJordan};
pub use kl::KlGaussian;

/// The ELBO problem of a run's rows under `link`.
pub fn problem<'a>(input: &FitInput<'a>, link: Link) -> ElboProblem<'a> {
    let terms: RowTerms = match link {
        Link::Logistic => super::logistic::row_terms,
        Link::Probit => super::probit::row_terms,
    };
    ElboProblem {
        x: input.x,
        y: input.y,
        precision: input.precision,
        terms,
        gh: GaussHermite::new(ELBO_NODES),
    }
}

/// `vb-logistic`, `vi-logistic` and `vi-probit`.
pub fn fit_method(
    input: &FitInput<'_>,
    options: &VariationalOptions,
    observer: &mut dyn Observer,
) -> Result<Fitted> {
    let m = input.method;
    let control = Control {
        max_iter: m.max_iter,
        tolerance: m.tolerance,
        cancel: input.cancel,
    };
    let (mean, factor, bound, outcome, link) = match m.kind {
        MethodKind::VbLogistic => {
            let mut jj = JaakkolaJordan::new(input.x, input.y, input.precision)?;
            let outcome = drive(input.run(), &mut jj, &control, observer)?;
            (jj.m, jj.factor, jj.bound, outcome, Link::Logistic)
        }
        kind => {
            let link = kind
                .likelihood(1.0)
                .map_or(Link::Logistic, Likelihood::link);
            let mean_field = options.mean_field;
            let mut kl = KlGaussian::new(problem(input, link), mean_field)?;
            let outcome = drive(input.run(), &mut kl, &control, observer)?;
            let elbo = kl.elbo;
            (kl.m, elbo.factor, elbo.value, outcome, link)
        }
    };
    Ok(finish(mean, factor, bound, outcome, link))
}

/// The fitted q as a run: the mean is the point estimate, the bound its log evidence.
fn finish(mean: Vec<f64>, factor: Cholesky, bound: f64, outcome: Outcome, link: Link) -> Fitted {
    let predictor = LinearPredictor {
        weights: mean.clone(),
        posterior: Some(GaussianPosterior {
            mean: mean.clone(),
            precision: factor,
            log_evidence: Some(bound),
        }),
        link,
    };
    Fitted {
        pass_times: None,
        steps: None,
        weights: mean,
        objective: Some(-bound),
        outcome,
        posterior: predictor.summary(),
        predictor: Box::new(predictor),
    }
}

#[cfg(test)]
mod tests;
