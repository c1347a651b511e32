//! HMC against quadrature (exact on two weights) and Pólya–Gamma Gibbs, the gradient against
//! finite differences, the leapfrog integrator's reversibility and order, the step-size
//! adaptation's formula, and the draws' independence of the thread count.

use faer::{Mat, MatRef};
use rand::RngExt;
use rand_distr::{Distribution, StandardNormal};

use super::*;
use crate::catalog::MethodKind;
use crate::model::diagnostics::PerWeight;
use crate::model::options::{Options, SamplerOptions};
use crate::model::spec::{MethodSpec, Optimizer};
use crate::numeric::rng::stream;

/// `kind` as config/ builds it, with the sampler schedule `(chains, draws, burn_in)`.
fn spec(kind: MethodKind, (chains, draws, burn_in): (usize, usize, usize)) -> MethodSpec {
    MethodSpec {
        id: kind.name().to_string(),
        kind,
        optimizer: Optimizer::Newton,
        max_iter: 100,
        tolerance: 1e-8,
        options: {
            let schedule = |o: SamplerOptions| SamplerOptions {
                chains,
                draws,
                burn_in,
                thin: 1,
                ..o
            };
            match Options::defaults(kind.family()) {
                Options::Gibbs(o) => Options::Gibbs(schedule(o)),
                Options::Hmc(o) => Options::Hmc(schedule(o)),
                o => o,
            }
        },
    }
}

fn fit(
    method: &MethodSpec,
    (x, y): (MatRef<'_, f64>, &[f64]),
    precision: f64,
    seed: u64,
) -> Fitted {
    let columns: Vec<String> = (0..x.ncols()).map(|j| format!("x{j}")).collect();
    let input = FitInput {
        file: std::path::Path::new("t.toml"),
        method,
        precision,
        seed,
        x,
        y,
        classes: 2,
        intercept: true,
        columns: &columns,
        cancel: None,
        record_steps: false,
    };
    crate::model::method::fit_matrix(&input, &mut |_: &str, _: &Iterate| {}).unwrap()
}

/// `n` rows of an intercept and `d - 1` features that share a common factor (correlation
/// `rho` between features), labels from the logistic model with weights 0.4, -0.8, 0.6, ...
fn correlated(n: usize, d: usize, rho: f64, seed: u64) -> (Mat<f64>, Vec<f64>) {
    let mut rng = stream(seed, "hmc-tests/data");
    let mut x = Mat::<f64>::zeros(n, d);
    for i in 0..n {
        let common: f64 = StandardNormal.sample(&mut rng);
        x[(i, 0)] = 1.0;
        for j in 1..d {
            let own: f64 = StandardNormal.sample(&mut rng);
            x[(i, j)] = rho.sqrt() * common + (1.0 - rho).sqrt() * own;
        }
    }
    let y = (0..n)
        .map(|i| {
            let a: f64 = (0..d).map(|j| x[(i, j)] * [0.4, -0.8, 0.6][j % 3]).sum();
            f64::from(u8::from(
                rng.random::<f64>() < crate::numeric::special::sigmoid(a),
            ))
        })
        .collect();
    (x, y)
}

/// Per weight, the sampler's mean and sd with their Monte-Carlo standard errors: se(mean) =
/// sd / sqrt(bulk ESS); se(sd) = se(var) / (2 sd) by the delta method, with se(var) the sd of
/// v = (w - mean)^2 over the bulk ESS of v (the draws of a long trajectory are anticorrelated,
/// so the mean's ESS can exceed the draws while the variance's does not).
fn moments(f: &Fitted, chains: usize) -> Vec<(f64, f64, f64, f64)> {
    let p = f.posterior.as_ref().unwrap();
    let per: PerWeight = f.predictor.per_weight().unwrap();
    let draws = f.predictor.draws().unwrap();
    let s = draws.ncols();
    (0..p.mean.len())
        .map(|j| {
            let sd = p.cov_diag[j].sqrt();
            let v: Vec<f64> = (0..s)
                .map(|k| (draws[(j, k)] - p.mean[j]).powi(2))
                .collect();
            let split: Vec<Vec<f64>> = v.chunks(s / chains).map(<[f64]>::to_vec).collect();
            let v_mean = v.iter().sum::<f64>() / s as f64;
            let v_sd = (v.iter().map(|x| (x - v_mean).powi(2)).sum::<f64>() / s as f64).sqrt();
            let se_var = v_sd / crate::model::diagnostics::bulk_ess(&split).sqrt();
            (
                p.mean[j],
                sd / per.ess_bulk[j].sqrt(),
                sd,
                se_var / (2.0 * sd),
            )
        })
        .collect()
}

#[test]
fn the_gradient_is_the_energys_derivative() {
    let (x, y) = correlated(60, 4, 0.5, 3);
    for probit in [false, true] {
        let target = Target {
            x: &x,
            y: &y,
            probit,
            precision: 0.7,
        };
        let w = [0.3, -1.1, 0.8, 2.0];
        let (_, g) = target.energy(&w);
        for j in 0..4 {
            let h = 1e-5;
            let (mut up, mut down) = (w, w);
            up[j] += h;
            down[j] -= h;
            let fd = (target.energy(&up).0 - target.energy(&down).0) / (2.0 * h);
            assert!(
                (fd - g[j]).abs() < 1e-6 * g[j].abs().max(1.0),
                "probit {probit}, w{j}: {fd} vs {}",
                g[j]
            );
        }
    }
}

/// A sampler on the correlated problem with the Laplace factor of the logistic fit.
fn sampler_on<'a>(x: &'a Mat<f64>, y: &'a [f64], method: &'a MethodSpec) -> Sampler<'a> {
    let columns: Vec<String> = (0..x.ncols()).map(|j| format!("x{j}")).collect();
    let columns: &'static [String] = Box::leak(columns.into_boxed_slice());
    let input = FitInput {
        file: std::path::Path::new("t.toml"),
        method,
        precision: 1.0,
        seed: 1,
        x: x.as_ref(),
        y,
        classes: 2,
        intercept: true,
        columns,
        cancel: None,
        record_steps: false,
    };
    let objective = LogisticObjective::new(x.as_ref(), y, 1.0);
    let (mode, l) = laplace(&objective, &input).unwrap().unwrap();
    Sampler {
        target: Target {
            x,
            y,
            probit: false,
            precision: 1.0,
        },
        mode,
        l,
        schedule: method.schedule().unwrap(),
        seed: 1,
        id: "t",
        cancel: None,
    }
}

