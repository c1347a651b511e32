//! The exact posterior of a small binary GLM by quadrature: `logistic-quadrature` and
//! `probit-quadrature`, for designs of at most [`MAX_WEIGHTS`] columns (docs/maths.md §10).
//!
//! Under w ~ N(0, lambda^{-1} I) the posterior is p(w | y) = exp(-E(w)) / Z' with E the GLM's
//! negative log joint (model/glm.rs, without the prior's normaliser), so
//! ln p(y | X) = ln Z' + D/2 ln(lambda / 2 pi), and the mean, the covariance and the predictive
//! E[link(x^T w)] are integrals of exp(-E). They are computed on a tensor grid around the mode,
//! whitened by the Laplace covariance and refined until they change by less than 1e-10
//! (numeric/quadrature/grid.rs): no Monte-Carlo error, the gold standard of the small teaching
//! problems and of the pictures of the posterior.

use faer::MatRef;

use super::fit::{FitInput, Fitted, PosteriorSummary, Predictor, Probabilities};
use super::glm::{GlmLink, GlmObjective};
use super::logistic::LogitLink;
use super::predictive::{PredictiveKind, PredictiveSettings};
use super::probit::ProbitLink;
use crate::catalog::Likelihood;
use crate::catalog::Link;
use crate::error::{Error, Result};
use crate::numeric::linalg::{mat_vec, Cholesky};
use crate::numeric::quadrature::grid::{integrate, GridProblem, GridResult};
use crate::numeric::rng::Stream;
use crate::numeric::special::{norm_cdf, sigmoid};
use crate::optim::{Curvature, Observer, Outcome, Start, Termination};

/// The widest design the grid integrates: the points grow as (width / spacing)^D.
pub const MAX_WEIGHTS: usize = 3;
/// The grids are refined until ln Z, the mean (in sds) and the covariance change by less.
pub const TOLERANCE: f64 = 1e-10;
/// The largest grid evaluated, in points times training rows (each point sums over the rows).
pub const BUDGET: usize = 4_000_000_000;

pub fn fit_method(input: &FitInput<'_>, observer: &mut dyn Observer) -> Result<Fitted> {
    check(input)?;
    match input.method.kind.likelihood(1.0) {
        Some(Likelihood::Probit { .. }) => fit_link::<ProbitLink>(input, Link::Probit, observer),
        Some(Likelihood::Logistic) | None => fit_link::<LogitLink>(input, Link::Logistic, observer),
    }
}

/// The design is narrow enough and the prior proper (the grid needs a normalisable density).
fn check(input: &FitInput<'_>) -> Result<()> {
    let (run, kind) = (input.run(), input.method.kind.name());
    let d = input.x.ncols();
    if d > MAX_WEIGHTS {
        return Err(Error::config(
            input.file,
            format!(
                "[[method]] {run}: kind = \"{kind}\" integrates the posterior on a grid and handles \
                 at most {MAX_WEIGHTS} weights, but the design has {d} columns ({}); list at most \
                 {} features in [data] features, or use a sampler (gibbs-logistic, gibbs-probit) for \
                 the exact posterior of a wider model",
                input.columns.join(", "),
                MAX_WEIGHTS - usize::from(input.intercept),
            ),
        ));
    }
    if input.precision <= 0.0 {
        return Err(Error::config(
            input.file,
            format!(
                "[[method]] {run}: {kind} integrates the posterior under w ~ N(0, lambda^-1 I) and \
                 needs a proper prior: set [prior] precision > 0"
            ),
        ));
    }
    Ok(())
}

