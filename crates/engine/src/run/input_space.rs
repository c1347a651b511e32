//! The input-space picture (docs/maths.md §17), computed at run time from the fitted runs: the
//! two features of largest |posterior mean weight| (design columns after the intercept, not
//! near-constant; `input_pair.rs` chooses) on a grid in original units, the
//! other columns at their training means, every predictive of the main Gaussian run and the
//! exact run's exact predictive evaluated there by the runs' own predictors (so the design's
//! standardisation and intercept are applied exactly as for the test rows), and decision
//! boundaries drawn from the main run's Gaussian posterior.

use rand_distr::{Distribution, StandardNormal};

use crate::config::Plan;
use bayeslab_core::model::method::Fitted;
use bayeslab_core::model::predictive::PredictiveSettings;
use bayeslab_core::model::PredictiveKind;
use bayeslab_core::numeric::rng;
use bayeslab_core::record::{InputSpace, RunRecord, Surface};
use bayeslab_data::{Dataset, INTERCEPT};

/// Grid points per axis, training rows kept at most, boundaries drawn.
pub const POINTS: usize = 31;
pub const MAX_ROWS: usize = 1000;
pub const BOUNDARIES: usize = 40;
/// The features whose pairs are recorded (the four of largest |weight|: six pairs at most).
pub const MAX_FEATURES: usize = 4;

/// The picture's record of the default pair (the two features of largest |posterior mean
/// weight|) and of the further pairs among the [`MAX_FEATURES`] largest (the workbench's
/// `[`/`]`), or `None` with fewer than two features (nothing to draw).
pub fn input_space(
    plan: &Plan,
    data: &Dataset,
    fitted: &[Option<Fitted>],
    runs: &[RunRecord],
) -> Option<(InputSpace, Vec<InputSpace>)> {
    let intercept = data.columns.first().is_some_and(|c| c == INTERCEPT);
    let first = usize::from(intercept);
    if data.columns.len() < first + 2 {
        return None;
    }
    if data.classes.len() != 2 {
        return Some((
            InputSpace::unavailable(format!(
                "the input-space picture draws p(y = 1) of a binary target; this one has {} \
                 classes",
                data.classes.len()
            )),
            Vec::new(),
        ));
    }
    let Some(scaling) = &data.scaling else {
        return Some((
            InputSpace::unavailable(
                "a feature map made the design columns, which have no original units to draw \
                 the inputs in; the input-space picture needs [features] map absent"
                    .into(),
            ),
            Vec::new(),
        ));
    };
    let candidates = super::input_pair::candidates(data.train.x.as_ref(), first);
    let weights = ranking_weights(runs, data.columns.len());
    let drawn = super::input_pair::ranked(&candidates, weights.map(|w| w.1), MAX_FEATURES);
    // The other columns' training means, once for every plane.
    let x = data.train.x.as_ref();
    let n = x.nrows();
    let means: Vec<f64> = {
        use rayon::prelude::*;
        (0..x.ncols())
            .into_par_iter()
            .map(|j| super::input_pair::column(x, j).iter().sum::<f64>() / n.max(1) as f64)
            .collect()
    };
    let fixed = Fixed {
        plan,
        data,
        fitted,
        runs,
        scaling,
        means: &means,
    };
    let mut planes = (0..drawn.len())
        .flat_map(|i| (i + 1..drawn.len()).map(move |j| (i, j)))
        .map(|(i, j)| plane(&fixed, [drawn[i], drawn[j]]));
    let mut main = planes.next()?;
    main.chosen = super::input_pair::choice(&candidates, &drawn, weights);
    Some((main, planes.collect()))
}

/// The weights that rank the features: the main Gaussian run's posterior mean, else the first
/// run's weights over every design column (a MAP, a sampler's posterior mean).
fn ranking_weights(runs: &[RunRecord], d: usize) -> Option<(&str, &[f64])> {
    fn mean(r: &RunRecord, d: usize) -> Option<&[f64]> {
        match &r.posterior {
            Some(p) if p.mean.len() == d => Some(&p.mean),
            _ if r.weights.len() == d => Some(&r.weights),
            _ => None,
        }
    }
    let run = main_run(runs, d).map(|m| &runs[m]).or_else(|| {
        runs.iter()
            .find(|r| r.error.is_none() && mean(r, d).is_some())
    })?;
    Some((run.id.as_str(), mean(run, d)?))
}

