//! Where the RBF centres sit: on a grid over each feature's training range, or at k seeded
//! training rows.

use faer::MatRef;
use rand::seq::index::sample;

use crate::plan::Centres;
use bayeslab_core::numeric::rng;

/// The training rows (0-based among the training rows) whose features become the RBF centres
/// under `centres = "sample"`: k distinct rows drawn from the experiment's seed, in draw order.
pub fn sampled_rows(n: usize, k: usize, seed: u64) -> Vec<usize> {
    sample(&mut rng::stream(seed, "features/rbf"), n, k.min(n)).into_vec()
}

/// Grid centres span each feature's training range with `points` values; sampled centres are
/// k distinct training rows drawn from the experiment's seed.
pub(super) fn centre_points(centres: &Centres, train: MatRef<'_, f64>, seed: u64) -> Vec<Vec<f64>> {
    let d = train.ncols();
    match centres {
        Centres::Sample { k } => sampled_rows(train.nrows(), *k, seed)
            .into_iter()
            .map(|i| (0..d).map(|j| train[(i, j)]).collect())
            .collect(),
        Centres::Grid { points } => {
            let ranges: Vec<(f64, f64)> = (0..d)
                .map(|j| {
                    let col = (0..train.nrows()).map(|i| train[(i, j)]);
                    let lo = col.clone().fold(f64::INFINITY, f64::min);
                    let hi = col.fold(f64::NEG_INFINITY, f64::max);
                    (lo, hi)
                })
                .collect();
            grid_centres(&ranges, *points)
        }
    }
}

/// Every combination of `points` evenly spaced values over each feature's (min, max).
pub(super) fn grid_centres(ranges: &[(f64, f64)], points: usize) -> Vec<Vec<f64>> {
    let d = ranges.len();
    let axes: Vec<Vec<f64>> = ranges
        .iter()
        .map(|&(lo, hi)| {
            (0..points)
                .map(|p| {
                    if points == 1 {
                        0.5 * (lo + hi)
                    } else {
                        lo + (hi - lo) * p as f64 / (points - 1) as f64
                    }
                })
                .collect()
        })
        .collect();
    let total = points.pow(d as u32);
    (0..total)
        .map(|mut idx| {
            (0..d)
                .map(|j| {
                    let v = axes[j][idx % points];
                    idx /= points;
                    v
                })
                .collect()
        })
        .collect()
}
