use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::draws::DrawBatch;
use crate::error::NumericError;

/// One observed iteration. Iteration 0 is the starting point.
#[derive(Debug, Clone, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub struct Iterate {
    pub iteration: usize,
    pub objective: f64,
    pub grad_norm: f64,
    /// Step multiplier taken to reach this iterate (Newton's halved step t, or the
    /// gradient-descent learning rate); 0 at iteration 0.
    pub step: f64,
    pub elapsed_s: f64,
}

/// Anything that watches iterations: the trace recorder, a progress line, the TUI.
pub trait Observer {
    fn observe(&mut self, run: &str, iterate: &Iterate);

    /// Whether to be sent the draws of every chain of a sampler ([`Observer::draws`]); a
    /// sampler copies nothing for an observer that says no.
    fn wants_draws(&self) -> bool {
        false
    }

    /// Consecutive draws of one chain of the sampler `run`, sent a few times a second per
    /// chain (and once more at the end of the chain) rather than once per sweep.
    fn draws(&mut self, _run: &str, _batch: &DrawBatch) {}

    /// Whether to be sent each iterate's weights ([`Observer::point`]): the step-by-step
    /// picture's recorder asks (model/steps.rs); nothing is copied for an observer that says no.
    fn wants_points(&self) -> bool {
        false
    }

    /// The weights of iterate `iteration` of `run`, for a solver that has weights.
    fn point(&mut self, _run: &str, _iteration: usize, _w: &[f64]) {}
}

impl<F: FnMut(&str, &Iterate)> Observer for F {
    fn observe(&mut self, run: &str, iterate: &Iterate) {
        self(run, iterate)
    }
}

/// Why an optimisation stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Termination {
    /// The gradient norm fell below the tolerance.
    Converged,
    /// The iteration budget ran out first.
    MaxIterations,
    /// The minimiser does not exist: the weights run away (separable data under MLE).
    Separable,
    /// No step along the search direction decreased the objective.
    Stalled,
    /// [`STALL_WINDOW`] iterations in a row neither lowered the objective beyond its rounding
    /// nor set a new smallest gradient norm (EP: site change): the iterates sit at their
    /// rounding floor above the tolerance, which cannot be met. Not converged; the results are
    /// the last iterate's.
    NoProgress,
    /// The cancellation flag was raised.
    Cancelled,
}

impl Termination {
    pub fn converged(self) -> bool {
        self == Termination::Converged
    }

    /// The name used in results.json and the reports.
    pub fn name(self) -> &'static str {
        match self {
            Termination::Converged => "converged",
            Termination::MaxIterations => "max-iterations",
            Termination::Separable => "separable",
            Termination::Stalled => "stalled",
            Termination::NoProgress => "no-progress",
            Termination::Cancelled => "cancelled",
        }
    }
}

impl std::fmt::Display for Termination {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What one solver step did.
pub enum Step {
    /// Moved to a new iterate with this step multiplier.
    Moved(f64),
    /// Could not continue, for this reason.
    Stop(Termination),
}

/// A single-step optimiser. It holds its own current iterate.
pub trait Solver {
    fn objective(&self) -> f64;
    fn grad_norm(&self) -> f64;
    /// Whether the current iterate meets the stopping rule: by default, a gradient norm of at
    /// most `tolerance`. A solver whose `grad_norm` means nothing before its first step (EP)
    /// says no until then.
    fn settled(&self, tolerance: f64) -> bool {
        self.grad_norm() <= tolerance
    }
    fn step(&mut self) -> Result<Step, NumericError>;
    /// The current iterate's weights, for a solver that has them (Newton, gradient descent).
    fn weights(&self) -> Option<&[f64]> {
        None
    }
}

/// Iterations in a row without progress after which [`drive`] stops with
/// [`Termination::NoProgress`]. A method still converging sets a new smallest gradient norm or
/// objective at least this often; at the rounding floor new records of noise become rarer
/// with every iteration, so the loop ends soon after reaching it.
pub const STALL_WINDOW: usize = 100;

/// The best objective and gradient norm seen, and how many iterations ago either improved.
struct Progress {
    objective: f64,
    grad_norm: f64,
    idle: usize,
}

impl Progress {
    fn new(solver: &dyn Solver) -> Self {
        Progress {
            objective: solver.objective(),
            grad_norm: solver.grad_norm(),
            idle: 0,
        }
    }

