//! The moments and normaliser of a density over a few dimensions (at most three) by the
//! trapezoidal rule on a tensor grid, refined until they stop changing (docs/maths.md §10).
//!
//! The grid lives in whitened coordinates z, w = m + S z, where m is the density's mode and
//! S S^T the inverse of its curvature there (the Laplace covariance): the density is then close
//! to a standard normal in z, whatever the scale and correlation of w. For a smooth integrand
//! that decays to zero at the edges of the box, the trapezoidal rule converges geometrically in
//! 1/h (Trefethen & Weideman 2014, "The exponentially convergent trapezoidal rule", §5), so
//! halving the spacing until nothing changes by more than the tolerance gives the integrals to
//! about that tolerance. Each side of the box is pushed out until the density on that face is
//! below [`FACE`] of its value at the mode: a skewed posterior gets a long box on its long side.
//!
//! Points are evaluated in parallel into one vector and summed in grid order, so the results
//! are the same bits on any number of threads.

use faer::{Mat, MatRef};
use rayon::prelude::*;

/// A face of the box is far enough once the density on it is below this fraction of the mode's:
/// the mass beyond it is then of that order relative to the whole, four orders below the
/// tolerance of the quadrature kinds.
pub const FACE: f64 = 1e-14;
/// The first box, in whitened units on every side (a standard normal's density at 8 is
/// 1.3e-14 of its peak), and the first spacing (the trapezoidal rule's error on a standard
/// normal at spacing h is about 2 exp(-2 pi^2 / h^2): 1e-34 at 0.5).
const START_HALF_WIDTH: f64 = 8.0;
const START_SPACING: f64 = 0.5;

/// What to integrate: ln of an unnormalised density of w, its mode and the whitening factor.
pub struct GridProblem<'a> {
    pub mode: &'a [f64],
    /// Lower triangular S with S S^T the curvature's inverse at the mode.
    pub scale: MatRef<'a, f64>,
    pub log_density: &'a (dyn Fn(&[f64]) -> f64 + Sync),
    /// Stop when ln Z, the mean (in posterior sd) and the covariance (in products of sd) change
    /// by less than this at a halving of the spacing.
    pub tolerance: f64,
    /// Give up (unconverged) rather than evaluate a grid with more points than this.
    pub max_points: usize,
}

/// The integrals, and the final grid's nodes with their normalised weights (nodes whose
/// weight is below 1e-18 of the total dropped) for expectations such as the predictive.
#[derive(Debug, Clone)]
pub struct GridResult {
    /// ln of the integral of exp(log_density) over w.
    pub log_z: f64,
    pub mean: Vec<f64>,
    pub cov: Mat<f64>,
    pub nodes: Vec<Vec<f64>>,
    pub weights: Vec<f64>,
    /// Points of the final grid, and the largest change of any figure at its last halving.
    pub points: usize,
    pub last_change: f64,
    pub converged: bool,
}

/// One grid's box, spacing and the integrals it gives (in z).
struct Level {
    lo: Vec<f64>,
    counts: Vec<usize>,
    h: f64,
    /// exp(ln density - ln density at the mode) at every point, in grid order.
    values: Vec<f64>,
    /// The largest relative density on each face: [axis][0 = low side, 1 = high side].
    faces: Vec<[f64; 2]>,
}

impl Level {
    fn points(&self) -> usize {
        self.counts.iter().product()
    }

    /// The point's z coordinates from its index in grid order (the last axis fastest).
    fn z(&self, mut index: usize, z: &mut [f64]) {
        for axis in (0..self.counts.len()).rev() {
            z[axis] = self.lo[axis] + self.h * (index % self.counts[axis]) as f64;
            index /= self.counts[axis];
        }
    }