#[test]
fn leapfrog_is_reversible_and_of_second_order() {
    let (x, y) = correlated(80, 4, 0.8, 5);
    let method = spec(MethodKind::HmcLogistic, (2, 10, 10));
    let s = sampler_on(&x, &y, &method);
    let w0 = [0.2, -0.5, 0.9, 0.1];
    let p0 = [0.7, -1.2, 0.4, 1.5];
    let (e0, _) = s.target.energy(&w0);
    let h = |e: f64, p: &[f64]| e + 0.5 * p.iter().map(|v| v * v).sum::<f64>();
    // Reversible: forward, momentum flipped, back again lands on the start.
    let mut p = p0;
    let (w1, _) = chain::leapfrog_for_tests(&s, &w0, &mut p, 0.3, 7);
    p.iter_mut().for_each(|v| *v = -*v);
    let (back, _) = chain::leapfrog_for_tests(&s, &w1, &mut p, 0.3, 7);
    for j in 0..4 {
        assert!(
            (back[j] - w0[j]).abs() < 1e-10,
            "w{j}: {} vs {}",
            back[j],
            w0[j]
        );
        assert!((-p[j] - p0[j]).abs() < 1e-10, "p{j}");
    }
    // Second order: over the same time the energy error falls about fourfold per halving.
    let error = |step: f64| {
        let mut p = p0;
        let n = (1.2 / step).round() as usize;
        let (_, e1) = chain::leapfrog_for_tests(&s, &w0, &mut p, step, n);
        (h(e1, &p) - h(e0, &p0)).abs()
    };
    let (e1, e2, e3) = (error(0.04), error(0.02), error(0.01));
    for ratio in [e1 / e2, e2 / e3] {
        assert!((3.0..5.0).contains(&ratio), "{e1} {e2} {e3}");
    }
}

#[test]
fn dual_averaging_follows_its_formula() {
    // After one update with alpha at the target, h_bar = 0 and the step is mu's, 10 eps_0; the
    // averaged step is then that step (eta = 1 at t = 1).
    let mut a = adapt::DualAveraging::new(0.3);
    assert_eq!(a.frozen(), 0.3);
    a.update(HmcDiagnostics::TARGET);
    assert!((a.step() - 3.0).abs() < 1e-12 && (a.frozen() - 3.0).abs() < 1e-12);
    // Rejections shrink the step, acceptances grow it.
    let (mut low, mut high) = (
        adapt::DualAveraging::new(0.3),
        adapt::DualAveraging::new(0.3),
    );
    for _ in 0..20 {
        low.update(0.0);
        high.update(1.0);
    }
    assert!(
        low.step() < 0.3 && high.step() > 3.0,
        "{} {}",
        low.step(),
        high.step()
    );
}

