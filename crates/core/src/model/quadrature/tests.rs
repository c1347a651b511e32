//! The grid against closed forms (a skewed density whose moments are digamma values), the
//! quadrature kinds against an independent brute-force Simpson grid in weight space, and
//! against the Pólya-Gamma sampler within Monte-Carlo error.

use faer::Mat;

use super::*;
use crate::catalog::MethodKind;
use crate::model::options::{Options, SamplerOptions};
use crate::model::spec::{MethodSpec, Optimizer};
use crate::numeric::rng::stream;

const EULER_GAMMA: f64 = 0.577_215_664_901_532_9;

fn method(kind: MethodKind) -> MethodSpec {
    MethodSpec {
        id: kind.name().to_string(),
        kind,
        optimizer: Optimizer::Newton,
        max_iter: 100,
        tolerance: 1e-10,
        options: match kind.family() {
            crate::catalog::Family::Gibbs => Options::Gibbs(SamplerOptions {
                chains: 4,
                draws: 6000,
                burn_in: 500,
                ..SamplerOptions::default()
            }),
            family => Options::defaults(family),
        },
    }
}

fn input<'a>(
    m: &'a MethodSpec,
    x: &'a Mat<f64>,
    y: &'a [f64],
    columns: &'a [String],
) -> FitInput<'a> {
    FitInput {
        file: std::path::Path::new("t.toml"),
        method: m,
        precision: 0.5,
        seed: 7,
        x: x.as_ref(),
        y,
        classes: 2,
        intercept: true,
        columns,
        cancel: None,
        record_steps: false,
    }
}

/// 14 rows, an intercept and `d - 1` features, nearly separable so that the posterior is skewed.
fn data(d: usize) -> (Mat<f64>, Vec<f64>, Vec<String>) {
    let n = 14;
    let x = Mat::<f64>::from_fn(n, d, |i, j| match j {
        0 => 1.0,
        1 => (i as f64 - 6.5) / 3.0,
        _ => ((i * 5) % 7) as f64 / 3.0 - 1.0,
    });
    let y: Vec<f64> = (0..n)
        .map(|i| f64::from(u8::from(i >= 7 || i == 3)))
        .collect();
    let columns = (0..d).map(|j| format!("c{j}")).collect();
    (x, y, columns)
}

#[test]
fn a_skewed_density_has_its_digamma_moments() {
    // v_k has density exp(k v - e^v) / Gamma(k): the log of a Gamma(k, 1) variable, skewed to
    // the left, with mean psi(k) and variance psi'(k). Independent coordinates (k = 1, 3, and a
    // standard normal) are mixed by A, w = A v: ln Z = ln Gamma(1) + ln Gamma(3) + ln sqrt(2 pi)
    // + ln |det A|, mean A mu, covariance A Sigma A^T.
    let mu = [-EULER_GAMMA, 1.5 - EULER_GAMMA, 0.0];
    let pi2 = std::f64::consts::PI.powi(2) / 6.0;
    let var = [pi2, pi2 - 1.25, 1.0];
    let a = [[1.0, 0.0, 0.0], [0.6, 0.8, 0.0], [-0.3, 0.5, 1.5]];
    let det: f64 = a[0][0] * a[1][1] * a[2][2];
    let log_density = |w: &[f64]| {
        // v = A^{-1} w by forward substitution (A is lower triangular).
        let v0 = w[0] / a[0][0];
        let v1 = (w[1] - a[1][0] * v0) / a[1][1];
        let v2 = (w[2] - a[2][0] * v0 - a[2][1] * v1) / a[2][2];
        (v0 - v0.exp()) + (3.0 * v1 - v1.exp()) - 0.5 * v2 * v2
    };
    // Mode at v = (0, ln 3, 0), curvature diag(1, 3, 1) in v: a scale that is only roughly right.
    let mode_v = [0.0, 3f64.ln(), 0.0];
    let mode: Vec<f64> = (0..3)
        .map(|i| (0..3).map(|j| a[i][j] * mode_v[j]).sum())
        .collect();
    let scale = Mat::<f64>::from_fn(3, 3, |i, j| a[i][j] * [1.0, 3f64.sqrt().recip(), 1.0][j]);
    let r = integrate(&GridProblem {
        mode: &mode,
        scale: scale.as_ref(),
        log_density: &log_density,
        // Two grids agreeing to 1e-6 leave the finer one far closer than that: the rule
        // converges geometrically (the assertions below ask for 1e-9).
        tolerance: 1e-6,
        max_points: 20_000_000,
    });
    assert!(r.converged, "change {}", r.last_change);
    let log_z = 2f64.ln() + 0.5 * std::f64::consts::TAU.ln() + det.ln();
    assert!((r.log_z - log_z).abs() < 1e-9, "{} vs {log_z}", r.log_z);
    for i in 0..3 {
        let m: f64 = (0..3).map(|j| a[i][j] * mu[j]).sum();
        assert!(
            (r.mean[i] - m).abs() < 1e-9,
            "mean {i}: {} vs {m}",
            r.mean[i]
        );
        for k in 0..3 {
            let c: f64 = (0..3).map(|j| a[i][j] * var[j] * a[k][j]).sum();
            assert!(
                (r.cov[(i, k)] - c).abs() < 1e-9,
                "cov {i}{k}: {} vs {c}",
                r.cov[(i, k)]
            );
        }
    }
    let mass: f64 = r.weights.iter().sum();
    assert!((mass - 1.0).abs() < 1e-12);
}

