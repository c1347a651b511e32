//! The geometry of the weight-space picture (docs/maths.md §15), shared by the report's figure
//! and the workbench's panel: which pair of weights to draw, which runs are Gaussian
//! approximations, a Gaussian's ellipse holding mass m, the density level whose superlevel set
//! on a grid holds mass m, and that level's contour lines by marching squares.

use bayeslab_core::record::{ExactSource, ExperimentRecord, PairDensity, RunRecord};

/// The probability levels every contour is drawn at.
pub const LEVELS: [f64; 3] = bayeslab_core::record::ExactContours::LEVELS;

/// The run whose pair densities are the exact posterior (a quadrature run).
pub fn exact_run(r: &ExperimentRecord) -> Option<&RunRecord> {
    r.runs
        .iter()
        .find(|run| run.error.is_none() && !run.pair_densities.is_empty())
}

/// The exact contours of the picture: a quadrature run's marginals, else the record's
/// fallback (a gold run's draws or a slice through the mode).
pub struct Exact<'a> {
    pub source: ExactSource,
    pub run: &'a str,
    pub pairs: &'a [PairDensity],
}

impl<'a> Exact<'a> {
    /// The density of `pair`, when kept.
    pub fn of(&self, pair: [usize; 2]) -> Option<&'a PairDensity> {
        self.pairs.iter().find(|p| p.pair == pair)
    }
}

pub fn exact(r: &ExperimentRecord) -> Option<Exact<'_>> {
    if let Some(run) = exact_run(r) {
        return Some(Exact {
            source: ExactSource::Quadrature,
            run: &run.id,
            pairs: &run.pair_densities,
        });
    }
    r.exact_contours.as_ref().map(|e| Exact {
        source: e.source,
        run: &e.run,
        pairs: &e.pairs,
    })
}

/// The density levels of a pair's 50/90/99 % contours: from the draws when the density is
/// an estimate from draws (their leave-one-out densities' quantiles), else from the grid's mass.
pub fn levels(p: &PairDensity) -> Vec<Option<f64>> {
    match &p.levels {
        Some(l) => l.iter().map(|v| Some(*v)).collect(),
        None => mass_levels(p, &LEVELS),
    }
}

/// Each level's contour lines of a pair's exact density.
pub fn exact_lines(p: &PairDensity) -> Vec<Vec<Vec<(f64, f64)>>> {
    levels(p)
        .into_iter()
        .map(|l| l.map_or(Vec::new(), |l| contours(p, l)))
        .collect()
}

/// The runs with a Gaussian posterior over the design's weights: every run with a full
/// covariance but the exact (quadrature) run and the samplers (whose covariance is of draws).
pub fn gaussian_runs(r: &ExperimentRecord) -> Vec<&RunRecord> {
    let d = r.dataset.columns.len();
    r.runs
        .iter()
        .filter(|run| run.error.is_none() && run.pair_densities.is_empty())
        .filter(|run| run.diagnostics.is_none())
        .filter(|run| {
            run.posterior
                .as_ref()
                .is_some_and(|p| p.mean.len() == d && p.cov.is_some())
        })
        .collect()
}

/// Every pair of weights, in order (0,1), (0,2), …, (1,2), …; none below two weights.
pub fn pairs(d: usize) -> Vec<[usize; 2]> {
    (0..d)
        .flat_map(|i| (i + 1..d).map(move |j| [i, j]))
        .collect()
}

/// The pair drawn first: the largest |correlation| of the exact run's posterior, else of the
/// first Gaussian run's.
pub fn default_pair(r: &ExperimentRecord) -> Option<[usize; 2]> {
    let gold = r.exact_contours.as_ref().and_then(|e| {
        r.runs
            .iter()
            .find(|run| e.source == ExactSource::Draws && run.id == e.run)
    });
    let run = exact_run(r)
        .or(gold)
        .or_else(|| gaussian_runs(r).into_iter().next())?;
    let cov = run.posterior.as_ref()?.cov.as_ref()?;
    let corr = |[i, j]: [usize; 2]| cov[i][j].abs() / (cov[i][i] * cov[j][j]).sqrt().max(1e-300);
    pairs(cov.len())
        .into_iter()
        .max_by(|a, b| corr(*a).total_cmp(&corr(*b)))
}

