//! A cheap start for Newton on many rows: fit every k-th training row first, then start the
//! full-data Newton from that fit's mode.
//!
//! From w = 0 a logistic fit of 1,000,000 x 50 takes 7 Newton steps, each a Hessian pass
//! (X^T S X, O(N D^2)) over all rows. The mode of a 1-in-k subsample, with the prior's
//! precision scaled by m / N so that it weighs the likelihood as the full data's does, lies
//! within the subsample's statistical error of the full mode (O(sqrt(D / m)) in the weights'
//! own scale), where Newton converges quadratically: the full-data fit then needs about 3 steps.
//! The subsample's own Newton steps cost 1/k of a full pass each, and its Hessian factor,
//! scaled by N / m, takes the full-data Newton's first step, so the start costs a gradient
//! pass instead of a Hessian pass (optim/newton/guess.rs).
//!
//! The subsample is defined by row indices alone (rows 0, k, 2k, ... of the training rows in
//! their order), gathered chunk by chunk ([`Subsample`]), and k depends on N and D alone ([`stride`]), so a
//! streamed fit and an in-memory fit of the same rows gather the same matrix, reach the same
//! start bit for bit, and take the same path from there. The full-data fit is unchanged (the
//! same stopping rule, the same step-halving guard), so its answer agrees with a fit from
//! w = 0 to within the tolerance's reach (tests/it/warm_start.rs: 1e-10).

use faer::{Mat, MatRef};

use super::glm::{GlmLink, GlmObjective};
use crate::optim::{drive, Control, Curvature, Guess, Iterate, Newton, Observer, Start};

/// The subsample has at least this many rows, and at least [`ROWS_PER_COLUMN`] per design
/// column. Measured on 1,000,000 x 50 synthetic rows (examples of `bayeslab synth`'s model,
/// lambda = 1): from w = 0 full Newton takes 7 steps (8 Hessian passes); from the mode of
/// 6,250, 12,500, 25,000 or 50,000 rows it takes 4 (5 Hessian passes: the start's, 3 steps and
/// the step that lands at the mode, whose Hessian is the Laplace factor's), from 100,000 rows 3
/// or 4 (‖g‖ 4.5e-9 after 3 steps, just under the tolerance 1e-8). The subsample's own
/// ~8 Newton steps cost 8 m / N Hessian passes, so the smallest subsample that still lands
/// within quadratic reach is the cheapest.
pub const MIN_SUBSAMPLE_ROWS: usize = 10_000;
pub const ROWS_PER_COLUMN: usize = 100;

/// The warm start is used only when it takes at most 1 row in this many: below that, its own
/// passes cost more than the full-data steps it saves.
pub const MIN_STRIDE: usize = 8;

/// From [`crate::optim::CHORD_MIN_COLUMNS`] on (the chord widths) the subsample needs only
/// this many rows per column, and the warm start is used from [`WIDE_MIN_STRIDE`]. At
/// 100,000 x 500 the rule above asks for 50,000 rows (k = 2), so it never applied, and the
/// chord fit from w = 0 made 7 Hessian + 15 gradient passes. Measured there (`bayeslab bench
/// --only fit`, `bayeslab synth` data, lambda = 1), the full-data fit from the mode of
/// 10,000 rows (k = 10) still made 7 Hessian + 12 gradient passes (too far for chord steps to
/// contract), from 20,000 rows (k = 5) 4 + 9, from 25,000 rows (k = 4) 4 + 7 in 8 steps.
/// The subsample's own fit is a chord fit too ([`Curvature::for_columns`]); its passes cost
/// 1/k of a full pass each.
pub const WIDE_ROWS_PER_COLUMN: usize = 50;
pub const WIDE_MIN_STRIDE: usize = 4;

/// The subsample's Newton stops here (it only has to land near the full mode).
const MAX_STEPS: usize = 50;
const TOLERANCE: f64 = 1e-8;

/// k for N rows and D design columns: every k-th row is in the subsample; `None` when the data
/// are too few for a warm start to pay.
pub fn stride(rows: usize, columns: usize) -> Option<usize> {
    let (per_column, min_stride) = match Curvature::for_columns(columns) {
        Curvature::EveryStep => (ROWS_PER_COLUMN, MIN_STRIDE),
        Curvature::Chord => (WIDE_ROWS_PER_COLUMN, WIDE_MIN_STRIDE),
    };
    let subsample = MIN_SUBSAMPLE_ROWS.max(per_column * columns);
    let k = rows / subsample;
    (k >= min_stride).then_some(k)
}

/// Rows 0, k, 2k, ... of the training rows, in order, collected from the chunks they arrive
/// in (rows in memory are one chunk).
pub struct Subsample {
    k: usize,
    seen: usize,
    columns: Vec<Vec<f64>>,
    labels: Vec<f64>,
}

impl Subsample {
    pub fn new(k: usize, columns: usize) -> Self {
        Subsample {
            k,
            seen: 0,
            columns: vec![Vec::new(); columns],
            labels: Vec::new(),
        }
    }

    /// Take this subsample's rows from the next chunk (design rows `x`, labels `y`).
    pub fn add(&mut self, x: MatRef<'_, f64>, y: &[f64]) {
        // The first row of this chunk whose index in the training rows is a multiple of k.
        let first = (self.k - self.seen % self.k) % self.k;
        // Column by column: a column's rows are contiguous, read at a fixed stride.
        for (j, col) in self.columns.iter_mut().enumerate() {
            col.extend((first..y.len()).step_by(self.k).map(|i| x[(i, j)]));
        }
        self.labels
            .extend((first..y.len()).step_by(self.k).map(|i| y[i]));
        self.seen += y.len();
    }

    /// The gathered rows as a matrix, and their labels.
    pub fn finish(self) -> (Mat<f64>, Vec<f64>) {
        let cols = self.columns;
        let x = Mat::from_fn(self.labels.len(), cols.len(), |i, j| cols[j][i]);
        (x, self.labels)
    }
}

/// The full-data Newton's start for the link `L`: the mode of the subsample (`x`, `y`) of
/// `rows` training rows under precision `precision` x m / N, with the subsample's Hessian
/// factor as the first step's curvature (optim/newton/guess.rs), or `None` when that fit does
/// not converge (e.g. a separable subsample under maximum likelihood): then start from w = 0.
pub fn start<L: GlmLink>(x: &Mat<f64>, y: &[f64], rows: usize, precision: f64) -> Option<Start> {
    let scaled = precision * y.len() as f64 / rows as f64;
    let objective = GlmObjective::<L>::new(x.as_ref(), y, scaled);
    let mut solver = Newton::with_curvature(
        &objective,
        vec![0.0; x.ncols()],
        "the warm start's subsample",
        Curvature::for_columns(x.ncols()),
    )
    // Its mode lies a sampling error (about sqrt(D / m)) from the full mode: polishing it to
    // 1e-12 (the chord criterion for an answer) would only cost gradient passes.
    .without_polish();
    let control = Control {
        max_iter: MAX_STEPS,
        tolerance: TOLERANCE,
        cancel: None,
    };
    let outcome = drive("warm-start", &mut solver, &control, &mut Quiet).ok()?;
    let (w, factor) = solver.into_factored();
    let guess = factor.map(|factor| Guess {
        factor,
        scale: y.len() as f64 / rows as f64,
    });
    (outcome.termination.converged() && w.iter().all(|v| v.is_finite()))
        .then_some(Start { w, guess })
}

/// The subsample's iterations are not the run's: nobody watches them.
struct Quiet;

impl Observer for Quiet {
    fn observe(&mut self, _run: &str, _iterate: &Iterate) {}
}
