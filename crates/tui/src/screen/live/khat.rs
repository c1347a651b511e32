//! A run's gauge while its k-hat is computed: the fit is done, but 20,000 draws scored on
//! every training row take a visible moment, and "iteration 6" would look frozen.

use crate::session::{LiveRun, RunState};
use bayeslab_core::catalog::thousands;

/// "logistic-laplace — fitted after 6 iterations; computing k̂ (20,000 draws)" while the
/// run's k-hat is being computed; `None` otherwise.
pub(super) fn label(run: &LiveRun) -> Option<String> {
    let draws = run.khat_draws.filter(|_| run.state == RunState::Running)?;
    let fitted = match run.iterates.last() {
        Some(it) if it.iteration == 1 => "fitted after 1 iteration".to_string(),
        Some(it) => format!("fitted after {} iterations", it.iteration),
        None => "fitted".to_string(),
    };
    Some(format!(
        "{} — {fitted}; computing k̂ ({} draws)",
        run.id,
        thousands(draws)
    ))
}
