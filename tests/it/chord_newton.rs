//! Chord Newton (issue 19) against full Newton on the binary GLMs: the Hessian is formed fewer
//! times, the step-halving guard still works on a hard problem, and the answer (weights,
//! Laplace covariance, log evidence) is full Newton's to 1e-10.

use std::path::Path;

use bayeslab_core::model::logistic::{fit, FitSettings, LogisticFit};
use bayeslab_core::optim::{Curvature, Iterate};
use bayeslab_engine::config::Optimizer;
use faer::Mat;

const TOL: f64 = 1e-10;

/// A seeded logistic data set: x ~ U(-2, 2)^d (first column 1), y = [u < sigma(x^T w)] with
/// w_j = (-1)^j (0.3 + 0.1 j), from a 64-bit LCG (Knuth's MMIX constants).
fn synthetic(n: usize, d: usize, seed: u64) -> (Mat<f64>, Vec<f64>) {
    let mut state = seed;
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut x = Mat::<f64>::zeros(n, d);
    let mut y = vec![0.0; n];
    for i in 0..n {
        let mut a = 0.0;
        for j in 0..d {
            let v = if j == 0 { 1.0 } else { 4.0 * next() - 2.0 };
            x[(i, j)] = v;
            let sign = if j % 2 == 0 { 1.0 } else { -1.0 };
            a += v * sign * (0.3 + 0.1 * j as f64);
        }
        y[i] = f64::from(u8::from(next() < 1.0 / (1.0 + (-a).exp())));
    }
    (x, y)
}

/// datasets/digits_1v8.csv: 64 raw pixel counts (0..16, not standardised) and an intercept.
fn digits() -> (Mat<f64>, Vec<f64>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/digits_1v8.csv");
    let text = std::fs::read_to_string(path).unwrap();
    let rows: Vec<Vec<f64>> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(|v| v.parse().unwrap()).collect())
        .collect();
    let d = rows[0].len();
    let x = Mat::<f64>::from_fn(
        rows.len(),
        d,
        |i, j| if j == 0 { 1.0 } else { rows[i][j - 1] },
    );
    let y = rows.iter().map(|r| r[d - 1]).collect();
    (x, y)
}

/// The fit and every iterate's (step multiplier, gradient norm).
fn run(
    x: &Mat<f64>,
    y: &[f64],
    precision: f64,
    curvature: Curvature,
) -> (LogisticFit, Vec<(f64, f64)>) {
    let settings = FitSettings {
        precision,
        optimizer: Optimizer::Newton,
        max_iter: 100,
        tolerance: 1e-8,
        laplace: true,
        curvature,
        warm_start: false,
    };
    let mut steps = Vec::new();
    let mut observe = |_: &str, it: &Iterate| steps.push((it.step, it.grad_norm));
    let f = fit(x.as_ref(), y, &settings, "chord", None, &mut observe).unwrap();
    (f, steps)
}

/// Weights, diag(H^{-1}) and the log evidence of `a` within TOL of `b` (relative beyond 1).
fn assert_same(a: &LogisticFit, b: &LogisticFit, what: &str) {
    let close = |u: f64, v: f64| (u - v).abs() <= TOL * v.abs().max(1.0);
    for (j, (u, v)) in a.weights.iter().zip(&b.weights).enumerate() {
        assert!(close(*u, *v), "{what}: w[{j}] {u} against {v}");
    }
    let (pa, pb) = (a.posterior.as_ref().unwrap(), b.posterior.as_ref().unwrap());
    for (j, (u, v)) in pa.cov_diag().iter().zip(pb.cov_diag()).enumerate() {
        assert!(close(*u, v), "{what}: cov[{j}] {u} against {v}");
    }
    let (u, v) = (pa.log_evidence.unwrap(), pb.log_evidence.unwrap());
    assert!(close(u, v), "{what}: log evidence {u} against {v}");
}

/// On 20,000 x 20 rows full Newton forms 10 Hessians (9 steps and the start; the last step's
/// is the Laplace factor's); chord Newton 5 and 22 gradient passes (keeping a factor while it
/// shrinks ‖g‖ to 0.8 or less, for up to 10 steps: optim/newton/curvature.rs). The counts are exact: the fused pass gives the same bits on any number
/// of threads.
#[test]
fn chord_newton_forms_fewer_hessians_for_the_same_answer() {
    let (x, y) = synthetic(20_000, 20, 19);
    let (chord, _) = run(&x, &y, 1.0, Curvature::Chord);
    let (full, _) = run(&x, &y, 1.0, Curvature::EveryStep);
    assert!(chord.outcome.termination.converged() && full.outcome.termination.converged());
    assert_eq!((full.passes.hessian, full.passes.gradient), (10, 0));
    assert_eq!((chord.passes.hessian, chord.passes.gradient), (5, 22));
    assert_same(&chord, &full, "synthetic 20,000 x 20");
}

/// The digits' pixel counts times 16 under a weak prior (lambda = 1e-3): badly scaled and
/// nearly separable, 24 full Newton steps. Chord Newton meets flat E near the mode, where the
/// guard halves steps (accepting only those that shrink ‖g‖), and still converges with fewer
/// Hessians. (A reused factor never overshoots here: from w = 0 the logistic curvature only
/// falls, so old factors are stiffer than the current Hessian; optim/newton/tests.rs has a
/// problem whose first step overshoots.) Both answers sit at the rounding floor of g, where
/// full Newton's own weights are only good to ‖g‖ / lambda ~ 7e-7, so they are compared by
/// the bound strong convexity gives: E - lambda/2 ‖w‖^2 is convex, so
/// ‖w - w*‖ <= ‖g(w)‖ / lambda, and ‖w_chord - w_full‖ <= (‖g_chord‖ + ‖g_full‖) / lambda.
#[test]
fn chord_newton_halves_steps_on_scaled_digits_and_still_converges() {
    let (x, y) = digits();
    let x = Mat::<f64>::from_fn(x.nrows(), x.ncols(), |i, j| {
        if j == 0 {
            1.0
        } else {
            16.0 * x[(i, j)]
        }
    });
    let lambda = 1e-3;
    let (chord, steps) = run(&x, &y, lambda, Curvature::Chord);
    let (full, full_steps) = run(&x, &y, lambda, Curvature::EveryStep);
    assert!(chord.outcome.termination.converged(), "{:?}", chord.outcome);
    assert!(steps.iter().any(|&(t, _)| t > 0.0 && t < 1.0), "{steps:?}");
    assert!(
        chord.passes.hessian < full.passes.hessian,
        "{:?} {:?}",
        chord.passes,
        full.passes
    );
    let (g_chord, g_full) = (steps.last().unwrap().1, full_steps.last().unwrap().1);
    let distance = chord
        .weights
        .iter()
        .zip(&full.weights)
        .map(|(a, b)| (a - b).powi(2))
        .sum::<f64>()
        .sqrt();
    assert!(g_chord <= 1e-8, "{g_chord}");
    assert!(
        distance <= (g_chord + g_full) / lambda,
        "{distance} > ({g_chord} + {g_full}) / {lambda}"
    );
}
