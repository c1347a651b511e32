//! Newton's method with step halving (docs/maths.md 1.1): d = -H^{-1} g from one Cholesky
//! factor of H, then t = 1, 1/2, 1/4, ... until E(w + t d) <= E(w). A step that leaves E
//! unchanged to rounding is accepted only if it shrinks the gradient, so the objective never
//! increases beyond rounding error, and more than three such steps in a row count as stalled.
//!
//! The full step t = 1 is evaluated with [`Objective::terms`], with the Hessian when the next
//! step will want it, so an accepted full step costs one pass over the data; shorter steps are
//! tried without it. Under [`Curvature::Chord`] most steps near the mode reuse an older factor
//! and cost a gradient pass (curvature.rs says when the Hessian is recomputed).

mod curvature;
mod guess;
#[cfg(test)]
mod tests;

pub use curvature::{
    Curvature, Passes, CHORD_MIN_COLUMNS, CHORD_RATIO, FLOOR_RATIO, KEEP_RATIO, MAX_REUSE, POLISH,
};
pub use guess::{Guess, Start};

use std::cell::Cell;

use super::{Objective, Solver, Step, Termination};
use crate::error::NumericError;
use crate::numeric::linalg::{dot, norm2, Cholesky};

pub struct Newton<'a> {
    objective: &'a dyn Objective,
    what: String,
    curvature: Curvature,
    w: Vec<f64>,
    value: f64,
    grad: Vec<f64>,
    /// The Hessian at `w`, when the last evaluation computed it, and whether it is exact (chord
    /// Newton steps with single-precision Hessians: [`Objective::step_terms`]).
    hessian: Option<faer::Mat<f64>>,
    hessian_exact: bool,
    /// The factor the next step solves with, and whether it is the Hessian at `w` (a Newton
    /// step) rather than at an earlier iterate (a chord step).
    factor: Option<Cholesky>,
    factor_at_w: bool,
    /// The step is `factor_scale` x (the factor's solve): 1 for a Hessian of this objective,
    /// m / N for a subsample's ([`Guess`]).
    factor_scale: f64,
    /// Chord steps taken with `factor` so far.
    reused: usize,
    /// Chord only: evaluate full steps with their Hessian (far from the mode), as full Newton.
    newton_phase: bool,
    /// Chord only: after a chord step also ask for the POLISH criterion (curvature.rs).
    polish: bool,
    /// Whether the step that reached `w` solved with the Hessian at its start (true at w0).
    last_was_newton: bool,
    /// ‖g‖ after / before the last accepted step.
    last_ratio: f64,
    /// Accepted steps in a row that left E unchanged to rounding.
    level_steps: usize,
    passes: Passes,
    /// The tolerance the driver last asked about (chord: a step that fails at the rounding
    /// floor once ‖g‖ is within it has converged, not stalled).
    tolerance: Cell<f64>,
}

/// Level steps in a row after which the problem counts as stalled.
const MAX_LEVEL_STEPS: usize = 3;

/// Smallest step multiplier tried before the line search gives up.
const MIN_STEP: f64 = 1e-10;

impl<'a> Newton<'a> {
    /// Full Newton from `w0`. `what` names the problem in a not-positive-definite error.
    pub fn new(objective: &'a dyn Objective, w0: Vec<f64>, what: impl Into<String>) -> Self {
        Self::with_curvature(objective, w0, what, Curvature::EveryStep)
    }

    /// Start at `w0`, recomputing the Hessian as `curvature` says.
    pub fn with_curvature(
        objective: &'a dyn Objective,
        w0: Vec<f64>,
        what: impl Into<String>,
        curvature: Curvature,
    ) -> Self {
        Self::with_guess(objective, w0, None, what, curvature)
    }

    /// Start at `w0` and, when `guess` is given, take the first step with it instead of the
    /// Hessian at `w0`: the start then costs a gradient pass instead of a Hessian pass (guess.rs).
    pub fn with_guess(
        objective: &'a dyn Objective,
        w0: Vec<f64>,
        guess: Option<Guess>,
        what: impl Into<String>,
        curvature: Curvature,
    ) -> Self {
        let (value, grad, hessian, hessian_exact) =
            evaluate(objective, curvature, &w0, guess.is_none());
        let passes = Passes {
            hessian: usize::from(guess.is_none()),
            gradient: usize::from(guess.is_some()),
        };
        let factor_scale = guess.as_ref().map_or(1.0, |g| g.scale);
        Newton {
            objective,
            what: what.into(),
            curvature,
            w: w0,
            value,
            grad,
            hessian,
            hessian_exact,
            factor: guess.map(|g| g.factor),
            factor_at_w: false,
            factor_scale,
            reused: 0,
            newton_phase: true,
            polish: true,
            last_was_newton: true,
            last_ratio: 0.0,
            level_steps: 0,
            passes,
            tolerance: Cell::new(0.0),
        }
    }