/// The 2-D marginal (mean, covariance) of weights `pair` of a run's Gaussian posterior.
pub fn marginal(run: &RunRecord, [i, j]: [usize; 2]) -> Option<([f64; 2], [[f64; 2]; 2])> {
    let p = run.posterior.as_ref()?;
    let c = p.cov.as_ref()?;
    Some((
        [p.mean[i], p.mean[j]],
        [[c[i][i], c[i][j]], [c[j][i], c[j][j]]],
    ))
}

/// chi^2_2^{-1}(m) = -2 ln(1 - m): the squared Mahalanobis radius of a 2-D Gaussian's region
/// of mass m.
pub fn chi2_2(m: f64) -> f64 {
    -2.0 * (1.0 - m).ln()
}

/// The ellipse (w - mu)^T S^-1 (w - mu) = chi^2_2^-1(m) as `n` points (closed: the last is the
/// first); empty for a covariance that is not positive definite.
pub fn ellipse(mu: [f64; 2], s: [[f64; 2]; 2], m: f64, n: usize) -> Vec<(f64, f64)> {
    let a = s[0][0].sqrt();
    if a.is_nan() || a <= 0.0 {
        return Vec::new();
    }
    let b = s[1][0] / a;
    let c2 = s[1][1] - b * b;
    if c2.is_nan() || c2 <= 0.0 {
        return Vec::new();
    }
    let (c, r) = (c2.sqrt(), chi2_2(m).sqrt());
    (0..=n)
        .map(|k| {
            let t = std::f64::consts::TAU * k as f64 / n as f64;
            let (u, v) = (r * t.cos(), r * t.sin());
            (mu[0] + a * u, mu[1] + b * u + c * v)
        })
        .collect()
}

/// Sub-points per cell side at which the grid's bilinear interpolant is evaluated when masses
/// are summed: a superlevel set's mass from the grid points alone is off by about one cell
/// along its boundary; from the interpolant at 4 x 4 points a cell, by a quarter of that.
const REFINE: usize = 4;

/// The grid's bilinear interpolant at the centres of REFINE x REFINE sub-cells of every cell,
/// each with the mass it stands for (its density times its area): the midpoint rule.
fn point_masses(p: &PairDensity) -> Vec<(f64, f64)> {
    let n = p.points;
    let (dx, dy) = p.spacing();
    let area = dx * dy / (REFINE * REFINE) as f64;
    let mut out = Vec::with_capacity((n.saturating_sub(1) * REFINE).pow(2));
    for iy in 0..n.saturating_sub(1) {
        for ix in 0..n - 1 {
            let v = [
                p.value(ix, iy),
                p.value(ix + 1, iy),
                p.value(ix, iy + 1),
                p.value(ix + 1, iy + 1),
            ];
            for b in 0..REFINE {
                let t = (b as f64 + 0.5) / REFINE as f64;
                for a in 0..REFINE {
                    let s = (a as f64 + 0.5) / REFINE as f64;
                    let d = (1.0 - t) * ((1.0 - s) * v[0] + s * v[1])
                        + t * ((1.0 - s) * v[2] + s * v[3]);
                    out.push((d, d * area));
                }
            }
        }
    }
    out
}

/// The density levels whose superlevel sets hold masses `ms`: the interpolant's points sorted
/// by density, highest first, their masses accumulated until they reach each m.
pub fn mass_levels(p: &PairDensity, ms: &[f64]) -> Vec<Option<f64>> {
    let mut pts = point_masses(p);
    pts.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut cumulative = Vec::with_capacity(pts.len());
    let mut acc = 0.0;
    for q in &pts {
        acc += q.1;
        cumulative.push(acc);
    }
    ms.iter()
        .map(|m| {
            let k = cumulative.partition_point(|c| c < m);
            pts.get(k).map(|q| q.0)
        })
        .collect()
}

/// The density level whose superlevel set holds mass `m` (see [`mass_levels`]).
pub fn mass_level(p: &PairDensity, m: f64) -> Option<f64> {
    mass_levels(p, &[m])[0]
}

/// The mass of the interpolant where its density is at least `level`.
pub fn superlevel_mass(p: &PairDensity, level: f64) -> f64 {
    point_masses(p)
        .iter()
        .filter(|(v, _)| *v >= level)
        .map(|(_, m)| m)
        .sum()
}

/// The grid point of the highest density: the 2-D marginal's mode.
pub fn mode(p: &PairDensity) -> (f64, f64) {
    let best = (0..p.density.len())
        .max_by(|a, b| p.density[*a].total_cmp(&p.density[*b]))
        .unwrap_or(0);
    p.at(best % p.points, best / p.points)
}