/// What every plane of one run is drawn from: the runs and their fits, the design's scaling
/// and its columns' training means.
struct Fixed<'a> {
    plan: &'a Plan,
    data: &'a Dataset,
    fitted: &'a [Option<Fitted>],
    runs: &'a [RunRecord],
    scaling: &'a [(f64, f64)],
    means: &'a [f64],
}

/// The picture of features `[a, b]` (design columns) with the others at their means.
fn plane(fixed: &Fixed, [a, b]: [usize; 2]) -> InputSpace {
    let Fixed {
        plan,
        data,
        fitted,
        runs,
        scaling,
        means,
    } = *fixed;
    let intercept = data.columns.first().is_some_and(|c| c == INTERCEPT);
    let first = usize::from(intercept);
    let x = &data.train.x;
    let n = x.nrows();
    // original units of design column j: centre + scale * design
    let orig = |j: usize, v: f64| scaling[j - first].0 + scaling[j - first].1 * v;
    let range = |j: usize| {
        let col = super::input_pair::column(x.as_ref(), j);
        let (lo, hi) = col
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &v| {
                let v = orig(j, v);
                (l.min(v), h.max(v))
            });
        let pad = 0.08 * (hi - lo).max(1e-9);
        [lo - pad, hi + pad]
    };
    let (xr, yr) = (range(a), range(b));
    let step = |r: [f64; 2]| (r[1] - r[0]) / (POINTS - 1) as f64;
    let grid = bayeslab_core::numeric::linalg::matrix(POINTS * POINTS, x.ncols(), |c, j| {
        let (ix, iy) = (c % POINTS, c / POINTS);
        match j {
            _ if j == a => {
                (xr[0] + ix as f64 * step(xr) - scaling[a - first].0) / scaling[a - first].1
            }
            _ if j == b => {
                (yr[0] + iy as f64 * step(yr) - scaling[b - first].0) / scaling[b - first].1
            }
            _ if intercept && j == 0 => 1.0,
            _ => means[j],
        }
    });
    let every = n.div_ceil(MAX_ROWS).max(1);
    let rows = (0..n)
        .step_by(every)
        .map(|i| [orig(a, x[(i, a)]), orig(b, x[(i, b)]), data.train.y[i]])
        .collect();
    let main = main_run(runs, data.columns.len());
    let mut surfaces = Vec::new();
    for (i, run) in runs.iter().enumerate() {
        let Some(fit) = fitted.get(i).and_then(|f| f.as_ref()) else {
            continue;
        };
        let quadrature = !run.pair_densities.is_empty();
        if Some(i) != main && !quadrature {
            continue;
        }
        for p in &run.predictives {
            let kind = p.name;
            if quadrature && kind != PredictiveKind::Exact {
                continue;
            }
            let method = &plan.methods[i];
            let settings = PredictiveSettings {
                mc_samples: method.mc_samples,
                quadrature_nodes: method.quadrature_nodes,
                first_row: 0,
            };
            let mut stream = rng::stream(plan.seed, &format!("input-space/{}/{}", run.id, p.name));
            if let bayeslab_core::model::fit::Probabilities::Binary(v) =
                fit.predictor
                    .predict(kind, grid.as_ref(), settings, &mut stream)
            {
                surfaces.push(Surface {
                    run: run.id.clone(),
                    predictive: p.name,
                    p: v.into_iter().map(|q| (q * 1e4).round() / 1e4).collect(),
                });
            }
        }
    }
    let (boundary_run, boundaries) = match main {
        Some(m) => (
            runs[m].id.clone(),
            boundaries(
                plan.seed,
                &runs[m],
                [a, b],
                intercept,
                means,
                scaling,
                first,
            ),
        ),
        None => (String::new(), Vec::new()),
    };
    let others_at_mean = (first..data.columns.len())
        .filter(|j| *j != a && *j != b)
        .map(|j| data.columns[j].clone())
        .collect();
    InputSpace {
        unavailable: None,
        features: vec![data.columns[a].clone(), data.columns[b].clone()],
        chosen: None,
        others_at_mean,
        x: xr,
        y: yr,
        points: POINTS,
        rows,
        rows_total: n,
        surfaces,
        boundary_run,
        boundaries,
    }
}