    /// Settle as soon as ‖g‖ meets the tolerance, after a chord step too: for a start that
    /// only has to land near a mode (model/warm_start.rs), not for an answer.
    pub fn without_polish(mut self) -> Self {
        self.polish = false;
        self
    }

    pub fn weights(&self) -> &[f64] {
        &self.w
    }

    pub fn into_weights(self) -> Vec<f64> {
        self.w
    }

    /// The passes over the data so far (the start's included).
    pub fn passes(&self) -> Passes {
        self.passes
    }

    /// The weights, E at them and the exact Hessian there when it is at hand.
    pub fn into_state(self) -> (Vec<f64>, f64, Option<faer::Mat<f64>>) {
        let exact = self.hessian.filter(|_| self.hessian_exact);
        (self.w, self.value, exact)
    }

    /// The weights and the newest Cholesky factor of this objective's Hessian: the one the next
    /// step would solve with, else the Hessian at the weights factored now (no pass over the
    /// data). `None` for the factor when neither is at hand or it is not positive definite.
    pub fn into_factored(self) -> (Vec<f64>, Option<Cholesky>) {
        let factor = match (self.factor, self.hessian) {
            (Some(f), _) if self.factor_scale == 1.0 => Some(f),
            (_, Some(h)) => Cholesky::factor(h.as_ref(), "Hessian").ok(),
            _ => None,
        };
        (self.w, factor)
    }

    /// Factor the Hessian at `w` (from the last evaluation, or one Hessian pass).
    fn refactor(&mut self) -> Result<(), NumericError> {
        let h = match self.hessian.take() {
            Some(h) => h,
            None => {
                self.passes.count(true);
                let (_, _, h, _) = evaluate(self.objective, self.curvature, &self.w, true);
                h.expect("evaluated with the Hessian")
            }
        };
        let what = format!("Hessian of {}", self.what);
        self.factor = Some(Cholesky::factor(h.as_ref(), &what)?);
        self.factor_at_w = true;
        self.factor_scale = 1.0;
        self.reused = 0;
        Ok(())
    }

    /// After an accepted step with gradient ratio `ratio` = ‖g_new‖ / ‖g_old‖ and multiplier
    /// `t`: whether the next step recomputes the Hessian, and in which phase.
    fn plan_next(&mut self, newton_step: bool, ratio: f64, t: f64) {
        match self.curvature {
            Curvature::EveryStep => self.factor = None,
            Curvature::Chord => {
                let contracted = t == 1.0 && ratio <= CHORD_RATIO;
                let keep = t == 1.0 && ratio <= KEEP_RATIO;
                if self.hessian.is_some() {
                    // Evaluated with its Hessian: factor it next, a Newton step.
                    self.factor = None;
                    self.newton_phase = !contracted;
                } else if !keep || self.reused >= MAX_REUSE {
                    // The reused factor stopped paying: a new one at w. If even a Newton step
                    // contracted poorly, the iterates are far from the mode: fuse again.
                    self.factor = None;
                    self.newton_phase = newton_step;
                } else {
                    self.factor_at_w = false;
                    self.reused += 1;
                }
            }
        }
    }
}

impl Solver for Newton<'_> {
    fn objective(&self) -> f64 {
        self.value
    }

    fn grad_norm(&self) -> f64 {
        norm2(&self.grad)
    }

    fn weights(&self) -> Option<&[f64]> {
        Some(&self.w)
    }

    /// ‖g‖ <= tolerance after a Newton step (as full Newton stops). After a chord step also
    /// the next chord step must be below POLISH relative to the weights, or the last step must
    /// have stopped shrinking ‖g‖ (the rounding floor of g): curvature.rs says why.
    fn settled(&self, tolerance: f64) -> bool {
        self.tolerance.set(tolerance);
        if self.grad_norm() > tolerance {
            return false;
        }
        if !self.polish || self.last_was_newton || self.last_ratio > FLOOR_RATIO {
            return true;
        }
        self.factor.as_ref().is_some_and(|f| {
            let scale = self.w.iter().fold(1.0_f64, |m, w| m.max(w.abs()));
            let next = self.factor_scale
                * f.solve(&self.grad)
                    .iter()
                    .fold(0.0_f64, |m, d| m.max(d.abs()));
            next <= POLISH * scale
        })
    }

    fn step(&mut self) -> Result<Step, NumericError> {
        loop {
            if self.factor.is_none() {
                self.refactor()?;
            }
            let newton_step = self.factor_at_w;
            let factor = self.factor.as_ref().expect("factored above");
            let scale = self.factor_scale;
            let d: Vec<f64> = factor
                .solve(&self.grad)
                .iter()
                .map(|v| -scale * v)
                .collect();
            if dot(&d, &self.grad) >= 0.0 {
                if newton_step {
                    return Ok(Step::Stop(Termination::Stalled));
                }
                // An old factor's direction need not descend: recompute it here.
                self.factor = None;
                continue;
            }
            let fuse = self.curvature == Curvature::EveryStep || self.newton_phase;
            match self.search(&d, fuse)? {
                Some(Step::Stop(Termination::Stalled)) | None if self.polished_to_floor() => {
                    return Ok(Step::Stop(Termination::Converged))
                }
                Some(step) => {
                    self.last_was_newton = newton_step;
                    return Ok(step);
                }
                None if newton_step => return Ok(Step::Stop(Termination::Stalled)),
                None => self.factor = None,
            }
        }
    }
}

