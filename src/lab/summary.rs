//! The lab's part of the run record (results.json `posteriors`): for each posterior and
//! subset size, the exact posterior's summary and, per approximation, its summary, the
//! distances to the exact density and the mass outside its support. Field names are the
//! output contract of issue 5.

use serde::Serialize;

use super::dist::{Component, Dist};
use super::distance_scale::DistanceScale;
use super::distances::{distances, mass_outside, Distances};
use super::integrate::Integration;
use super::moments::{mean_sd, quantiles};

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct PosteriorResult {
    pub id: String,
    pub kind: String,
    /// The subset size label ("5", "all"); each sweep entry is one result.
    pub subset: String,
    /// Data points used.
    pub n: usize,
    /// What the scalar parameter is ("theta", "gini", ...).
    pub parameter: String,
    /// The exact posterior's family, e.g. "Gamma(shape = 12, rate = 6)".
    pub exact_form: String,
    pub exact: Summary,
    pub approximations: Vec<ApproxResult>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gini: Option<GiniResult>,
    /// The Laplace components of a mixture-laplace posterior.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub modes: Vec<ModeRecord>,
    /// Densities on a common grid, for plots (not in results.json).
    #[serde(skip)]
    pub curves: Curves,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Summary {
    pub mean: f64,
    pub sd: f64,
    /// [2.5 %, 50 %, 97.5 %].
    pub quantiles: [f64; 3],
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct ApproxResult {
    pub name: String,
    /// The fitted approximation, e.g. "theta ~ N(1.83, 0.55^2)".
    pub form: String,
    pub mean: f64,
    pub sd: f64,
    pub quantiles: [f64; 3],
    pub kl: f64,
    pub tv: f64,
    pub hellinger: f64,
    pub mass_outside_support: f64,
    /// The distances' grid: final interval count and the last halving's change.
    pub integration: Integration,
    /// The scale the distances were integrated on (they are invariant under the change).
    pub distance_scale: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct GiniSummary {
    pub mean: f64,
    pub q025: f64,
    pub q975: f64,
    /// Monte-Carlo standard error of the mean: sd / sqrt(draws) (independent draws).
    pub mcse: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct GiniResult {
    pub draws: usize,
    pub approx: GiniSummary,
    pub exact: GiniSummary,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ModeRecord {
    pub location: f64,
    pub sd: f64,
    pub weight: f64,
    pub ln_evidence: f64,
}

impl ModeRecord {
    pub fn component(&self) -> Component {
        Component {
            weight: self.weight,
            mean: self.location,
            sd: self.sd,
        }
    }
}

/// Exact and approximate densities on `x` (approximations in the order of the results).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Curves {
    pub x: Vec<f64>,
    pub exact: Vec<f64>,
    pub approximations: Vec<(String, Vec<f64>)>,
}

/// Points of the plotting grid.
pub const CURVE_POINTS: usize = 201;

pub fn summarise(d: &Dist) -> Summary {
    let (mean, sd) = mean_sd(d);
    Summary {
        mean,
        sd,
        quantiles: quantiles(d),
    }
}

/// Compare every (name, form, approximation) with `exact`; the distances are integrated on
/// `scale` when given (the same distributions after a monotone change of variable).
pub fn compare(
    exact: &Dist,
    approximations: Vec<(&str, String, Dist)>,
    scale: Option<&DistanceScale>,
) -> (Summary, Vec<ApproxResult>, Curves) {
    let (lo, hi) = (exact.quantile(5e-4), exact.quantile(1.0 - 5e-4));
    let pad = 0.15 * (hi - lo);
    let (lo, hi) = (lo - pad, hi + pad);
    let x: Vec<f64> = (0..CURVE_POINTS)
        .map(|i| lo + (hi - lo) * i as f64 / (CURVE_POINTS - 1) as f64)
        .collect();
    let density = |d: &Dist| x.iter().map(|&t| d.ln_pdf(t).exp()).collect::<Vec<_>>();
    let mut curves = Curves {
        exact: density(exact),
        x: x.clone(),
        approximations: Vec::new(),
    };
    let results = approximations
        .into_iter()
        .enumerate()
        .map(|(i, (name, form, q))| {
            let s = summarise(&q);
            let Distances {
                kl,
                tv,
                hellinger,
                integration,
            } = match scale {
                Some(sc) => distances(&sc.exact, &sc.approximations[i]),
                None => distances(exact, &q),
            };
            curves.approximations.push((name.to_string(), density(&q)));
            ApproxResult {
                name: name.to_string(),
                form,
                mean: s.mean,
                sd: s.sd,
                quantiles: s.quantiles,
                kl,
                tv,
                hellinger,
                mass_outside_support: mass_outside(exact, &q),
                integration,
                distance_scale: scale.map_or("parameter", |sc| sc.name).to_string(),
            }
        })
        .collect();
    (summarise(exact), results, curves)
}
