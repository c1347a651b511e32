//! The geometry of the step-by-step picture (docs/maths.md §18), shared by the report's strip
//! and the workbench's step mode: which runs recorded steps, the exact run drawn behind a run's
//! steps (a quadrature run of the same likelihood), the shared axes of a run's strip, and an EP
//! site update's four densities of t = y_i phi_i^T w (old, cavity, tilted, new).

use super::contour::{self, LEVELS};
use bayeslab_core::record::{ExperimentRecord, FitStep, RunRecord, SiteUpdate, StepKind};

/// The levels a step's ellipse is drawn at (fewer than the weight-space picture's: small panels).
pub const STEP_LEVELS: [f64; 2] = [0.5, 0.9];

pub type Polyline = Vec<(f64, f64)>;

/// The runs that recorded steps, in run order.
pub fn stepped_runs(r: &ExperimentRecord) -> Vec<&RunRecord> {
    r.runs
        .iter()
        .filter(|run| run.error.is_none())
        .filter(|run| run.steps.as_ref().is_some_and(|s| !s.steps.is_empty()))
        .collect()
}

/// The pair of weights the steps are drawn in: the weight-space picture's default pair.
pub fn pair(r: &ExperimentRecord) -> [usize; 2] {
    contour::default_pair(r).unwrap_or([0, 1])
}

/// The quadrature run with `run`'s likelihood (and probit noise), whose exact posterior is
/// drawn behind `run`'s steps.
pub fn exact_for<'r>(r: &'r ExperimentRecord, run: &RunRecord) -> Option<&'r RunRecord> {
    let likelihood = |x: &RunRecord| x.kind.likelihood(x.noise.unwrap_or(1.0));
    let want = likelihood(run)?;
    r.runs
        .iter()
        .find(|x| x.error.is_none() && !x.pair_densities.is_empty() && likelihood(x) == Some(want))
}

/// The exact run's contours at the weight-space picture's levels, for `pair`.
pub fn exact_lines(exact: Option<&RunRecord>, pair: [usize; 2]) -> Vec<Polyline> {
    let Some(p) = exact.and_then(|x| x.pair_densities.iter().find(|p| p.pair == pair)) else {
        return Vec::new();
    };
    LEVELS
        .iter()
        .filter_map(|m| contour::mass_level(p, *m))
        .flat_map(|l| contour::contours(p, l))
        .collect()
}

/// A step's ellipses at [`STEP_LEVELS`] in `pair`.
pub fn ellipses(step: &FitStep, pair: [usize; 2], points: usize) -> Vec<Polyline> {
    step.marginal(pair).map_or(Vec::new(), |(mu, s)| {
        STEP_LEVELS
            .iter()
            .map(|m| contour::ellipse(mu, s, *m, points))
            .collect()
    })
}

/// The x and y ranges of a run's weight-space strip: every step's 90 % ellipse and the exact
/// contours, padded by 5 %, the same for every panel so that contraction is seen.
pub fn bounds(steps: &[FitStep], exact: &[Polyline], pair: [usize; 2]) -> ([f64; 2], [f64; 2]) {
    let rings: Vec<Polyline> = steps.iter().flat_map(|s| ellipses(s, pair, 60)).collect();
    span(rings.iter().chain(exact).flatten())
}

/// The range of points, padded by 5 % (a unit box around a single point).
pub fn span<'a>(points: impl Iterator<Item = &'a (f64, f64)>) -> ([f64; 2], [f64; 2]) {
    let (mut x, mut y) = (
        [f64::INFINITY, f64::NEG_INFINITY],
        [f64::INFINITY, f64::NEG_INFINITY],
    );
    for &(u, v) in points.filter(|p| p.0.is_finite() && p.1.is_finite()) {
        x = [x[0].min(u), x[1].max(u)];
        y = [y[0].min(v), y[1].max(v)];
    }
    let pad = |r: [f64; 2]| match r[1] > r[0] {
        true => [r[0] - 0.05 * (r[1] - r[0]), r[1] + 0.05 * (r[1] - r[0])],
        false if r[0].is_finite() => [r[0] - 1.0, r[0] + 1.0],
        false => [-1.0, 1.0],
    };
    (pad(x), pad(y))
}