fn fit_link<L: GlmLink>(
    input: &FitInput<'_>,
    link: Link,
    observer: &mut dyn Observer,
) -> Result<Fitted> {
    let objective = GlmObjective::<L>::new(input.x, input.y, input.precision);
    let d = input.x.ncols();
    let (mode, outcome) = super::laplace::minimise(
        &objective,
        input.method,
        Curvature::EveryStep,
        Start::at(vec![0.0; d]),
        input.cancel,
        observer,
    )?;
    let laplace = super::laplace::approximate(&objective, &mode, input.precision, input.run())?;
    let what = format!("posterior covariance of {} at the mode", input.run());
    let scale = Cholesky::factor(laplace.precision.inverse().as_ref(), &what)?;
    let (x, y, precision) = (input.x, input.y, input.precision);
    let log_density = move |w: &[f64]| -neg_log_joint::<L>(x, y, w, precision);
    let rows = input.x.nrows().max(1);
    let grid = integrate(&GridProblem {
        mode: &mode,
        scale: scale.lower(),
        log_density: &log_density,
        tolerance: TOLERANCE,
        max_points: BUDGET / rows,
    });
    let pairs = pairs::pair_densities(&grid, &log_density);
    let log_evidence = grid.log_z + 0.5 * d as f64 * (precision / std::f64::consts::TAU).ln();
    let termination = if !grid.converged {
        Termination::MaxIterations
    } else {
        outcome.termination
    };
    let posterior = PosteriorSummary {
        mean: grid.mean.clone(),
        cov_diag: (0..d).map(|i| grid.cov[(i, i)]).collect(),
        cov: Some(grid.cov.clone()),
        precision_factor: None,
        log_evidence: grid.log_z.is_finite().then_some(log_evidence),
    };
    let value = neg_log_joint::<L>(x, y, &grid.mean, precision);
    Ok(Fitted {
        weights: grid.mean.clone(),
        objective: Some(value),
        outcome: Outcome {
            termination,
            iterations: grid.points,
        },
        posterior: Some(posterior),
        predictor: Box::new(GridPredictor { grid, link, pairs }),
        pass_times: None,
        steps: None,
    })
}

/// E(w) = sum_n l(x_n^T w, y_n) + lambda/2 ||w||^2, summed row by row in order.
fn neg_log_joint<L: GlmLink>(x: MatRef<'_, f64>, y: &[f64], w: &[f64], precision: f64) -> f64 {
    let prior = 0.5 * precision * w.iter().map(|v| v * v).sum::<f64>();
    (0..x.nrows())
        .map(|n| {
            let a: f64 = (0..w.len()).map(|j| x[(n, j)] * w[j]).sum();
            L::row_terms(a, y[n]).0
        })
        .sum::<f64>()
        + prior
}

/// Predicts with the grid's nodes: the exact predictive E[link(x^T w)] as the weighted sum over
/// the nodes, the plug-in at the posterior mean.
pub struct GridPredictor {
    pub grid: GridResult,
    pub link: Link,
    /// The 2-D marginals of every pair of weights, for the weight-space picture.
    pub pairs: Vec<crate::record::PairDensity>,
}

impl GridPredictor {
    fn link(&self, a: f64) -> f64 {
        match self.link {
            Link::Logistic => sigmoid(a),
            Link::Probit => norm_cdf(a),
        }
    }
}

impl Predictor for GridPredictor {
    fn pair_densities(&self) -> Vec<crate::record::PairDensity> {
        self.pairs.clone()
    }

    fn predict(
        &self,
        kind: PredictiveKind,
        x: MatRef<'_, f64>,
        _settings: PredictiveSettings,
        _rng: &mut Stream,
    ) -> Probabilities {
        let p = match kind {
            PredictiveKind::Plugin => mat_vec(x, &self.grid.mean)
                .into_iter()
                .map(|a| self.link(a))
                .collect(),
            _ => (0..x.nrows())
                .map(|n| {
                    let row: Vec<f64> = (0..x.ncols()).map(|j| x[(n, j)]).collect();
                    let g = &self.grid;
                    g.nodes
                        .iter()
                        .zip(&g.weights)
                        .map(|(w, t)| t * self.link(row.iter().zip(w).map(|(a, b)| a * b).sum()))
                        .sum()
                })
                .collect(),
        };
        Probabilities::Binary(p)
    }
}

pub mod pairs;
#[cfg(test)]
mod tests;