/// The main Gaussian run: the one with the most predictives among those with a full
/// covariance over the design's weights (not a sampler, not the quadrature run).
fn main_run(runs: &[RunRecord], d: usize) -> Option<usize> {
    let gaussian = |r: &RunRecord| {
        r.error.is_none()
            && r.diagnostics.is_none()
            && r.pair_densities.is_empty()
            && r.posterior
                .as_ref()
                .is_some_and(|p| p.mean.len() == d && p.cov.is_some())
    };
    let mut best: Option<usize> = None;
    for (i, r) in runs.iter().enumerate().filter(|(_, r)| gaussian(r)) {
        if best.is_none_or(|b| r.predictives.len() > runs[b].predictives.len()) {
            best = Some(i);
        }
    }
    best
}

/// BOUNDARIES decision boundaries c0 + cx x + cy y = 0 (original units) with w drawn from the
/// run's Gaussian: (c0, w_a, w_b) = A w is Gaussian with mean A mu and covariance A S A^T, so
/// only that 3 x 3 covariance is factored.
fn boundaries(
    seed: u64,
    run: &RunRecord,
    [a, b]: [usize; 2],
    intercept: bool,
    means: &[f64],
    scaling: &[(f64, f64)],
    first: usize,
) -> Vec<[f64; 3]> {
    let Some(post) = &run.posterior else {
        return Vec::new();
    };
    let Some(cov) = &post.cov else {
        return Vec::new();
    };
    let d = post.mean.len();
    // row 0: the activation's offset at the other columns' means; rows 1, 2: w_a, w_b
    let mut rows = [vec![0.0; d], vec![0.0; d], vec![0.0; d]];
    for j in (0..d).filter(|j| *j != a && *j != b) {
        rows[0][j] = if intercept && j == 0 { 1.0 } else { means[j] };
    }
    rows[1][a] = 1.0;
    rows[2][b] = 1.0;
    let mean: Vec<f64> = rows.iter().map(|r| dot(r, &post.mean)).collect();
    let mut s = [[0.0; 3]; 3];
    for (p, rp) in rows.iter().enumerate() {
        for (q, rq) in rows.iter().enumerate() {
            s[p][q] = (0..d)
                .map(|i| rp[i] * (0..d).map(|j| cov[i][j] * rq[j]).sum::<f64>())
                .sum();
        }
    }
    let Some(l) = cholesky3(s) else {
        return Vec::new();
    };
    let mut stream = rng::stream(seed, &format!("input-space/boundaries/{}", run.id));
    let (ca, sa) = scaling[a - first];
    let (cb, sb) = scaling[b - first];
    (0..BOUNDARIES)
        .map(|_| {
            let z: [f64; 3] = [0; 3].map(|_| StandardNormal.sample(&mut stream));
            let v: Vec<f64> = (0..3)
                .map(|p| mean[p] + (0..=p).map(|q| l[p][q] * z[q]).sum::<f64>())
                .collect();
            // v0 + v1 (x - ca)/sa + v2 (y - cb)/sb = 0
            [v[0] - v[1] * ca / sa - v[2] * cb / sb, v[1] / sa, v[2] / sb]
        })
        .collect()
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The lower Cholesky factor of a 3 x 3 covariance, the offset's row allowed to be zero (no
/// intercept and centred columns).
fn cholesky3(s: [[f64; 3]; 3]) -> Option<[[f64; 3]; 3]> {
    let mut l = [[0.0; 3]; 3];
    for i in 0..3 {
        for j in 0..=i {
            let sum: f64 = (0..j).map(|k| l[i][k] * l[j][k]).sum();
            if i == j {
                let v = s[i][i] - sum;
                if v < -1e-12 {
                    return None;
                }
                l[i][i] = v.max(0.0).sqrt();
            } else {
                l[i][j] = if l[j][j] > 0.0 {
                    (s[i][j] - sum) / l[j][j]
                } else {
                    0.0
                };
            }
        }
    }
    Some(l)
}
