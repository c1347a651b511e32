//! The lab's part of the run record (`record::PosteriorResult`): the exact posterior's summary
//! and each approximation's summary and distances to it, on a common grid for the plots.

use super::dist::{Component, Dist};
use super::distance_scale::DistanceScale;
use super::distances::{distances, mass_outside, Distances};

use super::moments::{mean_sd, quantiles};
use bayeslab_core::record::{ApproxKind, ApproxResult, Curves, ModeRecord, Summary};

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
    approximations: Vec<(ApproxKind, String, Dist)>,
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
            curves.approximations.push((name, density(&q)));
            ApproxResult {
                name,
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

/// A mixture-laplace mode as a component of the mixture approximation.
pub fn component(m: &ModeRecord) -> Component {
    Component {
        weight: m.weight,
        mean: m.location,
        sd: m.sd,
    }
}
