//! The weight-space picture's exact contours without a quadrature run (docs/maths.md §19):
//! the 2-D marginal of a gold-standard sampler's (Gibbs or HMC) kept draws by a Gaussian kernel density
//! estimate, whose contours hold 50/90/99 % of the draws; otherwise the posterior's density
//! on a grid of the pair with every other weight at the mode (a slice, said as such). Kept for
//! at most [`ExactContours::MAX_PAIRS`] pairs, those of largest |correlation|.

use bayeslab_core::numeric::linalg::View;
use rayon::prelude::*;

use super::event::Event;
use super::monitor::Events;
use crate::config::Plan;
use bayeslab_core::model::fit::Fitted;
use bayeslab_core::model::loglik::row_log_lik;
use bayeslab_core::model::Likelihood;
use bayeslab_core::numeric::kde::Kde2;
use bayeslab_core::record::{ExactContours, ExactSource, PairDensity, RunRecord};
use bayeslab_data::Dataset;

/// Grid points per axis of a pair's picture (as the quadrature run's).
pub const POINTS: usize = 49;
/// Draws the density estimate uses at most (evenly thinned beyond).
pub const MAX_DRAWS: usize = 2000;
/// The slice's box: the mode plus and minus this many of the main run's marginal sds.
const SLICE_SDS: f64 = 4.0;

/// The record, or `None` when a quadrature run already gives the exact contours, or when
/// there is nothing to draw (fewer than two weights, no gold run and no Gaussian run).
pub fn exact_contours(
    plan: &Plan,
    data: &Dataset,
    (fitted, runs): (&[Option<Fitted>], &[RunRecord]),
    events: Events<'_>,
) -> Option<ExactContours> {
    let d = data.columns.len();
    if d < 2
        || runs
            .iter()
            .any(|r| r.error.is_none() && !r.pair_densities.is_empty())
    {
        return None;
    }
    from_draws(fitted, runs, d).or_else(|| from_slice(plan, data, runs, events))
}

/// The pairs kept: all of them up to MAX_PAIRS, else those of largest |correlation| under
/// `cov`, in pair order.
pub fn kept_pairs(cov: &[Vec<f64>]) -> Vec<[usize; 2]> {
    let d = cov.len();
    let mut all: Vec<[usize; 2]> = (0..d)
        .flat_map(|i| (i + 1..d).map(move |j| [i, j]))
        .collect();
    if all.len() > ExactContours::MAX_PAIRS {
        let corr =
            |[i, j]: [usize; 2]| cov[i][j].abs() / (cov[i][i] * cov[j][j]).sqrt().max(1e-300);
        all.sort_by(|a, b| corr(*b).total_cmp(&corr(*a)));
        all.truncate(ExactContours::MAX_PAIRS);
        all.sort();
    }
    all
}

fn from_draws(fitted: &[Option<Fitted>], runs: &[RunRecord], d: usize) -> Option<ExactContours> {
    let (i, run) = runs
        .iter()
        .enumerate()
        .find(|(_, r)| r.error.is_none() && r.kind.is_gold())?;
    let draws = fitted.get(i)?.as_ref()?.predictor.draws()?;
    if draws.nrows() != d || draws.ncols() < 3 {
        return None;
    }
    let cov = run.posterior.as_ref()?.cov.as_ref()?;
    let pairs = kept_pairs(cov)
        .into_iter()
        .filter_map(|p| draws_pair(draws.as_ref(), p))
        .collect::<Vec<_>>();
    (!pairs.is_empty()).then(|| ExactContours {
        source: ExactSource::Draws,
        run: run.id.clone(),
        mode: None,
        pairs,
    })
}

/// One pair's kernel density on a grid over the draws' range padded by three bandwidths.
pub fn draws_pair(draws: View<'_>, pair: [usize; 2]) -> Option<PairDensity> {
    let s = draws.ncols();
    let every = s.div_ceil(MAX_DRAWS).max(1);
    let points: Vec<[f64; 2]> = (0..s)
        .step_by(every)
        .map(|k| [draws[(pair[0], k)], draws[(pair[1], k)]])
        .collect();
    let kde = Kde2::scott(points.clone())?;
    let h = kde.bandwidth();
    let range = |a: usize| {
        let (lo, hi) = points
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, u), p| {
                (l.min(p[a]), u.max(p[a]))
            });
        [lo - 3.0 * h[a], hi + 3.0 * h[a]]
    };
    let (x, y) = (range(0), range(1));
    let grid = grid_points(x, y);
    let density = kde.on(&grid);
    let mut p = PairDensity::new(pair, (x, y), POINTS, density, ExactSource::Draws);
    p.mass = mass(&p);
    p.levels = Some(kde.hdr_levels(&ExactContours::LEVELS));
    p.bandwidth = Some(h);
    p.draws = Some(kde.len());
    Some(p)
}

/// The grid's points, row by row (x fastest).
fn grid_points(x: [f64; 2], y: [f64; 2]) -> Vec<[f64; 2]> {
    let step = |r: [f64; 2]| (r[1] - r[0]) / (POINTS - 1) as f64;
    (0..POINTS * POINTS)
        .map(|c| {
            [
                x[0] + (c % POINTS) as f64 * step(x),
                y[0] + (c / POINTS) as f64 * step(y),
            ]
        })
        .collect()
}

