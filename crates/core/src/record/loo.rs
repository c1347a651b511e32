//! Leave-one-out cross-validation of each run (PSIS-LOO, docs/maths.md §11) and the comparison
//! of the runs by their expected log predictive density.

use serde::Serialize;

use crate::numeric::psis::KClass;

/// results.json `runs[].loo`: a run's PSIS-LOO on its training rows.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct LooRecord {
    /// elpd_loo = sum_i ln p(y_i | y_-i) over the training rows (higher is better).
    pub elpd_loo: f64,
    /// Its standard error, sqrt(N) times the sample sd of the pointwise elpd.
    pub se: f64,
    /// The effective number of parameters, lpd - elpd_loo.
    pub p_loo: f64,
    /// The Monte-Carlo standard error of elpd_loo from the finite draws (docs/maths.md §11.6):
    /// two runs of one model differ by about this much even when both are right.
    pub mcse: f64,
    pub draws: usize,
    /// Whether the draws are the posterior's (a sampler) or an approximation's, corrected by
    /// importance weights p(y, w) / q(w) so that the estimate is the exact model's.
    pub draws_from: LooDraws,
    /// How many rows' Pareto k fall in each class, before refitting.
    pub k_counts: KCounts,
    pub k_max: f64,
    /// Training rows (0-based, in training order) whose k was above 0.7 and whose elpd was
    /// computed again by refitting the run without them (exact LOO for those rows).
    pub refitted_rows: Vec<usize>,
    /// Rows with k above 0.7 left unrefitted (above `[evaluation] loo_refits`): their elpd is
    /// the PSIS estimate, which may be badly wrong.
    pub unrefitted_rows: Vec<usize>,
    pub seconds: f64,
    /// Every training row's elpd, p_loo share and k, in training order (what the paired
    /// comparison and `bayeslab compare` read).
    pub pointwise: Vec<LooPoint>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LooDraws {
    Posterior,
    CorrectedApproximation,
    /// No draws: a conjugate generative model refitted in closed form without each row, its
    /// exact predictive at the row (every k is 0: nothing is importance-sampled).
    Exact,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct LooPoint {
    pub elpd: f64,
    pub p: f64,
    /// `null` in JSON when no tail could be fitted (infinite).
    pub k: f64,
}

/// Rows per Pareto-k class (numeric/psis.rs [`KClass`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct KCounts {
    pub good: usize,
    pub more_draws: usize,
    pub bad: usize,
    pub very_bad: usize,
}

impl KCounts {
    pub fn of(ks: impl Iterator<Item = f64>, draws: usize) -> KCounts {
        let mut c = KCounts::default();
        for k in ks {
            match KClass::of(k, draws) {
                KClass::Good => c.good += 1,
                KClass::MoreDraws => c.more_draws += 1,
                KClass::Bad => c.bad += 1,
                KClass::VeryBad => c.very_bad += 1,
            }
        }
        c
    }
}

impl LooRecord {
    /// Whether every row's elpd can be trusted: none is left with k above 0.7.
    pub fn reliable(&self) -> bool {
        self.unrefitted_rows.is_empty()
    }
}

/// results.json `loo_comparison`: one row per run with a LOO, best first.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct LooComparison {
    pub run: String,
    pub elpd_loo: f64,
    pub se: f64,
    /// elpd_loo of this run minus the best run's (0 for the best; negative otherwise).
    pub elpd_diff: f64,
    /// The standard error of the difference, paired over the training rows.
    pub se_diff: f64,
    /// The Monte-Carlo standard error of the difference, sqrt(mcse^2 + mcse_best^2): the two
    /// estimates' own noise from their finite draws (0 for the best run itself).
    pub mcse_diff: f64,
    /// Whether the difference is beyond noise: more than two standard errors
    /// ([`LooComparison::total_se`]) below zero.
    pub worse_beyond_noise: bool,
    pub p_loo: f64,
    /// Rows with k above 0.7 that were not refitted: the estimate is not reliable.
    pub unreliable_rows: usize,
}