#[test]
fn two_weight_posteriors_match_quadrature() {
    // The quadrature kinds integrate the exact posterior of two weights on a refined grid:
    // the HMC means and sds must agree within 4 Monte-Carlo standard errors.
    let x = Mat::<f64>::from_fn(30, 2, |i, j| {
        if j == 0 {
            1.0
        } else {
            ((i as f64) * 0.61).sin() * 1.7
        }
    });
    let y: Vec<f64> = (0..30)
        .map(|i| f64::from(u8::from((i * 7 + 3) % 5 < 2 || i % 6 == 0)))
        .collect();
    for (hmc, exact) in [
        (MethodKind::HmcLogistic, MethodKind::LogisticQuadrature),
        (MethodKind::HmcProbit, MethodKind::ProbitQuadrature),
    ] {
        let sampled = fit(&spec(hmc, (4, 2000, 300)), (x.as_ref(), &y), 1.0, 5);
        let (rhat, _) = sampled.predictor.diagnostics().unwrap();
        assert!(rhat < 1.01, "{hmc:?}: R-hat {rhat}");
        let grid = fit(&spec(exact, (0, 0, 0)), (x.as_ref(), &y), 1.0, 5);
        let truth = grid.posterior.unwrap();
        for (j, (mean, se, sd, sd_se)) in moments(&sampled, 4).into_iter().enumerate() {
            let (m, s) = (truth.mean[j], truth.cov_diag[j].sqrt());
            assert!(
                (mean - m).abs() < 4.0 * se,
                "{hmc:?} w{j}: mean {mean} vs {m} (se {se})"
            );
            assert!(
                (sd - s).abs() < 4.0 * sd_se,
                "{hmc:?} w{j}: sd {sd} vs {s} (se {sd_se})"
            );
        }
        let d = sampled.predictor.hmc().unwrap();
        assert!(d.acceptance > 0.6 && d.divergent == 0, "{d:?}");
    }
}

#[test]
fn agrees_with_polya_gamma_gibbs_and_mixes_where_gibbs_creeps() {
    // Six weights on features with correlation 0.9: the two exact samplers' means agree within
    // 4 combined standard errors, and HMC's worst bulk ESS per draw is high.
    let (x, y) = correlated(300, 6, 0.9, 11);
    let draws = 1000;
    let hmc = fit(
        &spec(MethodKind::HmcLogistic, (4, draws, 300)),
        (x.as_ref(), &y),
        1.0,
        9,
    );
    let gibbs = fit(
        &spec(MethodKind::GibbsLogistic, (4, 4000, 500)),
        (x.as_ref(), &y),
        1.0,
        9,
    );
    for (j, (a, b)) in moments(&hmc, 4)
        .into_iter()
        .zip(moments(&gibbs, 4))
        .enumerate()
    {
        let se = (a.1 * a.1 + b.1 * b.1).sqrt();
        assert!(
            (a.0 - b.0).abs() < 4.0 * se,
            "w{j}: {} vs {} (se {se})",
            a.0,
            b.0
        );
        let sd_se = (a.3 * a.3 + b.3 * b.3).sqrt();
        assert!(
            (a.2 - b.2).abs() < 4.0 * sd_se,
            "sd w{j}: {} vs {}",
            a.2,
            b.2
        );
    }
    let (rhat, ess) = hmc.predictor.diagnostics().unwrap();
    assert!(rhat < 1.01, "R-hat {rhat}");
    assert!(
        ess / (4 * draws) as f64 > 0.5,
        "bulk ESS {ess} of {}",
        4 * draws
    );
    let d = hmc.predictor.hmc().unwrap();
    assert!(
        (0.65..0.95).contains(&d.acceptance) && d.divergent == 0,
        "{d:?}"
    );
}

#[test]
fn the_draws_depend_on_the_seed_and_not_on_the_threads() {
    let (x, y) = correlated(100, 3, 0.5, 2);
    let method = spec(MethodKind::HmcLogistic, (3, 50, 20));
    let draws = |threads: usize, seed: u64| {
        crate::threads::on_threads(threads, || {
            fit(&method, (x.as_ref(), &y), 1.0, seed)
                .predictor
                .draws()
                .unwrap()
        })
    };
    let one = draws(1, 4);
    assert!(one == draws(2, 4), "one thread and two differ");
    assert!(one == draws(1, 4), "a rerun differs");
    assert!(one != draws(1, 5), "another seed gives the same draws");
}