/// An ADF example's line y_i phi_i^T w = 0 in a model of exactly two weights, clipped to the
/// box: the examples on one side of it are classified as this one's label.
pub fn example_line(site: &SiteUpdate, x: [f64; 2], y: [f64; 2]) -> Option<Polyline> {
    let [a, b] = <[f64; 2]>::try_from(site.direction.as_slice()).ok()?;
    match b.abs() > a.abs() {
        true => Some(vec![(x[0], -a * x[0] / b), (x[1], -a * x[1] / b)]),
        false if a != 0.0 => Some(vec![(-b * y[0] / a, y[0]), (-b * y[1] / a, y[1])]),
        false => None,
    }
}

/// The densities of t = direction^T w of one EP site update, on `points` values of t covering
/// the four: the approximation before the update, the cavity, the tilted distribution (by the
/// trapezoid rule over the grid) and the approximation after it.
pub struct SiteCurves {
    pub old: Polyline,
    pub cavity: Polyline,
    pub tilted: Polyline,
    pub new: Polyline,
}

pub fn site_curves(step: &FitStep, points: usize) -> Option<SiteCurves> {
    let site = step.site.as_ref()?;
    let moments = |mean: &[f64], cov: &[Vec<f64>]| {
        let d = &site.direction;
        let m: f64 = d.iter().zip(mean).map(|(a, b)| a * b).sum();
        let v: f64 = (0..d.len())
            .map(|i| (0..d.len()).map(|j| d[i] * cov[i][j] * d[j]).sum::<f64>())
            .sum();
        [m, v]
    };
    let old = moments(&site.before_mean, &site.before_cov);
    let new = moments(&step.mean, &step.cov);
    let all = [old, site.cavity, site.tilted, new];
    let lo = all
        .iter()
        .map(|[m, v]| m - 3.5 * v.sqrt())
        .fold(f64::INFINITY, f64::min);
    let hi = all
        .iter()
        .map(|[m, v]| m + 3.5 * v.sqrt())
        .fold(f64::NEG_INFINITY, f64::max);
    let n = points.max(2);
    let ts: Vec<f64> = (0..n)
        .map(|k| lo + (hi - lo) * k as f64 / (n - 1) as f64)
        .collect();
    let normal = |[m, v]: [f64; 2]| -> Polyline {
        ts.iter()
            .map(|&t| {
                (
                    t,
                    (-(t - m).powi(2) / (2.0 * v)).exp() / (2.0 * std::f64::consts::PI * v).sqrt(),
                )
            })
            .collect()
    };
    let cavity = normal(site.cavity);
    let unnormalised: Vec<f64> = cavity
        .iter()
        .map(|&(t, p)| p * site.likelihood_at(t))
        .collect();
    let dt = (hi - lo) / (n - 1) as f64;
    let z = dt * (unnormalised.iter().sum::<f64>() - 0.5 * (unnormalised[0] + unnormalised[n - 1]));
    let tilted = ts
        .iter()
        .zip(&unnormalised)
        .map(|(&t, p)| (t, p / z))
        .collect();
    Some(SiteCurves {
        old: normal(old),
        cavity,
        tilted,
        new: normal(new),
    })
}

/// The title of one panel: what the step is.
pub fn panel_title(kind: StepKind, step: &FitStep) -> String {
    match (kind, &step.site) {
        (StepKind::Newton, _) => format!("iterate {}", step.index),
        (StepKind::AdfExample, _) => format!("n = {}", step.index),
        (StepKind::EpSite, Some(s)) => format!(
            "update {}: row {}, sweep {}",
            step.index,
            s.row + 1,
            s.sweep
        ),
        (StepKind::EpSite, None) => format!("update {}", step.index),
    }
}