    /// Record the current iterate; true when [`STALL_WINDOW`] iterations passed without a new
    /// best. A decrease within a few ulp of the objective is rounding, not progress.
    fn stalled(&mut self, solver: &dyn Solver) -> bool {
        let (value, norm) = (solver.objective(), solver.grad_norm());
        let noise = 16.0 * f64::EPSILON * self.objective.abs();
        let mut better = false;
        if value < self.objective - noise {
            self.objective = value;
            better = true;
        }
        if norm < self.grad_norm {
            self.grad_norm = norm;
            better = true;
        }
        self.idle = if better { 0 } else { self.idle + 1 };
        self.idle >= STALL_WINDOW
    }
}

/// Budget and stopping rule for [`drive`].
#[derive(Debug, Clone, Copy)]
pub struct Control<'a> {
    pub max_iter: usize,
    pub tolerance: f64,
    pub cancel: Option<&'a AtomicBool>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    pub termination: Termination,
    pub iterations: usize,
}

/// Run `solver` until it is [`Solver::settled`] at `control.tolerance`, the budget
/// runs out, the solver stops, it makes no progress for [`STALL_WINDOW`] iterations, or the
/// cancellation flag is raised. Every iterate,
/// including the start, is passed to `observer` under the name `run`.
pub fn drive(
    run: &str,
    solver: &mut dyn Solver,
    control: &Control<'_>,
    observer: &mut dyn Observer,
) -> Result<Outcome, NumericError> {
    let start = Instant::now();
    let mut emit = |iteration: usize, step: f64, solver: &dyn Solver| {
        let objective = solver.objective();
        let grad_norm = solver.grad_norm();
        if !objective.is_finite() || !grad_norm.is_finite() {
            return Err(NumericError::NonFinite(format!(
                "{run}: the objective or its gradient became non-finite at iteration {iteration}"
            )));
        }
        let elapsed_s = start.elapsed().as_secs_f64();
        if let Some(w) = solver.weights().filter(|_| observer.wants_points()) {
            observer.point(run, iteration, w);
        }
        observer.observe(
            run,
            &Iterate {
                iteration,
                objective,
                grad_norm,
                step,
                elapsed_s,
            },
        );
        Ok(())
    };
    emit(0, 0.0, solver)?;
    let mut iterations = 0;
    let mut progress = Progress::new(solver);
    let termination = loop {
        if solver.settled(control.tolerance) {
            break Termination::Converged;
        }
        if iterations >= control.max_iter {
            break Termination::MaxIterations;
        }
        if control.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            break Termination::Cancelled;
        }
        match solver.step()? {
            Step::Moved(step) => {
                iterations += 1;
                emit(iterations, step, solver)?;
                if progress.stalled(solver) && !solver.settled(control.tolerance) {
                    break Termination::NoProgress;
                }
            }
            Step::Stop(reason) => break reason,
        }
    };
    Ok(Outcome {
        termination,
        iterations,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A solver whose gradient norm halves for `improving` steps and then repeats a fixed
    /// cycle of values around its floor (rounding noise), with a level objective.
    struct Floor {
        step: usize,
        improving: usize,
    }

    impl Solver for Floor {
        fn objective(&self) -> f64 {
            1.0
        }
        fn grad_norm(&self) -> f64 {
            let k = self.step.min(self.improving);
            let noise = [1.0, 1.3, 1.1, 1.2][self.step % 4];
            0.5f64.powi(k as i32)
                * if self.step > self.improving {
                    noise
                } else {
                    1.0
                }
        }
        fn step(&mut self) -> Result<Step, NumericError> {
            self.step += 1;
            Ok(Step::Moved(1.0))
        }
    }

    fn run(solver: &mut dyn Solver, tolerance: f64) -> Outcome {
        let control = Control {
            max_iter: 1_000_000,
            tolerance,
            cancel: None,
        };
        drive("t", solver, &control, &mut |_: &str, _: &Iterate| {}).unwrap()
    }

    #[test]
    fn a_solver_at_its_floor_stops_one_window_after_its_last_progress() {
        for improving in [0, 5, 40] {
            let out = run(&mut Floor { step: 0, improving }, 1e-300);
            assert_eq!(out.termination, Termination::NoProgress);
            // the last new smallest gradient norm is at step `improving`
            assert_eq!(out.iterations, improving + STALL_WINDOW, "{improving}");
        }
        // a tolerance the solver reaches converges as before
        let out = run(
            &mut Floor {
                step: 0,
                improving: 40,
            },
            1e-9,
        );
        assert_eq!(out.termination, Termination::Converged);
        assert_eq!(out.iterations, 30, "0.5^30 < 1e-9 <= 0.5^29");
    }
}
