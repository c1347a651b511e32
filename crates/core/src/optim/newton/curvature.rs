//! When Newton computes a new Hessian, and what the passes over the data cost.
//!
//! A Hessian pass (E, g and H = X^T S X + lambda I) costs O(N D^2); a gradient pass (E and g
//! alone) costs O(N D). The chord (modified) Newton method reuses the last Cholesky factor of H
//! for as long as the steps it gives keep shrinking the gradient fast, so that most steps near
//! the mode cost a gradient pass (Kelley 1995, *Iterative Methods for Linear and Nonlinear
//! Equations*, ch. 5: the chord method and Shamanskii's method; docs/maths.md §1.1).

use serde::Serialize;

/// When the solver computes a new Hessian.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Curvature {
    /// A new Hessian at every iterate (full Newton): every step costs a Hessian pass, fused
    /// with the full step's trial point. The softmax and mode-finder fits keep it (issue 19
    /// changed the binary GLMs only), and the benchmark and tests compare against it.
    EveryStep,
    /// Chord Newton, for the binary GLMs. The first step is a Newton step whose trial point is
    /// evaluated with its Hessian, as full Newton's are; the fused evaluation continues while
    /// Newton steps shrink ‖g‖ by less than [`CHORD_RATIO`] (far from the mode). Otherwise a
    /// factor is kept and each later step costs a gradient pass; the Hessian is recomputed at the
    /// current point (one Hessian pass) as soon as a step with the kept factor
    /// - leaves more than [`KEEP_RATIO`] of ‖g‖ (‖g_new‖ > 0.8 ‖g_old‖),
    /// - needed a halved step (the guard: t < 1), or found no acceptable step at all,
    /// - would not descend (d^T g >= 0), or
    /// - follows [`MAX_REUSE`] chord steps with the same factor.
    ///
    /// The Hessians these steps are taken with are the objective's
    /// [`crate::optim::Objective::step_terms`] (the binary GLMs sum them in single precision,
    /// numeric/glm/single.rs, 0.6 of a double-precision pass at 100,000 x 500); the Laplace
    /// covariance and evidence then take one exact Hessian pass at the mode.
    Chord,
}

/// Chord Newton is used from this many design columns on (the intercept included); below it
/// full Newton. A chord fit trades Hessian passes for more gradient passes (200,000 x 50: 5
/// Hessian + 10 gradient passes against full Newton's 8 Hessians), so it pays only where a
/// gradient pass is cheap beside a Hessian pass. Issue 19's fast E/g pass (numeric/glm/
/// gradient.rs: X^T r in independent lanes) made a gradient pass cost 0.42 of a Hessian pass
/// at 1,000,000 x 50 (was about half), 0.31 at 200,000 x 100 and 0.12 at 100,000 x 500 (one
/// thread, CPU time); what is left at D = 50 is reading X and the per-row exp and ln_1p, so 10
/// extra gradient passes still cost more than 3 Hessian passes. Measured with `bayeslab
/// bench --only fit` (chord and full Newton interleaved, release, best of 3 medians, the
/// 2-core machine shared at a 1-minute load of 3-5): chord / full = 1.28 at 200,000 x 50, 1.04
/// at 1,000,000 x 50, 1.03 at 100,000 x 100, 1.07 at 100,000 x 200, 0.81 at 100,000 x 500.
/// So the threshold stays between 200 and 500 columns. The choice depends on D alone, so a
/// streamed fit and an in-memory fit of the same rows take the same path; every shipped
/// experiment (D <= 65) keeps full Newton. Many rows are served by the warm start instead
/// (model/warm_start.rs), which removes Hessian passes without adding gradient passes.
pub const CHORD_MIN_COLUMNS: usize = 256;

impl Curvature {
    /// The policy for a binary GLM with `columns` design columns.
    pub fn for_columns(columns: usize) -> Curvature {
        if columns >= CHORD_MIN_COLUMNS {
            Curvature::Chord
        } else {
            Curvature::EveryStep
        }
    }
}

/// A Newton step that shrinks ‖g‖ to at most this fraction ends the fused phase: from then on
/// a factor is kept for chord steps (far from the mode Newton steps contract by 0.3-0.4 only,
/// and each costs a Hessian pass).
pub const CHORD_RATIO: f64 = 0.5;

/// A kept factor must shrink ‖g‖ to at most this fraction per step. Near the mode a reused
/// factor contracts g linearly, at a rate about the Hessian's relative change since it was
/// formed. A chord step pays while its rate beats a Newton step's per unit of cost: with a
/// gradient pass at c = 0.12 of a Hessian pass (100,000 x 500, CHORD_MIN_COLUMNS) and Newton
/// steps contracting by about 0.35 far from the mode, that is a rate below 0.35^c = 0.88.
/// Measured on 100,000 x 500 (`bayeslab synth`, lambda = 1; passes of the subsample's fit
/// weighted by m / N = 1/4, gradient passes by 0.12): 0.5 with 4 reuses made 7.1 Hessian-pass
/// equivalents, 0.8 with 10 reuses 6.2 (3 Hessian + 11 gradient passes on all rows, 5 + 23 on
/// the subsample), 0.9 with 30 reuses 6.3, 0.7 with 8 reuses 7.3.
pub const KEEP_RATIO: f64 = 0.8;

/// A factor serves at most this many chord steps in a row, then the Hessian is recomputed at
/// the current point (Shamanskii's method, Kelley 1995, ch. 5): near the mode a fresh factor's
/// steps contract far faster than an old one's (the measurements at [`KEEP_RATIO`]).
pub const MAX_REUSE: usize = 10;

/// After a chord step (not a Newton step) ‖g‖ <= tolerance is not enough to stop. Newton
/// converges quadratically, so its last step usually overshoots the tolerance by orders of
/// magnitude (e.g. ‖g‖ 3e-8 -> 1e-14); chord steps converge linearly and would stop just under
/// it, a weight error near tolerance / lambda_min(H). So a chord fit also needs the next chord
/// step, ‖H_old^{-1} g‖_inf, an estimate of the distance to the mode, to be at most POLISH x
/// max(1, ‖w‖_inf): the extra chord steps cost a gradient pass each and bring the weights, and
/// the Hessian at them, within about 1e-12 of full Newton's (optim/newton/tests.rs).
pub const POLISH: f64 = 1e-12;

/// ... or the last chord step must have left more than this fraction of ‖g‖: g has reached the
/// rounding floor of its sum over N rows, where no step makes progress (full Newton stops there
/// too, one step earlier or later).
pub const FLOOR_RATIO: f64 = 0.9;

/// The passes over the data an optimisation made, by kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Passes {
    /// Passes that computed the Hessian (with E and g).
    pub hessian: usize,
    /// Passes that computed E and g only.
    pub gradient: usize,
}

impl Passes {
    pub fn count(&mut self, hessian: bool) {
        if hessian {
            self.hessian += 1;
        } else {
            self.gradient += 1;
        }
    }

    pub fn total(&self) -> usize {
        self.hessian + self.gradient
    }
}
