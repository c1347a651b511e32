//! The recorded steps against what they claim to be: Newton's last step is the Laplace run's
//! mode and each step's covariance the inverse of a Hessian taken by central differences of
//! E(w) written out here; EP's recorded tilted moments against a 1-D trapezoid rule over
//! cavity x likelihood computed here; ADF's last step against the ADF run's posterior.

use faer::Mat;

use crate::catalog::MethodKind;
use crate::model::fit::{FitInput, Fitted};
use crate::model::options::Options;
use crate::model::spec::{MethodSpec, Optimizer};
use crate::record::{FitSteps, SiteUpdate, StepKind};

const PRECISION: f64 = 0.3;

/// 12 overlapping rows: an intercept and one feature.
fn data() -> (Mat<f64>, Vec<f64>) {
    let x = Mat::<f64>::from_fn(12, 2, |i, j| match j {
        0 => 1.0,
        _ => (i as f64 - 5.5) / 3.0,
    });
    let y = [0., 0., 1., 0., 0., 1., 0., 1., 1., 0., 1., 1.].to_vec();
    (x, y)
}

fn fit(kind: MethodKind) -> Fitted {
    let (x, y) = data();
    let spec = MethodSpec {
        id: kind.name().into(),
        kind,
        optimizer: Optimizer::Newton,
        max_iter: 200,
        tolerance: 1e-10,
        options: Options::defaults(kind.family()),
    };
    let columns = ["intercept", "x"].map(String::from);
    let input = FitInput {
        file: std::path::Path::new("t.toml"),
        method: &spec,
        precision: PRECISION,
        seed: 5,
        x: x.as_ref(),
        y: &y,
        classes: 2,
        intercept: true,
        columns: &columns,
        cancel: None,
        record_steps: true,
    };
    crate::model::method::fit_matrix(&input, &mut |_: &str, _: &crate::optim::Iterate| {})
        .unwrap_or_else(|e| panic!("{}: {e}", kind.name()))
}

fn steps(fitted: &Fitted) -> &FitSteps {
    fitted.steps.as_ref().expect("steps recorded")
}

/// E(w) = sum softplus(a) - y a + lambda/2 |w|^2, written out independently of the model.
fn energy(w: &[f64]) -> f64 {
    let (x, y) = data();
    let mut e = 0.5 * PRECISION * (w[0] * w[0] + w[1] * w[1]);
    for (i, yi) in y.iter().enumerate() {
        let a = x[(i, 0)] * w[0] + x[(i, 1)] * w[1];
        e += (1.0 + a.exp()).ln() - yi * a;
    }
    e
}

#[test]
fn newtons_last_step_is_the_laplace_mode_and_each_covariance_inverts_the_hessian() {
    let fitted = fit(MethodKind::LogisticLaplace);
    let s = steps(&fitted);
    assert_eq!(s.kind, StepKind::Newton);
    assert_eq!(s.total, s.steps.len());
    assert!(s.steps.len() >= 3, "{} steps", s.steps.len());
    assert_eq!(s.steps[0].index, 0);
    assert_eq!(s.steps[0].mean, vec![0.0, 0.0], "Newton starts at w = 0");
    let last = s.steps.last().unwrap();
    let posterior = fitted.posterior.as_ref().unwrap();
    for k in 0..2 {
        assert!((last.mean[k] - fitted.weights[k]).abs() <= 1e-10);
        assert!((last.mean[k] - posterior.mean[k]).abs() <= 1e-10);
        assert!((last.cov[k][k] - posterior.cov_diag[k]).abs() <= 1e-10 * posterior.cov_diag[k]);
    }
    // the Hessian by central differences of E at a step on the way (not the start, not the mode)
    let step = &s.steps[1];
    let h = 1e-4;
    let w = &step.mean;
    let at = |di: f64, dj: f64, i: usize, j: usize| {
        let mut v = w.clone();
        v[i] += di;
        v[j] += dj;
        energy(&v)
    };
    let fd = |i: usize, j: usize| {
        (at(h, h, i, j) - at(h, -h, i, j) - at(-h, h, i, j) + at(-h, -h, i, j)) / (4.0 * h * h)
    };
    let c = &step.cov;
    let det = c[0][0] * c[1][1] - c[0][1] * c[1][0];
    let inverse = [
        [c[1][1] / det, -c[0][1] / det],
        [-c[1][0] / det, c[0][0] / det],
    ];
    for i in 0..2 {
        for j in 0..2 {
            let want = fd(i, j);
            assert!(
                (inverse[i][j] - want).abs() <= 1e-5 * want.abs().max(1.0),
                "H[{i}][{j}]: cov^-1 {} against finite differences {want}",
                inverse[i][j]
            );
        }
    }
}