/// A crossing point's place: on the horizontal edge from point (ix, iy) to (ix + 1, iy)
/// (`false`) or on the vertical one to (ix, iy + 1) (`true`).
type Edge = (bool, usize, usize);

/// The contour lines of `level` by marching squares, each a polyline (closed ones end at their
/// start); a saddle cell is resolved by the mean of its corners.
pub fn contours(p: &PairDensity, level: f64) -> Vec<Vec<(f64, f64)>> {
    let n = p.points;
    let mut segments: Vec<[Edge; 2]> = Vec::new();
    for iy in 0..n.saturating_sub(1) {
        for ix in 0..n - 1 {
            let v = [
                p.value(ix, iy),
                p.value(ix + 1, iy),
                p.value(ix + 1, iy + 1),
                p.value(ix, iy + 1),
            ];
            // the edges beside each corner, counter-clockwise from (ix, iy)
            let (bottom, right, top, left) = (
                (false, ix, iy),
                (true, ix + 1, iy),
                (false, ix, iy + 1),
                (true, ix, iy),
            );
            let beside = [[left, bottom], [bottom, right], [right, top], [top, left]];
            let above: Vec<bool> = v.iter().map(|x| *x >= level).collect();
            let ups = above.iter().filter(|a| **a).count();
            match ups {
                0 | 4 => {}
                1 | 3 => {
                    let odd = (0..4).find(|k| above[*k] == (ups == 1)).unwrap_or(0);
                    segments.push(beside[odd]);
                }
                _ if above[0] == above[1] || above[0] == above[3] => {
                    // two neighbouring corners up: one line across the cell
                    let crossed: Vec<Edge> = [bottom, right, top, left]
                        .into_iter()
                        .zip([(0, 1), (1, 2), (2, 3), (3, 0)])
                        .filter(|(_, (a, b))| above[*a] != above[*b])
                        .map(|(e, _)| e)
                        .collect();
                    segments.push([crossed[0], crossed[1]]);
                }
                _ => {
                    // a saddle: cut off the corners on the side the centre is not
                    let centre = v.iter().sum::<f64>() / 4.0 >= level;
                    for k in (0..4).filter(|k| above[*k] != centre) {
                        segments.push(beside[k]);
                    }
                }
            }
        }
    }
    chain(&segments)
        .into_iter()
        .map(|line| line.iter().map(|e| crossing(p, level, *e)).collect())
        .collect()
}

/// Where `level` crosses edge `e`, by linear interpolation between its two points.
fn crossing(p: &PairDensity, level: f64, (vertical, ix, iy): Edge) -> (f64, f64) {
    let (jx, jy) = if vertical { (ix, iy + 1) } else { (ix + 1, iy) };
    let (a, b) = (p.value(ix, iy), p.value(jx, jy));
    let t = if b != a { (level - a) / (b - a) } else { 0.5 };
    let ((x0, y0), (x1, y1)) = (p.at(ix, iy), p.at(jx, jy));
    (x0 + t * (x1 - x0), y0 + t * (y1 - y0))
}

/// Segments joined at their shared edges into polylines: open lines from their ends first,
/// then the closed ones.
fn chain(segments: &[[Edge; 2]]) -> Vec<Vec<Edge>> {
    use std::collections::HashMap;
    let mut at: HashMap<Edge, Vec<usize>> = HashMap::new();
    for (s, seg) in segments.iter().enumerate() {
        for e in seg {
            at.entry(*e).or_default().push(s);
        }
    }
    let mut used = vec![false; segments.len()];
    let mut lines = Vec::new();
    let ends: Vec<usize> = (0..segments.len())
        .filter(|s| segments[*s].iter().any(|e| at[e].len() == 1))
        .collect();
    for start in ends.into_iter().chain(0..segments.len()) {
        if used[start] {
            continue;
        }
        let seg = segments[start];
        let first = usize::from(at[&seg[0]].len() != 1 && at[&seg[1]].len() == 1);
        let mut line = vec![seg[first], seg[1 - first]];
        used[start] = true;
        loop {
            let tail = *line.last().unwrap_or(&seg[0]);
            let Some(&next) = at[&tail].iter().find(|s| !used[**s]) else {
                break;
            };
            used[next] = true;
            let [a, b] = segments[next];
            line.push(if a == tail { b } else { a });
        }
        lines.push(line);
    }
    lines
}

#[cfg(test)]
#[path = "contour_tests.rs"]
mod tests;