/// The comparison table of `runs` (id, LOO) by elpd: the best first, each run's difference to
/// it with the paired standard error (Vehtari, Gelman & Gabry 2017, section 5.2).
pub fn compare_loo(runs: &[(&str, &LooRecord)]) -> Vec<LooComparison> {
    let Some(best) = runs
        .iter()
        .max_by(|a, b| a.1.elpd_loo.total_cmp(&b.1.elpd_loo))
    else {
        return Vec::new();
    };
    let mut rows: Vec<LooComparison> = runs
        .iter()
        .filter(|(_, l)| l.pointwise.len() == best.1.pointwise.len())
        .map(|(id, l)| {
            let d: Vec<f64> = l
                .pointwise
                .iter()
                .zip(&best.1.pointwise)
                .map(|(p, q)| p.elpd - q.elpd)
                .collect();
            let (diff, se_diff) = (d.iter().sum::<f64>(), crate::metrics::loo::sum_se(&d));
            let mcse_diff = if *id == best.0 {
                0.0
            } else {
                l.mcse.hypot(best.1.mcse)
            };
            LooComparison {
                run: id.to_string(),
                elpd_loo: l.elpd_loo,
                se: l.se,
                elpd_diff: diff,
                se_diff,
                mcse_diff,
                worse_beyond_noise: diff < -2.0 * se_diff.hypot(mcse_diff),
                p_loo: l.p_loo,
                unreliable_rows: l.unrefitted_rows.len(),
            }
        })
        .collect();
    rows.sort_by(|a, b| b.elpd_diff.total_cmp(&a.elpd_diff));
    rows
}

impl LooComparison {
    /// The difference's whole standard error: the paired one and the Monte-Carlo one together.
    pub fn total_se(&self) -> f64 {
        self.se_diff.hypot(self.mcse_diff)
    }
}

/// `bayeslab compare`: one run's elpd_loo in A and in B and the paired difference B - A.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct LooDifference {
    /// A's run, and B's when it is another (`--pair`).
    pub run: String,
    pub b_run: Option<String>,
    pub a: f64,
    pub b: f64,
    /// elpd_loo of B minus A's (positive: B predicts better).
    pub diff: f64,
    /// Its standard error, paired over the training rows.
    pub se_diff: f64,
    /// The Monte-Carlo standard error of the difference (0 when a results.json predates it).
    pub mcse_diff: f64,
}

impl LooDifference {
    /// The paired and the Monte-Carlo standard errors together.
    pub fn total_se(&self) -> f64 {
        self.se_diff.hypot(self.mcse_diff)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(elpd: &[f64], mcse: f64) -> LooRecord {
        LooRecord {
            elpd_loo: elpd.iter().sum(),
            se: 1.0,
            p_loo: 1.0,
            mcse,
            draws: 4000,
            draws_from: LooDraws::Posterior,
            k_counts: KCounts::default(),
            k_max: 0.0,
            refitted_rows: Vec::new(),
            unrefitted_rows: Vec::new(),
            seconds: 0.0,
            pointwise: elpd
                .iter()
                .map(|&e| LooPoint {
                    elpd: e,
                    p: 0.1,
                    k: 0.1,
                })
                .collect(),
        }
    }

    #[test]
    fn a_difference_within_the_monte_carlo_error_is_a_tie_and_beyond_it_is_worse() {
        // B trails A by 0.002 on each of 30 rows: Δ = -0.06 with a paired se of 0, which alone
        // would call B worse. Each estimate's Monte-Carlo error of 0.05 makes it a tie.
        let a: Vec<f64> = (0..30).map(|i| -0.5 - 0.01 * i as f64).collect();
        let b: Vec<f64> = a.iter().map(|e| e - 0.002).collect();
        let rows = compare_loo(&[("a", &run(&a, 0.05)), ("b", &run(&b, 0.05))]);
        assert_eq!(rows[0].run, "a");
        let second = &rows[1];
        assert!((second.elpd_diff + 0.06).abs() < 1e-12);
        assert!(second.se_diff < 1e-12);
        assert!((second.mcse_diff - 0.05f64.hypot(0.05)).abs() < 1e-15);
        assert!(!second.worse_beyond_noise, "{second:?}");
        // Without Monte-Carlo error (exact LOO on both sides) the same Δ is beyond noise.
        let rows = compare_loo(&[("a", &run(&a, 0.0)), ("b", &run(&b, 0.0))]);
        assert!(rows[1].worse_beyond_noise);
        assert_eq!(rows[0].mcse_diff, 0.0);
    }
}
