//! How each run ended: the convergence table and, per sampling run, whether its chains
//! mixed.

use super::khat::khat_cell;
use super::table::{num, Cell, Mark, Table};
use bayeslab_core::catalog::thousands;
use bayeslab_core::record::ExperimentRecord;

/// One sentence per sampling run: its split-R-hat and bulk ESS, and an HMC run's acceptance,
/// step and divergences; flagged when R-hat > 1.01 or a trajectory diverged.
pub fn sampler_diagnostics(r: &ExperimentRecord) -> Vec<(String, bool)> {
    r.runs
        .iter()
        .filter_map(|run| {
            let d = run.diagnostics?;
            let mut text = if d.mixed() {
                format!("{}: split-R-hat at most {:.4}, bulk ESS at least {:.0} over the weights (chains mixed)", run.id, d.rhat_max, d.ess_min)
            } else {
                format!(
                    "{}: NOT MIXED — split-R-hat {:.4} > {} (bulk ESS at least {:.0}); run longer chains (`draws`, `burn_in`) before trusting this run",
                    run.id,
                    d.rhat_max,
                    bayeslab_core::record::Diagnostics::RHAT_LIMIT,
                    d.ess_min
                )
            };
            let divergent = d.hmc.map_or(0, |h| h.divergent);
            if let Some(h) = d.hmc {
                text.push_str(&format!("; HMC {}", h.words()));
            }
            if divergent > 0 {
                text.push_str(" — DIVERGENT trajectories: part of the posterior is too curved for the step, so the chains may under-visit it; compare with the gibbs kind");
            }
            Some((text, !d.mixed() || divergent > 0))
        })
        .collect()
}

pub fn convergence(r: &ExperimentRecord) -> Table {
    let headers = [
        "run",
        "kind",
        "termination",
        "iterations",
        "objective",
        "final gradient norm",
        "fit seconds",
        "log evidence",
        "k-hat",
    ];
    let rows = r
        .runs
        .iter()
        .map(|run| {
            let last = r
                .trace
                .iter()
                .rev()
                .find(|t| t.run == run.id)
                .map(|t| t.iterate.grad_norm);
            // A sampler does not converge to a point: its row says whether its chains mixed
            // and counts sweeps per chain; the gradient at its last draw means nothing.
            let sampled = run
                .diagnostics
                .as_ref()
                .filter(|_| run.termination.is_some());
            let termination = match (sampled, run.termination) {
                (Some(d), _) if d.mixed() => "sampled, mixed".to_string(),
                (Some(_), _) => "sampled, NOT MIXED".to_string(),
                (None, Some(t)) if !t.converged() => format!("NOT CONVERGED: {t}"),
                (None, Some(t)) => t.to_string(),
                (None, None) => "failed".to_string(),
            };
            let on_grid = run.kind.fitting() == bayeslab_core::catalog::Fitting::Quadrature;
            let iterations = match sampled {
                Some(_) => format!("{} sweeps per chain", run.iterations),
                None if on_grid => format!("{} grid points", thousands(run.iterations)),
                None => run.iterations.to_string(),
            };
            vec![
                run.id.as_str().into(),
                run.kind.name().into(),
                Cell {
                    text: termination,
                    mark: Mark::warn_if(run.flag().is_some()),
                },
                iterations.into(),
                num(run.objective).into(),
                last.filter(|_| sampled.is_none())
                    .map(|g| format!("{g:.2e}"))
                    .unwrap_or_else(|| "–".into())
                    .into(),
                format!("{:.3}", run.fit_seconds).into(),
                own_evidence(run).into(),
                khat_cell(run.khat, run.khat_draws),
            ]
        })
        .collect();
    let mut table = Table {
        headers: headers.iter().map(|h| h.to_string()).collect(),
        numeric: vec![false, false, false, true, true, true, true, true, true],
        rows,
    };
    if !any_posterior(r) {
        // only generative kinds or point estimates: a column of dashes says nothing
        table.headers.pop();
        table.numeric.pop();
        table.rows.iter_mut().for_each(|row| drop(row.pop()));
    }
    table
}

/// The run's own ln p(y | X); a variational run's is a lower bound and says which (`-206.2047
/// (ELBO mean-field)`), from its kind's catalogue row, so the column never passes a bound off
/// as the evidence.
fn own_evidence(run: &bayeslab_core::record::RunRecord) -> String {
    let value = run.posterior.as_ref().and_then(|p| p.log_evidence);
    let bound = run.kind.log_evidence().filter(|e| e.lower_bound());
    match (value, bound) {
        (Some(_), Some(e)) => format!("{} ({})", num(value), e.label(run.mean_field)),
        _ => num(value),
    }
}

/// Whether some run has a posterior, so that the k-hat column and its note belong.
pub fn any_posterior(r: &ExperimentRecord) -> bool {
    r.runs.iter().any(|run| run.posterior.is_some())
}
