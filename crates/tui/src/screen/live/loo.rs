//! A run's gauge while its leave-one-out cross-validation runs: the draws scored on every
//! training row, then each row with Pareto k above 0.7 refitted without it (a whole fit each).

use crate::session::{LiveRun, RunState};
use bayeslab_core::catalog::thousands;

/// "gibbs — leave-one-out: 4,000 draws x 32 rows" or "gibbs — leave-one-out: refitting
/// without row 12 (2 of 5)", or for the exact LOO of a conjugate kind (no draws) "niw —
/// leave-one-out: exact, …"; `None` when no LOO is running.
pub(super) fn label(run: &LiveRun) -> Option<String> {
    let p = run
        .loo
        .as_ref()
        .filter(|_| run.state == RunState::Running)?;
    Some(match p.refit {
        Some((row, done, total)) => format!(
            "{} — leave-one-out: refitting without row {row} ({} of {total}; k > 0.7)",
            run.id,
            done + 1
        ),
        None if p.draws == 0 => format!(
            "{} — leave-one-out: exact, the closed form refitted without each of {} rows",
            run.id,
            thousands(p.rows)
        ),
        None => format!(
            "{} — leave-one-out: {} draws × {} rows",
            run.id,
            thousands(p.draws),
            thousands(p.rows)
        ),
    })
}