/// The trapezoidal mass of a grid's density.
fn mass(p: &PairDensity) -> f64 {
    let (dx, dy) = p.spacing();
    bayeslab_core::model::quadrature::pairs::trapezoid(&p.density, p.points) * dx * dy
}

/// The model of a slice: the likelihood, prior precision and mode of the main Gaussian run's
/// model, taken from a converged MAP run of that model (a Laplace run: its weights are the mode).
fn from_slice(
    plan: &Plan,
    data: &Dataset,
    runs: &[RunRecord],
    events: Events<'_>,
) -> Option<ExactContours> {
    let d = data.columns.len();
    let model = |r: &RunRecord| {
        let m = plan.methods.iter().find(|m| m.id == r.id)?;
        Some((m.kind.likelihood(m.options.noise())?, r.prior_precision?))
    };
    let main = runs.iter().find(|r| {
        r.error.is_none()
            && r.diagnostics.is_none()
            && r.posterior
                .as_ref()
                .is_some_and(|p| p.mean.len() == d && p.cov.is_some())
            && model(r).is_some()
    })?;
    let (likelihood, precision) = model(main)?;
    let at_mode = runs.iter().find(|r| {
        r.error.is_none()
            && r.converged
            && r.weights.len() == d
            && r.kind.family() == bayeslab_core::catalog::Family::Glm
            && r.kind.uses_prior()
            && model(r) == Some((likelihood, precision))
    })?;
    let cov = main.posterior.as_ref()?.cov.as_ref()?;
    let mode = at_mode.weights.clone();
    let model = Slice {
        likelihood,
        x: data.train.x.as_ref(),
        y: &data.train.y,
        precision,
    };
    let kept = kept_pairs(cov);
    let (total, rows) = (kept.len(), model.x.nrows());
    let mut pairs = Vec::with_capacity(total);
    for (done, p) in kept.into_iter().enumerate() {
        events.send(Event::Slicing {
            run: at_mode.id.clone(),
            done,
            total,
            rows,
        });
        let sd = |k: usize| cov[k][k].sqrt();
        let side = |k: usize| [mode[k] - SLICE_SDS * sd(k), mode[k] + SLICE_SDS * sd(k)];
        pairs.push(model.pair(&mode, p, (side(p[0]), side(p[1]))));
    }
    events.send(Event::Slicing {
        run: at_mode.id.clone(),
        done: total,
        total,
        rows,
    });
    Some(ExactContours {
        source: ExactSource::Slice,
        run: at_mode.id.clone(),
        mode: Some(mode),
        pairs,
    })
}

/// The unnormalised log posterior ln p(y | w) + ln N(w; 0, precision^-1 I) of a binary model.
pub struct Slice<'a> {
    pub likelihood: Likelihood,
    pub x: View<'a>,
    pub y: &'a [f64],
    pub precision: f64,
}

impl Slice<'_> {
    /// ln p(y | w) - precision |w|^2 / 2 at the grid points of `pair` (row by row, x
    /// fastest) with every other weight at `mode`: the activations of the other weights are
    /// summed once, then each point adds its two columns.
    pub fn log_values(
        &self,
        mode: &[f64],
        pair: [usize; 2],
        (x, y): ([f64; 2], [f64; 2]),
    ) -> Vec<f64> {
        let n = self.x.nrows();
        let [i, j] = pair;
        let rest: Vec<f64> = (0..n)
            .map(|r| {
                (0..mode.len())
                    .filter(|k| *k != i && *k != j)
                    .map(|k| self.x[(r, k)] * mode[k])
                    .sum()
            })
            .collect();
        let rest_norm: f64 = (0..mode.len())
            .filter(|k| *k != i && *k != j)
            .map(|k| mode[k] * mode[k])
            .sum();
        grid_points(x, y)
            .into_par_iter()
            .map(|[u, v]| {
                let lik: f64 = (0..n)
                    .map(|r| {
                        let a = rest[r] + self.x[(r, i)] * u + self.x[(r, j)] * v;
                        row_log_lik(self.likelihood, a, self.y[r])
                    })
                    .sum();
                lik - 0.5 * self.precision * (rest_norm + u * u + v * v)
            })
            .collect()
    }

    /// The slice normalised over its box: the conditional density of the pair given the other
    /// weights at the mode (its grid mass is 1 by construction).
    pub fn pair(&self, mode: &[f64], pair: [usize; 2], box_: ([f64; 2], [f64; 2])) -> PairDensity {
        let logs = self.log_values(mode, pair, box_);
        let top = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let density: Vec<f64> = logs.iter().map(|l| (l - top).exp()).collect();
        let mut p = PairDensity::new(pair, box_, POINTS, density, ExactSource::Slice);
        let z = mass(&p);
        if z > 0.0 && z.is_finite() {
            p.density.iter_mut().for_each(|v| *v /= z);
        }
        p.mass = mass(&p);
        p
    }
}

#[cfg(test)]
#[path = "exact_pairs_tests.rs"]
mod tests;
