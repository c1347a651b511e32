//! Logistic regression against its definitions, finite differences, separable data and
//! one-dimensional integration of the evidence.

use faer::Mat;

use super::*;

fn toy() -> (Mat<f64>, Vec<f64>) {
    // Overlapping classes: not separable, so the MLE exists.
    let x = Mat::<f64>::from_fn(12, 3, |i, j| match j {
        0 => 1.0,
        1 => (i as f64 * 0.7).sin() * 2.0,
        _ => (i as f64 * 1.3).cos(),
    });
    let y = vec![0., 1., 0., 1., 1., 0., 0., 1., 1., 0., 1., 0.];
    (x, y)
}

#[test]
fn the_laplace_fit_is_the_same_on_one_thread_and_on_many() {
    // 30,000 rows: several chunks of the fused pass.
    let n = 30_000;
    let x = Mat::<f64>::from_fn(n, 4, |i, j| match j {
        0 => 1.0,
        _ => ((i * (j + 3)) as f64 * 0.013).sin() * 2.0,
    });
    let y: Vec<f64> = (0..n)
        .map(|i| f64::from(u8::from((i as f64 * 0.37).sin() + x[(i, 1)] * 0.8 > 0.2)))
        .collect();
    let settings = FitSettings {
        precision: 0.5,
        optimizer: Optimizer::Newton,
        max_iter: 50,
        tolerance: 1e-10,
        laplace: true,
        curvature: Curvature::Chord,
        warm_start: false,
    };
    let fit_on = |threads: usize| {
        crate::threads::on_threads(threads, || {
            let f = fit(
                x.as_ref(),
                &y,
                &settings,
                "t",
                None,
                &mut |_: &str, _: &crate::optim::Iterate| {},
            )
            .unwrap();
            let p = f.posterior.unwrap();
            (f.weights, f.objective, p.cov_diag(), p.log_evidence)
        })
    };
    let one = fit_on(1);
    assert_eq!(fit_on(2), one);
    assert_eq!(fit_on(7), one);
}

#[test]
fn row_terms_agree_with_the_definitions() {
    use crate::numeric::special::sigmoid;
    for a in [-40.0, -3.0, -0.1, 0.0, 0.7, 5.0, 35.0] {
        for y in [0.0, 1.0] {
            let (l, g, h) = row_terms(a, y);
            let loss = y * softplus(-a) + (1.0 - y) * softplus(a);
            assert!((l - loss).abs() <= 1e-15 * loss.max(1.0), "loss at {a}");
            assert!((g - (sigmoid(a) - y)).abs() < 1e-16, "gradient at {a}");
            let s = sigmoid(a) * sigmoid(-a);
            assert!((h - s).abs() <= 1e-15 * s, "curvature at {a}");
        }
    }
}

#[test]
fn a_well_classified_row_keeps_its_tiny_loss() {
    // -ln sigma(|a|) = ln(1 + e^{-|a|}) = e^{-|a|} (1 - e^{-|a|}/2 + ...): to the last digits,
    // not the rounding of |a| - |a|.
    for a in [20.0_f64, 35.0, 300.0] {
        let e = (-a).exp();
        let want = e * (1.0 - e / 2.0 + e * e / 3.0);
        for (a, y) in [(a, 1.0), (-a, 0.0)] {
            let (l, _, _) = row_terms(a, y);
            assert!(
                (l - want).abs() <= 2e-16 * want,
                "loss at a = {a}, y = {y}: {l} against {want}"
            );
        }
    }
}

#[test]
fn gradient_and_hessian_match_central_differences() {
    let (x, y) = toy();
    let obj = LogisticObjective::new(x.as_ref(), &y, 0.7);
    let w = [0.3, -0.8, 1.1];
    let g = obj.gradient(&w);
    let h = obj.hessian(&w);
    let eps = 1e-5;
    for j in 0..3 {
        let mut wp = w;
        let mut wm = w;
        wp[j] += eps;
        wm[j] -= eps;
        let fd = (obj.value(&wp) - obj.value(&wm)) / (2.0 * eps);
        assert!((fd - g[j]).abs() < 1e-7, "g[{j}]: {fd} vs {}", g[j]);
        let (gp, gm) = (obj.gradient(&wp), obj.gradient(&wm));
        for i in 0..3 {
            let fd = (gp[i] - gm[i]) / (2.0 * eps);
            assert!((fd - h[(i, j)]).abs() < 1e-7, "H[{i},{j}]");
        }
    }
}

