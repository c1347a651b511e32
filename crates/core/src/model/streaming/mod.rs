//! Fitting from training rows that arrive in chunks (`[data] streaming = true`), with the
//! in-memory maths applied to each chunk.
//!
//! Logistic and probit: E(w), its gradient and Hessian are sums over rows plus the prior, so one
//! pass builds [`super::logistic::LogisticObjective`] / [`super::probit::ProbitObjective`] with lambda = 0 on every chunk and sums
//! their value, gradient and X^T S X, then adds lambda/2 ||w||^2, lambda w and lambda I once.
//! Memory is one chunk plus the D x D sums. Newton and the Laplace step are the in-memory ones
//! (they only see an [`Objective`]); each point Newton evaluates costs one pass, because the
//! pass computes value, gradient and Hessian together and the three are cached for that point.
//!
//! Bernoulli naive Bayes: its sufficient statistics (per class, the rows and the rows with each
//! feature equal to 1) are counts, summed chunk by chunk.

pub mod chunks;
mod objective;

use std::sync::atomic::AtomicBool;

use faer::MatRef;

pub use self::chunks::{ChunkFn, Chunks, InMemory};
use self::objective::StreamedObjective;
use super::fit::{FitRequest, Fitted, PosteriorSummary};
use super::generative::bernoulli::{binary_features_at, NaiveBernoulli};
use super::generative::{class_prior, GenerativePredictor};
use super::linear::LinearPredictor;
use super::logistic::LogitLink;
use super::options::{BernoulliOptions, Options};
use super::spec::MethodSpec;
use crate::catalog::{Likelihood, Link};
use crate::error::{Error, NumericError, Result};
use crate::numeric::linalg::{gram_dependent_column, COLLINEAR_TOL};
use crate::optim::{Curvature, Objective, Observer, Start};

/// Fit `input.method` (a kind for which [`crate::catalog::MethodKind::streams`] holds) on the
/// training rows of `chunks`. As [`super::method::fit_matrix`]: a [`Error::Numeric`] is a failed run.
pub(super) fn fit(
    chunks: &dyn Chunks,
    input: &FitRequest<'_>,
    observer: &mut dyn Observer,
) -> Result<Fitted> {
    let m = input.method;
    match &m.options {
        Options::Bernoulli(o) => fit_bernoulli(chunks, input, o),
        Options::Glm => {
            let link = m
                .kind
                .likelihood(1.0)
                .map_or(Link::Logistic, Likelihood::link);
            let precision = if m.kind.uses_prior() {
                input.precision
            } else {
                0.0
            };
            let d = input.columns.len();
            let objective = StreamedObjective::new(chunks, link, precision, d, input.rows);
            if !m.kind.uses_prior() {
                // The in-memory pre-check on X^T X, from the Hessian at w = 0 (X^T X / 4), the
                // point Newton starts from: the pass is cached, so it costs none.
                let start = objective.hessian(&vec![0.0; d]);
                if let Some(e) = objective.take_error() {
                    return Err(e);
                }
                if let Some(column) = gram_dependent_column(start.as_ref(), COLLINEAR_TOL) {
                    let constant = input.intercept && constant_column(start.as_ref(), column);
                    return Err(NumericError::Collinear { column, constant }.into());
                }
            }
            let w0 = warm_start(chunks, m, link, precision, input.rows, d)?;
            let result = fit_linear(&objective, m, precision, w0, input.cancel, observer);
            if let Some(e) = objective.take_error() {
                return Err(e);
            }
            let (weights, outcome, value, posterior) = result?;
            let predictor = LinearPredictor {
                weights: weights.clone(),
                posterior,
                link,
            };
            Ok(Fitted {
                pass_times: None,
                steps: None,
                weights,
                objective: Some(value),
                outcome,
                posterior: predictor.summary(),
                predictor: Box::new(predictor),
            })
        }
        Options::Quadrature
        | Options::Softmax(_)
        | Options::Ep(_)
        | Options::Variational(_)
        | Options::Gaussian(_)
        | Options::Gibbs(_)
        | Options::Hmc(_) => Err(Error::config(
            input.file,
            format!(
                "{}: kind = \"{}\" cannot be fitted chunk by chunk",
                m.id,
                m.kind.name()
            ),
        )),
    }
}