    /// The trapezoidal weight of a point: half on each axis where it sits on a face.
    fn weight(&self, mut index: usize) -> f64 {
        let mut t = 1.0;
        for axis in (0..self.counts.len()).rev() {
            let k = index % self.counts[axis];
            if k == 0 || k + 1 == self.counts[axis] {
                t *= 0.5;
            }
            index /= self.counts[axis];
        }
        t
    }
}

/// Integrate `p`: halve the spacing until two grids agree to the tolerance, or the next grid
/// would exceed the point budget (then the last grid's figures, marked unconverged).
pub fn integrate(p: &GridProblem<'_>) -> GridResult {
    let d = p.mode.len();
    let peak = (p.log_density)(p.mode);
    let mut lo = vec![-START_HALF_WIDTH; d];
    let mut hi = vec![START_HALF_WIDTH; d];
    let mut h = START_SPACING;
    let mut previous: Option<GridResult> = None;
    loop {
        let Some(level) = widened(p, peak, &mut lo, &mut hi, h) else {
            return give_up(previous, p);
        };
        let result = moments(p, &level, peak);
        if let Some(prev) = &previous {
            let change = difference(prev, &result);
            if change <= p.tolerance {
                return GridResult {
                    last_change: change,
                    converged: true,
                    ..result
                };
            }
            previous = Some(GridResult {
                last_change: change,
                ..result
            });
        } else {
            previous = Some(result);
        }
        h /= 2.0;
    }
}

/// The last grid that fitted within the budget, marked unconverged.
fn give_up(previous: Option<GridResult>, p: &GridProblem<'_>) -> GridResult {
    match previous {
        Some(r) => GridResult {
            converged: false,
            ..r
        },
        None => GridResult {
            log_z: f64::NAN,
            mean: p.mode.to_vec(),
            cov: Mat::zeros(p.mode.len(), p.mode.len()),
            nodes: Vec::new(),
            weights: Vec::new(),
            points: 0,
            last_change: f64::INFINITY,
            converged: false,
        },
    }
}

/// Evaluate the grid of spacing `h`, pushing out each face whose density is not negligible,
/// until none is; `None` when the grid would exceed the point budget.
fn widened(
    p: &GridProblem<'_>,
    peak: f64,
    lo: &mut [f64],
    hi: &mut [f64],
    h: f64,
) -> Option<Level> {
    loop {
        let counts: Vec<usize> = lo
            .iter()
            .zip(hi.iter())
            .map(|(l, u)| ((u - l) / h).ceil() as usize + 1)
            .collect();
        if counts.iter().product::<usize>() > p.max_points {
            return None;
        }
        let level = evaluate(p, peak, lo, counts, h);
        let mut grown = false;
        for (axis, face) in level.faces.iter().enumerate() {
            let width = hi[axis] - lo[axis];
            if face[0] > FACE {
                lo[axis] -= width / 4.0;
                grown = true;
            }
            if face[1] > FACE {
                hi[axis] += width / 4.0;
                grown = true;
            }
        }
        if !grown {
            return Some(level);
        }
    }
}

fn evaluate(p: &GridProblem<'_>, peak: f64, lo: &[f64], counts: Vec<usize>, h: f64) -> Level {
    let d = lo.len();
    let mut level = Level {
        lo: lo.to_vec(),
        counts,
        h,
        values: Vec::new(),
        faces: vec![[0.0; 2]; d],
    };
    level.values = (0..level.points())
        .into_par_iter()
        .map_init(
            || (vec![0.0; d], vec![0.0; d]),
            |(z, w), i| {
                level.z(i, z);
                to_w(p, z, w);
                let v = ((p.log_density)(w) - peak).exp();
                if v.is_finite() {
                    v
                } else {
                    0.0
                }
            },
        )
        .collect();
    let mut faces = vec![[0.0_f64; 2]; d];
    for (i, &v) in level.values.iter().enumerate() {
        let mut index = i;
        for axis in (0..d).rev() {
            let k = index % level.counts[axis];
            if k == 0 {
                faces[axis][0] = faces[axis][0].max(v);
            }
            if k + 1 == level.counts[axis] {
                faces[axis][1] = faces[axis][1].max(v);
            }
            index /= level.counts[axis];
        }
    }
    level.faces = faces;
    level
}

