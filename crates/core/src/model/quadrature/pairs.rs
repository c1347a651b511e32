//! The exact posterior's 2-D marginals for the weight-space picture (docs/maths.md §15): for
//! every pair of weights, the density on a regular grid over the box that holds all but about
//! 1e-4 of each weight's marginal mass on either side, the third weight (if any) integrated out
//! by the trapezoidal rule over the whole extent of the quadrature grid's nodes.

use rayon::prelude::*;

use crate::numeric::quadrature::grid::GridResult;
use crate::record::PairDensity;

/// Grid points along each axis of a pair's picture.
pub const POINTS: usize = 49;
/// Trapezoidal points along the integrated-out weight.
const INNER: usize = 121;
/// The box of a weight: its marginal quantiles TAIL and 1 - TAIL, widened by PAD of its width
/// on each side.
const TAIL: f64 = 1e-4;
const PAD: f64 = 0.1;

/// Every pair's marginal density; `log_density` is the unnormalised ln p(w | y) whose integral
/// the grid's `log_z` is. Empty below two weights or for a grid without nodes.
pub fn pair_densities(
    grid: &GridResult,
    log_density: &(dyn Fn(&[f64]) -> f64 + Sync),
) -> Vec<PairDensity> {
    let d = grid.mean.len();
    if d < 2 || grid.nodes.is_empty() || !grid.log_z.is_finite() {
        return Vec::new();
    }
    let boxes: Vec<[f64; 2]> = (0..d).map(|j| extent(grid, j)).collect();
    let mut out = Vec::new();
    for i in 0..d {
        for j in i + 1..d {
            let rest: Option<usize> = (0..d).find(|k| *k != i && *k != j);
            out.push(pair(grid, log_density, [i, j], &boxes, rest));
        }
    }
    out
}

/// The picture's range of weight `j`: its marginal quantiles from the nodes, padded.
fn extent(grid: &GridResult, j: usize) -> [f64; 2] {
    let mut values: Vec<(f64, f64)> = grid
        .nodes
        .iter()
        .zip(&grid.weights)
        .map(|(w, t)| (w[j], *t))
        .collect();
    values.sort_by(|a, b| a.0.total_cmp(&b.0));
    let total: f64 = values.iter().map(|v| v.1).sum();
    let quantile = |q: f64| {
        let mut acc = 0.0;
        for &(v, t) in &values {
            acc += t;
            if acc >= q * total {
                return v;
            }
        }
        values.last().map_or(0.0, |v| v.0)
    };
    let (lo, hi) = (quantile(TAIL), quantile(1.0 - TAIL));
    let pad = PAD * (hi - lo).max(1e-12);
    [lo - pad, hi + pad]
}

/// The whole extent of the nodes along weight `k` (the density is negligible beyond).
fn node_range(grid: &GridResult, k: usize) -> [f64; 2] {
    grid.nodes
        .iter()
        .fold([f64::INFINITY, f64::NEG_INFINITY], |[a, b], w| {
            [a.min(w[k]), b.max(w[k])]
        })
}

fn pair(
    grid: &GridResult,
    log_density: &(dyn Fn(&[f64]) -> f64 + Sync),
    pair: [usize; 2],
    boxes: &[[f64; 2]],
    rest: Option<usize>,
) -> PairDensity {
    let d = grid.mean.len();
    let (x, y) = (boxes[pair[0]], boxes[pair[1]]);
    let step = |r: [f64; 2], n: usize| (r[1] - r[0]) / (n - 1) as f64;
    let (dx, dy) = (step(x, POINTS), step(y, POINTS));
    let inner = rest.map(|k| (k, node_range(grid, k)));
    let density: Vec<f64> = (0..POINTS * POINTS)
        .into_par_iter()
        .map(|cell| {
            let mut w = grid.mean.clone();
            w[pair[0]] = x[0] + (cell % POINTS) as f64 * dx;
            w[pair[1]] = y[0] + (cell / POINTS) as f64 * dy;
            let at = |w: &[f64]| (log_density(w) - grid.log_z).exp();
            let v = match inner {
                None => at(&w),
                Some((k, r)) => {
                    let h = step(r, INNER);
                    (0..INNER)
                        .map(|m| {
                            w[k] = r[0] + m as f64 * h;
                            let end = if m == 0 || m + 1 == INNER { 0.5 } else { 1.0 };
                            end * h * at(&w)
                        })
                        .sum()
                }
            };
            if v.is_finite() {
                v
            } else {
                0.0
            }
        })
        .collect();
    debug_assert_eq!(d, grid.mean.len());
    let mass = trapezoid(&density, POINTS) * dx * dy;
    PairDensity {
        pair,
        x,
        y,
        points: POINTS,
        density: density.into_iter().map(significant).collect(),
        mass,
        source: crate::record::ExactSource::Quadrature,
        levels: None,
        bandwidth: None,
        draws: None,
    }
}

/// The 2-D trapezoidal sum of a square grid's values (without the cell area).
pub fn trapezoid(values: &[f64], n: usize) -> f64 {
    let end = |k: usize| if k == 0 || k + 1 == n { 0.5 } else { 1.0 };
    values
        .iter()
        .enumerate()
        .map(|(c, v)| end(c % n) * end(c / n) * v)
        .sum()
}

/// `v` to six significant digits (what a contour needs; keeps results.json compact).
fn significant(v: f64) -> f64 {
    if v.abs() < 1e-250 || !v.is_finite() {
        return 0.0;
    }
    let scale = 10f64.powi(5 - v.abs().log10().floor() as i32);
    (v * scale).round() / scale
}