/// Whether design column `j` is constant, from a positive multiple of X^T X whose column 0 is
/// the intercept: x_j = c 1 exactly when x_j is parallel to 1, (1^T x_j)^2 = N ||x_j||^2 (an all-zero
/// column counts as constant).
fn constant_column(gram: MatRef<'_, f64>, j: usize) -> bool {
    let (g00, gjj, g0j) = (gram[(0, 0)], gram[(j, j)], gram[(0, j)]);
    gjj <= 0.0 || 1.0 - g0j * g0j / (g00 * gjj) <= COLLINEAR_TOL
}

type LinearFit = (
    Vec<f64>,
    crate::optim::Outcome,
    f64,
    Option<super::GaussianPosterior>,
);

/// The streamed Newton's start: the in-memory fit's warm start (model/warm_start.rs) from the
/// same rows, gathered in one pass, for the logistic kinds fitted by Newton; else w = 0.
fn warm_start(
    chunks: &dyn Chunks,
    method: &MethodSpec,
    link: Link,
    precision: f64,
    rows: usize,
    d: usize,
) -> Result<Start> {
    let newton = matches!(method.optimizer, super::spec::Optimizer::Newton);
    if let (Link::Logistic, true, Some(k)) = (link, newton, super::warm_start::stride(rows, d)) {
        chunks.hessian_next(false);
        let mut subsample = super::warm_start::Subsample::new(k, d);
        chunks.each(&mut |x, y| {
            subsample.add(x, y);
            Ok(())
        })?;
        let (x, y) = subsample.finish();
        if let Some(start) = super::warm_start::start::<LogitLink>(&x, &y, rows, precision) {
            return Ok(start);
        }
    }
    Ok(Start::at(vec![0.0; d]))
}

fn fit_linear(
    objective: &StreamedObjective<'_>,
    method: &MethodSpec,
    precision: f64,
    w0: Start,
    cancel: Option<&AtomicBool>,
    observer: &mut dyn Observer,
) -> std::result::Result<LinearFit, NumericError> {
    let (weights, outcome) = super::laplace::minimise(
        objective,
        method,
        Curvature::for_columns(objective.dim()),
        w0,
        cancel,
        observer,
    )?;
    let value = objective.value(&weights);
    let posterior = if method.kind.has_posterior() {
        Some(super::laplace::approximate(
            objective, &weights, precision, &method.id,
        )?)
    } else {
        None
    };
    Ok((weights, outcome, value, posterior))
}

/// Beta-Bernoulli naive Bayes from counts accumulated over one pass.
fn fit_bernoulli(
    chunks: &dyn Chunks,
    input: &FitRequest<'_>,
    o: &BernoulliOptions,
) -> Result<Fitted> {
    let m = input.method;
    let skip = usize::from(input.intercept);
    let width = input.columns.len() - skip;
    if width == 0 {
        return Err(Error::config(
            input.file,
            format!(
                "{}: a generative classifier needs at least one feature column besides the intercept",
                m.id
            ),
        ));
    }
    let names = &input.columns[skip..];
    let k = input.classes;
    let alphas = o
        .class_prior
        .alphas(k)
        .map_err(|e| Error::config(input.file, format!("{}: {e}", m.id)))?;
    let mut counts = vec![vec![0.0; width]; k];
    let mut sizes = vec![0usize; k];
    let mut seen = 0;
    chunks.each(&mut |x, y| {
        let features = x.subcols(skip, width);
        let binary = binary_features_at(features, o.binarize, names, seen)
            .map_err(|e| Error::config(input.file, format!("{}: {e}", m.id)))?;
        for (i, &c) in y.iter().enumerate() {
            let c = c as usize;
            sizes[c] += 1;
            for (j, count) in counts[c].iter_mut().enumerate() {
                *count += binary[(i, j)];
            }
        }
        seen += y.len();
        Ok(())
    })?;
    let density = NaiveBernoulli::from_counts(&counts, &sizes, o.a, o.b, o.binarize);
    let predictor = GenerativePredictor::new(
        class_prior::posterior_predictive(&alphas, &sizes),
        Box::new(density),
        input.intercept,
    );
    Ok(Fitted {
        pass_times: None,
        steps: None,
        weights: Vec::new(),
        objective: None,
        outcome: super::fit::closed_form(),
        posterior: None::<PosteriorSummary>,
        predictor: Box::new(predictor),
    })
}
