//! The evidence phase on a run's gauge: after every fit, ln p(y | X) is estimated by
//! importance sampling from a Student-t around one run's Gaussian (run/true_evidence.rs),
//! seconds of work in which every gauge would otherwise read "done". The proposal run's gauge
//! says so while it runs, then carries the estimate.

use crate::catalog::thousands;
use crate::model::importance::khat_verdict;
use crate::tui::session::{LiveRun, RunState};

/// "estimating ln p(y|X) (logistic): 20,000 draws from a Student-t around ep…" while the
/// estimate around this run is under way; once done, the run's termination and the estimate
/// ("ep — converged; ln p(y|X) = -205.523 ± 0.004, k̂ -0.15 good"); `None` otherwise.
pub(super) fn label(run: &LiveRun) -> Option<String> {
    if let Some((model, draws)) = &run.evidence_draws {
        return Some(format!(
            "estimating ln p(y|X) ({model}): {} draws from a Student-t around {}…",
            thousands(*draws),
            run.id
        ));
    }
    let e = run.estimate.as_ref()?;
    let RunState::Done(termination) = &run.state else {
        return None;
    };
    let khat = match e.khat {
        Some(k) => format!("k̂ {k:.2} {}", khat_verdict(k, e.draws)),
        None => "k̂ –".into(),
    };
    Some(format!(
        "{} — {termination}; ln p(y|X) = {:.3} ± {:.3}, {khat}{}",
        run.id,
        e.log_evidence,
        e.mcse,
        match e.reliable {
            true => "",
            false => " (not reliable)",
        }
    ))
}