#[test]
fn newton_reaches_a_stationary_point_monotonically() {
    let (x, y) = toy();
    let settings = FitSettings {
        precision: 0.5,
        optimizer: Optimizer::Newton,
        max_iter: 50,
        tolerance: 1e-10,
        laplace: true,
        curvature: Curvature::Chord,
        warm_start: false,
    };
    let mut objectives = Vec::new();
    let mut obs = |_: &str, it: &optim::Iterate| objectives.push(it.objective);
    let f = fit(x.as_ref(), &y, &settings, "t", None, &mut obs).unwrap();
    assert!(f.outcome.termination.converged());
    // Monotone up to E's rounding (optim/newton: 4 ulp x sqrt(N)); chord Newton's polishing
    // steps near the mode change E by less than that.
    let noise = |e: f64| 4.0 * f64::EPSILON * e.abs() * (y.len() as f64).sqrt();
    assert!(objectives.windows(2).all(|w| w[1] <= w[0] + noise(w[0])));
    let g = LogisticObjective::new(x.as_ref(), &y, 0.5).gradient(&f.weights);
    assert!(g.iter().all(|v| v.abs() < 1e-10));
    // H solve identity: H (H^{-1} g) = g for an arbitrary g
    let post = f.posterior.unwrap();
    let h = LogisticObjective::new(x.as_ref(), &y, 0.5).hessian(&f.weights);
    let v = [1.0, -2.0, 0.5];
    let hv = mat_vec(h.as_ref(), &post.precision.solve(&v));
    assert!(hv.iter().zip(v).all(|(a, b)| (a - b).abs() < 1e-10));
}

#[test]
fn gradient_descent_agrees_with_newton() {
    let (x, y) = toy();
    let mut s = FitSettings {
        precision: 0.5,
        optimizer: Optimizer::Newton,
        max_iter: 50,
        tolerance: 1e-10,
        laplace: false,
        curvature: Curvature::Chord,
        warm_start: false,
    };
    let newton = fit(
        x.as_ref(),
        &y,
        &s,
        "n",
        None,
        &mut |_: &str, _: &optim::Iterate| {},
    )
    .unwrap();
    s.optimizer = Optimizer::Gradient { learning_rate: 2.0 };
    s.max_iter = 100_000;
    s.tolerance = 1e-7;
    let gd = fit(
        x.as_ref(),
        &y,
        &s,
        "g",
        None,
        &mut |_: &str, _: &optim::Iterate| {},
    )
    .unwrap();
    assert!(gd.outcome.termination.converged());
    for (a, b) in gd.weights.iter().zip(&newton.weights) {
        assert!((a - b).abs() < 1e-6);
    }
}

#[test]
fn separable_data_under_mle_is_detected() {
    let x = Mat::<f64>::from_fn(6, 2, |i, j| if j == 0 { 1.0 } else { i as f64 - 2.5 });
    let y = vec![0., 0., 0., 1., 1., 1.];
    let settings = FitSettings {
        precision: 0.0,
        optimizer: Optimizer::Newton,
        max_iter: 100,
        tolerance: 1e-8,
        laplace: false,
        curvature: Curvature::Chord,
        warm_start: false,
    };
    let f = fit(
        x.as_ref(),
        &y,
        &settings,
        "mle",
        None,
        &mut |_: &str, _: &optim::Iterate| {},
    )
    .unwrap();
    assert_eq!(f.outcome.termination, optim::Termination::Separable);
    assert!(f.outcome.iterations < 100);
}

#[test]
fn laplace_evidence_matches_numerical_integration_in_one_dimension() {
    // One weight: p(y|X) = int prod_n p(y_n|x_n w) N(w|0, 1/lambda) dw by a fine midpoint
    // rule, against the Laplace formula. They agree to the Laplace error, which is small
    // for this nearly Gaussian posterior; the test pins the formula's constants.
    let x = Mat::<f64>::from_fn(40, 1, |i, _| ((i as f64) * 0.37).sin() * 1.5);
    let y: Vec<f64> = (0..40)
        .map(|i| if (i * 7) % 5 < 3 { 1.0 } else { 0.0 })
        .collect();
    let lambda = 2.0;
    let settings = FitSettings {
        precision: lambda,
        optimizer: Optimizer::Newton,
        max_iter: 50,
        tolerance: 1e-12,
        laplace: true,
        curvature: Curvature::Chord,
        warm_start: false,
    };
    let f = fit(
        x.as_ref(),
        &y,
        &settings,
        "e",
        None,
        &mut |_: &str, _: &optim::Iterate| {},
    )
    .unwrap();
    let obj = LogisticObjective::new(x.as_ref(), &y, 0.0);
    let h = 1e-4;
    let integral: f64 = (0..100_000)
        .map(|k| {
            let w = -5.0 + (k as f64 + 0.5) * h;
            let prior =
                (lambda / (2.0 * std::f64::consts::PI)).sqrt() * (-0.5 * lambda * w * w).exp();
            (obj.log_likelihood(&[w])).exp() * prior * h
        })
        .sum();
    let laplace = f.posterior.unwrap().log_evidence.unwrap();
    assert!(
        (laplace - integral.ln()).abs() < 0.01,
        "{laplace} vs {}",
        integral.ln()
    );
}