/// (mean, variance) of lik(t) N(t; m, v) / Z by the trapezoid rule on m ± 14 sd.
fn tilted_by_trapezoid(site: &SiteUpdate) -> (f64, f64) {
    let [m, v] = site.cavity;
    let sd = v.sqrt();
    let lik = |t: f64| match site.beta {
        Some(beta) => 0.5 * libm::erfc(-t / beta / std::f64::consts::SQRT_2),
        None => 1.0 / (1.0 + (-t).exp()),
    };
    let n = 20_000;
    let (lo, hi) = (m - 14.0 * sd, m + 14.0 * sd);
    let dt = (hi - lo) / n as f64;
    let (mut z, mut m1, mut m2) = (0.0, 0.0, 0.0);
    for k in 0..=n {
        let t = lo + k as f64 * dt;
        let wk = if k == 0 || k == n { 0.5 } else { 1.0 };
        let p = wk * lik(t) * (-(t - m).powi(2) / (2.0 * v)).exp();
        z += p;
        m1 += p * t;
        m2 += p * t * t;
    }
    let mean = m1 / z;
    (mean, m2 / z - mean * mean)
}

fn check_tilted(kind: MethodKind) {
    let fitted = fit(kind);
    let s = steps(&fitted);
    // a first update (from the prior) and one in a later sweep or later example
    for step in [&s.steps[0], &s.steps[s.steps.len() - 2]] {
        let site = step.site.as_ref().expect("a site update");
        let (mean, var) = tilted_by_trapezoid(site);
        assert!(
            (site.tilted[0] - mean).abs() <= 1e-7 * mean.abs().max(1.0),
            "{}: tilted mean {} against {mean}",
            kind.name(),
            site.tilted[0]
        );
        assert!(
            (site.tilted[1] - var).abs() <= 1e-7 * var,
            "{}: tilted variance {} against {var}",
            kind.name(),
            site.tilted[1]
        );
        // undamped, the new approximation's marginal of t is the tilted distribution's moments
        let d = &site.direction;
        let t_mean: f64 = d.iter().zip(&step.mean).map(|(a, b)| a * b).sum();
        let t_var: f64 = (0..2)
            .map(|i| (0..2).map(|j| d[i] * step.cov[i][j] * d[j]).sum::<f64>())
            .sum();
        if step.index < s.steps.last().unwrap().index {
            assert!((t_mean - mean).abs() <= 1e-6 * mean.abs().max(1.0));
            assert!((t_var - var).abs() <= 1e-6 * var);
        }
    }
}

#[test]
fn eps_recorded_tilted_moments_are_those_of_cavity_times_likelihood() {
    check_tilted(MethodKind::EpLogistic);
    let s = steps(&fit(MethodKind::EpLogistic)).clone();
    assert_eq!(s.kind, StepKind::EpSite);
    assert_eq!(s.steps.len(), s.total.min(crate::record::STEPS_MAX));
    assert!(s.total > 12, "EP sweeps more than once: {}", s.total);
}

#[test]
fn adfs_last_example_is_the_adf_run_and_its_tilted_moments_are_the_probits() {
    check_tilted(MethodKind::AdfProbit);
    let fitted = fit(MethodKind::AdfProbit);
    let s = steps(&fitted);
    assert_eq!(s.kind, StepKind::AdfExample);
    assert_eq!((s.total, s.steps.len()), (12, 12), "one step per example");
    let mut rows: Vec<usize> = s
        .steps
        .iter()
        .map(|t| t.site.as_ref().unwrap().row)
        .collect();
    rows.sort_unstable();
    assert_eq!(rows, (0..12).collect::<Vec<_>>(), "every example once");
    let last = s.steps.last().unwrap();
    let p = fitted.posterior.as_ref().unwrap();
    let cov = p.cov.as_ref().unwrap();
    for i in 0..2 {
        assert!((last.mean[i] - p.mean[i]).abs() <= 1e-12 * p.mean[i].abs().max(1.0));
        for j in 0..2 {
            assert!((last.cov[i][j] - cov[(i, j)]).abs() <= 1e-12 * cov[(i, i)]);
        }
    }
    // the first example starts from the prior N(0, I / lambda)
    let first = s.steps[0].site.as_ref().unwrap();
    assert_eq!(first.before_mean, vec![0.0, 0.0]);
    assert!((first.before_cov[0][0] - 1.0 / PRECISION).abs() < 1e-15);
}