impl Newton<'_> {
    /// Chord only: ‖g‖ already met the tolerance and only the polish (curvature.rs, POLISH)
    /// was going on when no step could make progress any more: the rounding floor, where full
    /// Newton would have stopped too.
    fn polished_to_floor(&self) -> bool {
        self.curvature == Curvature::Chord && self.grad_norm() <= self.tolerance.get()
    }

    /// The line search along `d`: `None` when no multiplier down to MIN_STEP is accepted.
    /// `fuse`: evaluate the full step's trial point with its Hessian.
    fn search(&mut self, d: &[f64], fuse: bool) -> Result<Option<Step>, NumericError> {
        let newton_step = self.factor_at_w;
        let old_norm = norm2(&self.grad);
        let mut t = 1.0;
        while t >= MIN_STEP {
            let w: Vec<f64> = self.w.iter().zip(d).map(|(w, d)| w + t * d).collect();
            let with_hessian = fuse && t == 1.0;
            self.passes.count(with_hessian);
            let (value, grad, hessian, exact) =
                evaluate(self.objective, self.curvature, &w, with_hessian);
            // Changes within the rounding of E are not progress. E sums N terms, so its
            // rounding grows like sqrt(N) ulp (a random walk of N roundings); with a
            // tolerance of 4 ulp alone, a large data set's last real decrease, smaller than
            // that noise, could be rejected step after step.
            let noise =
                4.0 * f64::EPSILON * self.value.abs() * self.objective.scale().max(1.0).sqrt();
            let decreased = value < self.value - noise;
            let level = value <= self.value + noise;
            let new_norm = norm2(&grad);
            if decreased || (level && new_norm < old_norm) {
                // Level steps in a row mean the iterates wander at the rounding-noise floor
                // of E and g (badly scaled features): stop there rather than forever.
                // Under the chord method a step whose gradient contracts by CHORD_RATIO is
                // progress even when E no longer changes beyond its rounding.
                let progress = decreased
                    || (self.curvature == Curvature::Chord && new_norm <= CHORD_RATIO * old_norm);
                self.level_steps = if progress { 0 } else { self.level_steps + 1 };
                if self.level_steps > MAX_LEVEL_STEPS {
                    return Ok(Some(Step::Stop(Termination::Stalled)));
                }
                self.w = w;
                self.value = value;
                self.grad = grad;
                self.hessian = hessian;
                self.hessian_exact = exact;
                self.last_ratio = new_norm / old_norm;
                self.plan_next(newton_step, self.last_ratio, t);
                if self.objective.diverging(&self.w) {
                    return Ok(Some(Step::Stop(Termination::Separable)));
                }
                return Ok(Some(Step::Moved(t)));
            }
            t *= 0.5;
        }
        Ok(None)
    }
}

/// E, g and, when `hessian`, the Hessian a step under `curvature` is taken with: the exact one
/// for full Newton, [`Objective::step_terms`]' for chord Newton. The flag says whether it is exact.
fn evaluate(
    objective: &dyn Objective,
    curvature: Curvature,
    w: &[f64],
    hessian: bool,
) -> (f64, Vec<f64>, Option<faer::Mat<f64>>, bool) {
    if hessian && curvature == Curvature::Chord {
        let (value, grad, h, exact) = objective.step_terms(w);
        (value, grad, Some(h), exact)
    } else {
        let (value, grad, h) = objective.terms(w, hessian);
        (value, grad, h, true)
    }
}