/// ln Z, the mean, the covariance and the exact predictive at `probe` by composite Simpson on
/// a fixed box of +-`half` around the Laplace mode in weight space (no whitening), `n`
/// intervals per axis: an independent computation of what the kind integrates.
fn brute_force(fitted: &Fitted, x: &Mat<f64>, y: &[f64], probe: &[f64], n: usize) -> Brute {
    let post = fitted.posterior.as_ref().unwrap();
    let d = post.mean.len();
    let half: Vec<f64> = post.cov_diag.iter().map(|v| 14.0 * v.sqrt()).collect();
    let simpson = |k: usize| match k {
        0 => 1.0,
        k if k == n => 1.0,
        k if k % 2 == 1 => 4.0,
        _ => 2.0,
    };
    let mut b = Brute::new(d);
    let total = (n + 1).pow(d as u32);
    let mut w = vec![0.0; d];
    for index in 0..total {
        let (mut rest, mut t) = (index, 1.0);
        for j in (0..d).rev() {
            let k = rest % (n + 1);
            rest /= n + 1;
            let h = 2.0 * half[j] / n as f64;
            w[j] = post.mean[j] - half[j] + h * k as f64;
            t *= simpson(k) * h / 3.0;
        }
        let e = neg_log_joint::<LogitLink>(x.as_ref(), y, &w, 0.5);
        b.add(t * (-e).exp(), &w, probe);
    }
    b.finish()
}

struct Brute {
    z: f64,
    first: Vec<f64>,
    second: Vec<f64>,
    predictive: f64,
}

impl Brute {
    fn new(d: usize) -> Self {
        Brute {
            z: 0.0,
            first: vec![0.0; d],
            second: vec![0.0; d * d],
            predictive: 0.0,
        }
    }
    fn add(&mut self, t: f64, w: &[f64], probe: &[f64]) {
        let d = w.len();
        self.z += t;
        self.predictive += t * sigmoid(w.iter().zip(probe).map(|(a, b)| a * b).sum());
        for i in 0..d {
            self.first[i] += t * w[i];
            for j in 0..d {
                self.second[i * d + j] += t * w[i] * w[j];
            }
        }
    }
    fn finish(mut self) -> Self {
        let d = self.first.len();
        for v in &mut self.first {
            *v /= self.z;
        }
        for i in 0..d {
            for j in 0..d {
                self.second[i * d + j] =
                    self.second[i * d + j] / self.z - self.first[i] * self.first[j];
            }
        }
        self.predictive /= self.z;
        self
    }
}

#[test]
fn two_and_three_weights_match_a_brute_force_simpson_grid() {
    for (d, n) in [(2, 1200), (3, 160)] {
        let (x, y, columns) = data(d);
        let m = method(MethodKind::LogisticQuadrature);
        let fitted = fit_method(&input(&m, &x, &y, &columns), &mut |_: &str, _: &_| {}).unwrap();
        assert_eq!(fitted.outcome.termination, Termination::Converged);
        let probe: Vec<f64> = (0..d).map(|j| [1.0, 2.5, -1.0][j]).collect();
        let b = brute_force(&fitted, &x, &y, &probe, n);
        let post = fitted.posterior.as_ref().unwrap();
        let log_z =
            post.log_evidence.unwrap() - 0.5 * d as f64 * (0.5 / std::f64::consts::TAU).ln();
        assert!(
            (log_z - b.z.ln()).abs() < 1e-7,
            "d {d}: ln Z {log_z} vs {}",
            b.z.ln()
        );
        let r = &fitted.weights;
        for i in 0..d {
            assert!(
                (r[i] - b.first[i]).abs() < 1e-7,
                "d {d} mean {i}: {} vs {}",
                r[i],
                b.first[i]
            );
            let v = post.cov_diag[i];
            assert!(
                (v - b.second[i * d + i]).abs() < 1e-7,
                "d {d} var {i}: {v} vs {}",
                b.second[i * d + i]
            );
        }
        let probe_x = Mat::<f64>::from_fn(1, d, |_, j| probe[j]);
        let settings = PredictiveSettings {
            mc_samples: 1,
            quadrature_nodes: 1,
            first_row: 0,
        };
        let Probabilities::Binary(p) = fitted.predictor.predict(
            PredictiveKind::Exact,
            probe_x.as_ref(),
            settings,
            &mut stream(1, "t"),
        ) else {
            panic!("binary")
        };
        assert!(
            (p[0] - b.predictive).abs() < 1e-7,
            "d {d}: predictive {} vs {}",
            p[0],
            b.predictive
        );
    }
}

