//! How far each approximation is from the gold standard computed in the same experiment: the
//! exact posterior sampled by a `gibbs-*` or `hmc-*` run, or computed by a quadrature kind (issue 7). One [`ApproximationError`] row per
//! other run and predictive, against the gold run's `exact` predictive.
//!
//! The reference of a run is the first gold run of the same model (same likelihood, probit
//! noise and prior precision); a run of another model (a probit approximation when only the
//! logistic posterior was sampled, naive Bayes, an MLE) is compared with the first gold run on
//! its predictions only, and its posterior-moment fields are `null`.

use crate::config::Plan;
use bayeslab_core::model::{Likelihood, PredictiveKind};
use bayeslab_core::record::{
    ApproximationError, PredictionTable, PredictiveRecord, RunRecord, Scores,
};

/// Probabilities are clamped to [EPS, 1 - EPS] inside the Bernoulli KL divergence.
const EPS: f64 = 1e-12;

/// A run's model: its likelihood and prior precision.
fn model(plan: &Plan, run: &RunRecord) -> Option<(Likelihood, Option<f64>)> {
    let method = plan.methods.iter().find(|m| m.id == run.id)?;
    let likelihood = method.kind.likelihood(method.options.noise())?;
    Some((likelihood, run.prior_precision))
}

fn is_gold(run: &RunRecord, table: &PredictionTable) -> bool {
    run.kind.is_gold()
        && run.error.is_none()
        && exact(run).is_some()
        && binary(table, run, PredictiveKind::Exact.name()).is_some()
}

fn exact(run: &RunRecord) -> Option<&PredictiveRecord> {
    run.predictives
        .iter()
        .find(|p| p.name == PredictiveKind::Exact)
}

/// The predictions of a binary predictive of `run`, from the table.
fn binary<'a>(table: &'a PredictionTable, run: &RunRecord, predictive: &str) -> Option<&'a [f64]> {
    match &table.column(&run.id, predictive)?.scores {
        Scores::Binary(p) => Some(p),
        Scores::Classes(_) => None,
    }
}

/// Every row of the table; empty when no gold run succeeded.
pub fn approximation_errors(
    plan: &Plan,
    runs: &[RunRecord],
    table: &PredictionTable,
) -> Vec<ApproximationError> {
    let golds: Vec<&RunRecord> = runs.iter().filter(|r| is_gold(r, table)).collect();
    let mut rows = Vec::new();
    for run in runs.iter().filter(|r| r.error.is_none()) {
        let own = model(plan, run);
        let same_model = |g: &&&RunRecord| g.id != run.id && own.is_some() && model(plan, g) == own;
        let reference = match golds.iter().find(same_model) {
            Some(g) => Some((*g, true)),
            // A gold run is only checked against another sample of its own model.
            None if !is_gold(run, table) => golds.first().map(|g| (*g, false)),
            None => None,
        };
        let Some((gold, same)) = reference else {
            continue;
        };
        let reference = exact(gold).expect("gold runs have an exact predictive");
        let gold_p = binary(table, gold, PredictiveKind::Exact.name()).unwrap_or_default();
        for predictive in &run.predictives {
            let Some(p) = binary(table, run, predictive.name.name()) else {
                continue;
            };
            let (mean_err_sd_units, sd_ratio_max) = if same {
                moment_errors(run, gold)
            } else {
                (None, None)
            };
            let (mean_abs_diff, max_abs_diff, mean_kl) = predictive_errors(p, gold_p);
            rows.push(ApproximationError {
                run: run.id.clone(),
                predictive: predictive.name,
                reference: gold.id.clone(),
                mean_abs_diff,
                max_abs_diff,
                mean_kl,
                log_loss_diff: predictive.metrics.log_loss - reference.metrics.log_loss,
                ece_diff: predictive.metrics.ece - reference.metrics.ece,
                mean_err_sd_units,
                sd_ratio_max,
                khat: run.khat,
                khat_draws: run.khat_draws,
            });
        }
    }
    rows
}

/// The mean and largest |p - q| over rows and the mean KL(Bernoulli(q) || Bernoulli(p)),
/// for predictions `p` against the gold `q`.
fn predictive_errors(p: &[f64], q: &[f64]) -> (f64, f64, f64) {
    let n = p.len().max(1) as f64;
    let diffs = p.iter().zip(q).map(|(a, b)| (a - b).abs());
    let kl = p.iter().zip(q).map(|(&a, &b)| bernoulli_kl(b, a));
    (
        diffs.clone().sum::<f64>() / n,
        diffs.fold(0.0, f64::max),
        kl.sum::<f64>() / n,
    )
}

/// KL(Bernoulli(p) || Bernoulli(q)).
pub fn bernoulli_kl(p: f64, q: f64) -> f64 {
    let (p, q) = (p.clamp(EPS, 1.0 - EPS), q.clamp(EPS, 1.0 - EPS));
    p * (p / q).ln() + (1.0 - p) * ((1.0 - p) / (1.0 - q)).ln()
}

/// The posterior-moment errors of `run` against `gold`, when both have a posterior.
fn moment_errors(run: &RunRecord, gold: &RunRecord) -> (Option<f64>, Option<f64>) {
    let (Some(a), Some(g)) = (&run.posterior, &gold.posterior) else {
        return (None, None);
    };
    if a.mean.len() != g.mean.len() || g.cov_diag.iter().any(|v| *v <= 0.0) {
        return (None, None);
    }
    let mean_err = a
        .mean
        .iter()
        .zip(&g.mean)
        .zip(&g.cov_diag)
        .map(|((m, mg), vg)| (m - mg).abs() / vg.sqrt())
        .fold(0.0, f64::max);
    let sd_ratio = a
        .cov_diag
        .iter()
        .zip(&g.cov_diag)
        .map(|(v, vg)| (v / vg).sqrt())
        .max_by(|r, s| r.ln().abs().total_cmp(&s.ln().abs()));
    (Some(mean_err), sd_ratio)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bernoulli_kl_matches_its_definition_and_is_zero_only_at_equality() {
        let (p, q) = (0.3_f64, 0.6_f64);
        let by_hand = 0.3 * (0.3_f64 / 0.6).ln() + 0.7 * (0.7_f64 / 0.4).ln();
        assert!((bernoulli_kl(p, q) - by_hand).abs() < 1e-15);
        assert_eq!(bernoulli_kl(0.25, 0.25), 0.0);
        assert!(bernoulli_kl(0.0, 1.0).is_finite());
    }

    #[test]
    fn predictive_errors_are_the_row_means_and_maxima() {
        let (mean, max, mean_kl) = predictive_errors(&[0.1, 0.5, 0.9], &[0.2, 0.5, 0.6]);
        assert!((mean - 0.4 / 3.0).abs() < 1e-15);
        assert!((max - 0.3).abs() < 1e-15);
        let kl = (bernoulli_kl(0.2, 0.1) + bernoulli_kl(0.6, 0.9)) / 3.0;
        assert!((mean_kl - kl).abs() < 1e-15);
    }
}
