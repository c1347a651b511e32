//! The step-halving guard under both curvature policies, on a one-dimensional objective whose
//! Newton step from the start overshoots by an order of magnitude.

use super::*;
use crate::optim::{drive, Control};

/// E(w) = ln cosh(w - 3) + 0.005 w^2: g = tanh(w - 3) + 0.01 w, H = sech^2(w - 3) + 0.01.
/// At w = 0 the curvature is 0.0199, so the full Newton step lands near w = 50.
struct LogCosh;

impl Objective for LogCosh {
    fn dim(&self) -> usize {
        1
    }
    fn value(&self, w: &[f64]) -> f64 {
        let u = w[0] - 3.0;
        // ln cosh u = |u| + ln(1 + e^{-2|u|}) - ln 2, finite for any u
        u.abs() + (-2.0 * u.abs()).exp().ln_1p() - std::f64::consts::LN_2 + 0.005 * w[0] * w[0]
    }
    fn gradient(&self, w: &[f64]) -> Vec<f64> {
        vec![(w[0] - 3.0).tanh() + 0.01 * w[0]]
    }
    fn hessian(&self, w: &[f64]) -> faer::Mat<f64> {
        let c = (w[0] - 3.0).cosh();
        faer::Mat::from_fn(1, 1, |_, _| 1.0 / (c * c) + 0.01)
    }
}

/// Up to 100 steps, until ‖g‖ <= 1e-12.
fn tight() -> Control<'static> {
    Control {
        max_iter: 100,
        tolerance: 1e-12,
        cancel: None,
    }
}

/// The root of tanh(w - 3) + 0.01 w = 0 by bisection on [0, 3] (g(0) < 0 < g(3)): an
/// independent computation of the minimiser.
fn root() -> f64 {
    let (mut lo, mut hi) = (0.0_f64, 3.0_f64);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if (mid - 3.0).tanh() + 0.01 * mid < 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

#[test]
fn both_policies_halve_the_overshooting_step_and_reach_the_root() {
    let control = tight();
    let exact = root();
    for curvature in [Curvature::EveryStep, Curvature::Chord] {
        let mut steps = Vec::new();
        let mut observe = |_: &str, it: &crate::optim::Iterate| steps.push(it.step);
        let mut solver = Newton::with_curvature(&LogCosh, vec![0.0], "log cosh", curvature);
        let outcome = drive("t", &mut solver, &control, &mut observe).unwrap();
        assert!(
            outcome.termination.converged(),
            "{curvature:?}: {outcome:?}"
        );
        // The first step is cut to 1/16 at least (E(w) > E(0) at w = 50, 25, 12.5, 6.25).
        assert!(steps[1] <= 1.0 / 16.0, "{curvature:?}: {steps:?}");
        let w = solver.weights()[0];
        assert!(
            (w - exact).abs() < 1e-12,
            "{curvature:?}: {w} against {exact}"
        );
    }
}

#[test]
fn full_newton_forms_one_hessian_per_step_and_chord_newton_fewer() {
    let control = tight();
    let mut counts = Vec::new();
    for curvature in [Curvature::EveryStep, Curvature::Chord] {
        let mut halved = 0;
        let mut observe = |_: &str, it: &crate::optim::Iterate| {
            halved += usize::from(it.step > 0.0 && it.step < 1.0)
        };
        let mut solver = Newton::with_curvature(&LogCosh, vec![0.0], "log cosh", curvature);
        let outcome = drive("t", &mut solver, &control, &mut observe).unwrap();
        counts.push((outcome.iterations, halved, solver.passes()));
    }
    let (iterations, halved, full) = counts[0];
    // The start's Hessian, then one per step: fused with the full step's trial point, or
    // computed afresh after a halved step (whose trial points are gradient passes).
    assert_eq!(full.hessian, iterations + 1 + halved, "{counts:?}");
    assert_eq!(full.gradient, 4 * halved, "{counts:?}");
    let (_, _, chord) = counts[1];
    assert!(chord.hessian < full.hessian, "{counts:?}");
}

/// A start with a guessed curvature (optim/newton/guess.rs) costs a gradient pass instead of
/// a Hessian pass, and reaches the same root: with a guess four times too stiff (short steps)
/// and one a hundred times too soft (the overshoot the guard halves).
#[test]
fn a_guessed_first_curvature_starts_with_a_gradient_pass_and_reaches_the_same_root() {
    let control = tight();
    let exact = root();
    for curvature in [Curvature::EveryStep, Curvature::Chord] {
        for h0 in [4.0 * 0.0199, 0.0199 / 100.0] {
            let factor =
                Cholesky::factor(faer::Mat::from_fn(1, 1, |_, _| 1.0).as_ref(), "1").unwrap();
            let guess = Guess {
                factor,
                scale: 1.0 / h0,
            };
            let mut solver =
                Newton::with_guess(&LogCosh, vec![0.0], Some(guess), "log cosh", curvature);
            assert_eq!((solver.passes().hessian, solver.passes().gradient), (0, 1));
            let outcome = drive("t", &mut solver, &control, &mut |_: &str, _: &_| {}).unwrap();
            assert!(
                outcome.termination.converged(),
                "{curvature:?} {h0}: {outcome:?}"
            );
            let w = solver.weights()[0];
            assert!(
                (w - exact).abs() < 1e-12,
                "{curvature:?} {h0}: {w} against {exact}"
            );
        }
    }
}