#[test]
fn the_sampler_agrees_within_its_monte_carlo_error() {
    let (x, y, columns) = data(2);
    let q = method(MethodKind::LogisticQuadrature);
    let g = method(MethodKind::GibbsLogistic);
    let quad = fit_method(&input(&q, &x, &y, &columns), &mut |_: &str, _: &_| {}).unwrap();
    let gibbs =
        crate::model::method::fit_matrix(&input(&g, &x, &y, &columns), &mut |_: &str, _: &_| {})
            .unwrap();
    let (_, ess) = gibbs.predictor.diagnostics().unwrap();
    let (qp, gp) = (quad.posterior.unwrap(), gibbs.posterior.unwrap());
    for i in 0..2 {
        let sd = qp.cov_diag[i].sqrt();
        let mcse = sd / ess.sqrt();
        assert!(
            (qp.mean[i] - gp.mean[i]).abs() < 5.0 * mcse,
            "mean {i}: grid {} vs Gibbs {} (MCSE {mcse})",
            qp.mean[i],
            gp.mean[i]
        );
        // The sd of a variance estimate from ESS draws is about var sqrt(2 / ESS).
        let tol = 5.0 * qp.cov_diag[i] * (2.0 / ess).sqrt();
        assert!((qp.cov_diag[i] - gp.cov_diag[i]).abs() < tol, "var {i}");
    }
}

#[test]
fn probit_matches_the_closed_form_of_one_weight_and_no_data() {
    // With no rows the posterior is the prior N(0, 1/lambda): ln p(y | X) = 0, mean 0, var 2.
    let x = Mat::<f64>::zeros(0, 1);
    let y: Vec<f64> = Vec::new();
    let columns = vec!["c0".to_string()];
    let m = method(MethodKind::ProbitQuadrature);
    let fitted = fit_method(&input(&m, &x, &y, &columns), &mut |_: &str, _: &_| {}).unwrap();
    let post = fitted.posterior.unwrap();
    assert!(post.log_evidence.unwrap().abs() < 1e-10);
    assert!(post.mean[0].abs() < 1e-10);
    assert!((post.cov_diag[0] - 2.0).abs() < 1e-9);
}

#[test]
fn too_many_weights_and_an_improper_prior_are_refused_with_the_fix() {
    let (x, y, columns) = data(4);
    let m = method(MethodKind::LogisticQuadrature);
    let e = fit_method(&input(&m, &x, &y, &columns), &mut |_: &str, _: &_| {})
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("at most 3 weights") && e.contains("[data] features"),
        "{e}"
    );
    let (x, y, columns) = data(2);
    let mut improper = input(&m, &x, &y, &columns);
    improper.precision = 0.0;
    let e = fit_method(&improper, &mut |_: &str, _: &_| {})
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("precision > 0"), "{e}");
}

#[test]
fn the_pair_densities_are_the_posteriors_2d_marginals() {
    // each pair's grid holds (nearly) all the mass, and its first and second moments are the
    // posterior's mean and covariance computed by the 3-D grid (an independent sum)
    let (x, y, columns) = data(3);
    let m = method(MethodKind::LogisticQuadrature);
    let fitted = fit_method(&input(&m, &x, &y, &columns), &mut |_: &str, _: &_| {}).unwrap();
    let post = fitted.posterior.as_ref().unwrap();
    let cov = post.cov.as_ref().unwrap();
    let pairs = fitted.predictor.pair_densities();
    assert_eq!(pairs.len(), 3);
    for p in &pairs {
        assert!((p.mass - 1.0).abs() < 1e-3, "{:?}: mass {}", p.pair, p.mass);
        let (dx, dy) = p.spacing();
        let n = p.points;
        let end = |k: usize| if k == 0 || k + 1 == n { 0.5 } else { 1.0 };
        let mut mom = [0.0; 5];
        for c in 0..n * n {
            let (u, v) = p.at(c % n, c / n);
            let t = end(c % n) * end(c / n) * p.density[c] * dx * dy;
            for (k, f) in [u, v, u * u, v * v, u * v].iter().enumerate() {
                mom[k] += t * f;
            }
        }
        let [i, j] = p.pair;
        let (si, sj) = (cov[(i, i)].sqrt(), cov[(j, j)].sqrt());
        assert!(
            (mom[0] - post.mean[i]).abs() < 0.01 * si,
            "{:?} mean",
            p.pair
        );
        assert!(
            (mom[1] - post.mean[j]).abs() < 0.01 * sj,
            "{:?} mean",
            p.pair
        );
        let cij = mom[4] - mom[0] * mom[1];
        assert!(
            (cij - cov[(i, j)]).abs() < 0.02 * si * sj,
            "{:?}: cov {cij} vs {}",
            p.pair,
            cov[(i, j)]
        );
        assert!(((mom[2] - mom[0] * mom[0]) / cov[(i, i)] - 1.0).abs() < 0.02);
    }
}