/// w = m + S z.
fn to_w(p: &GridProblem<'_>, z: &[f64], w: &mut [f64]) {
    for (i, wi) in w.iter_mut().enumerate() {
        *wi = p.mode[i] + (0..=i).map(|j| p.scale[(i, j)] * z[j]).sum::<f64>();
    }
}

/// ln Z, the mean and the covariance in w from one grid, and its nodes and weights. The sums
/// are of u = w - m = S z, which is of the order of the posterior's sd, so that the covariance
/// E[u u^T] - E[u] E[u]^T keeps its digits when the mean is far from zero.
fn moments(p: &GridProblem<'_>, level: &Level, peak: f64) -> GridResult {
    let d = p.mode.len();
    let zero = vec![0.0; d];
    let centred = GridProblem {
        mode: &zero,
        scale: p.scale,
        log_density: p.log_density,
        tolerance: p.tolerance,
        max_points: p.max_points,
    };
    let (mut z, mut u) = (vec![0.0; d], vec![0.0; d]);
    let mut mass = 0.0;
    let mut first = vec![0.0; d];
    let mut second = Mat::<f64>::zeros(d, d);
    let mut nodes = Vec::new();
    let mut weights = Vec::new();
    for (i, &v) in level.values.iter().enumerate() {
        if v == 0.0 {
            continue;
        }
        let t = level.weight(i) * v;
        level.z(i, &mut z);
        to_w(&centred, &z, &mut u);
        mass += t;
        for a in 0..d {
            first[a] += t * u[a];
            for b in 0..=a {
                second[(a, b)] += t * u[a] * u[b];
            }
        }
        nodes.push(u.iter().zip(p.mode).map(|(u, m)| u + m).collect());
        weights.push(t);
    }
    let shift: Vec<f64> = first.iter().map(|f| f / mass).collect();
    let cov = Mat::from_fn(d, d, |a, b| {
        let (a, b) = if b > a { (b, a) } else { (a, b) };
        second[(a, b)] / mass - shift[a] * shift[b]
    });
    let mean: Vec<f64> = shift.iter().zip(p.mode).map(|(s, m)| s + m).collect();
    // dw = |det S| dz, and each z cell has volume h^d.
    let log_det_s: f64 = (0..d).map(|i| p.scale[(i, i)].abs().ln()).sum();
    let log_z = peak + mass.ln() + d as f64 * level.h.ln() + log_det_s;
    let keep = weights.iter().map(|t| t / mass).collect::<Vec<_>>();
    let (nodes, weights): (Vec<_>, Vec<_>) = nodes
        .into_iter()
        .zip(keep)
        .filter(|(_, t)| *t > 1e-18)
        .unzip();
    GridResult {
        log_z,
        mean,
        cov,
        nodes,
        weights,
        points: level.points(),
        last_change: f64::INFINITY,
        converged: false,
    }
}

/// The largest change between two grids: ln Z absolutely, the mean in units of the posterior
/// sd, the covariance in units of the products of sds.
fn difference(a: &GridResult, b: &GridResult) -> f64 {
    let d = a.mean.len();
    let sd: Vec<f64> = (0..d).map(|i| b.cov[(i, i)].max(0.0).sqrt()).collect();
    let mut change = (a.log_z - b.log_z).abs();
    for i in 0..d {
        change = change.max((a.mean[i] - b.mean[i]).abs() / sd[i]);
        for j in 0..d {
            change = change.max((a.cov[(i, j)] - b.cov[(i, j)]).abs() / (sd[i] * sd[j]));
        }
    }
    if change.is_nan() {
        f64::INFINITY
    } else {
        change
    }
}
