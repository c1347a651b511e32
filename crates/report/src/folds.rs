//! K-fold cross-validation's summary (`[data] split = { folds = K }`, config/folds.rs): the
//! folds run as a sweep over `data.split.fold`; here every run and predictive gets each
//! metric's mean over the folds with its standard error sd / sqrt(folds), and its elpd by
//! K-fold, sum_i ln p(y_i | rows outside i's fold) over every row (averaged over repeats),
//! with the standard error sqrt(N) sd of the pointwise terms (docs/maths.md §11.5). The fold
//! standard errors treat the folds as independent, which they are not quite (their training
//! sets overlap), so they are somewhat optimistic (Bengio & Grandvalet 2004).

use serde::Serialize;

use super::tables::{Cell, Table, METRICS};
use bayeslab_core::metrics::loo::sum_se;
use bayeslab_core::metrics::{self, multiclass};
use bayeslab_core::record::{Scores, SweepRecord};
use bayeslab_engine::config::folds::FOLD_KEY;

/// sweep.json `cross_validation`: one run and predictive over every fold.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FoldSummary {
    pub run: String,
    pub predictive: String,
    pub folds: usize,
    /// (metric, mean over folds, its standard error), in the reports' column order.
    pub metrics: Vec<(String, f64, f64)>,
    /// sum over rows of ln p(y_i | the other folds), averaged over repeats.
    pub elpd_kfold: f64,
    pub elpd_se: f64,
}

/// The summaries of a K-fold sweep; empty for any other sweep.
pub fn summaries(sweep: &SweepRecord) -> Vec<FoldSummary> {
    if sweep.key != FOLD_KEY || sweep.points.is_empty() {
        return Vec::new();
    }
    let first = &sweep.points[0].record;
    let mut out = Vec::new();
    for run in &first.runs {
        for p in &run.predictives {
            out.push(summary(sweep, &run.id, p.name.name()));
        }
    }
    out
}

fn summary(sweep: &SweepRecord, run: &str, predictive: &str) -> FoldSummary {
    let mut per_fold: Vec<Vec<f64>> = vec![Vec::new(); METRICS.len()];
    let mut terms = Vec::new();
    for point in &sweep.points {
        let r = &point.record;
        let found = r
            .runs
            .iter()
            .find(|x| x.id == run)
            .and_then(|x| x.predictives.iter().find(|q| q.name.name() == predictive));
        if let Some(q) = found {
            for (m, (_, get, _, _)) in METRICS.iter().enumerate() {
                per_fold[m].extend(get(&q.metrics));
            }
        }
        let table = &r.predictions;
        if let Some(c) = table
            .columns
            .iter()
            .find(|c| c.run == run && c.predictive == predictive)
        {
            terms.extend(log_densities(&c.scores, &table.y));
        }
    }
    let repeats = sweep_repeats(sweep);
    FoldSummary {
        run: run.to_string(),
        predictive: predictive.to_string(),
        folds: sweep.points.len(),
        metrics: METRICS
            .iter()
            .zip(&per_fold)
            .filter(|(_, v)| !v.is_empty())
            .map(|((name, _, _, _), v)| {
                let n = v.len() as f64;
                (name.to_string(), v.iter().sum::<f64>() / n, sum_se(v) / n)
            })
            .collect(),
        elpd_kfold: terms.iter().sum::<f64>() / repeats as f64,
        elpd_se: sum_se(&terms) / (repeats as f64).sqrt(),
    }
}

/// The number of repeats: every repeat tests each row once, so the folds' test rows over all
/// points are the rows times the repeats.
fn sweep_repeats(sweep: &SweepRecord) -> usize {
    let d = &sweep.points[0].record.dataset;
    let rows = (d.rows_train + d.rows_test).max(1);
    let tested: usize = sweep
        .points
        .iter()
        .map(|p| p.record.dataset.rows_test)
        .sum();
    (tested / rows).max(1)
}

/// ln p(y_i) of each test row under one prediction column (clipped as the log-loss is).
fn log_densities(scores: &Scores, y: &[f64]) -> Vec<f64> {
    match scores {
        Scores::Binary(p) => p
            .iter()
            .zip(y)
            .map(|(&p, &y)| -metrics::log_loss_term(p, y))
            .collect(),
        Scores::Classes(rows) => rows
            .iter()
            .zip(y)
            .map(|(r, &y)| -multiclass::log_loss_term(r, y))
            .collect(),
    }
}

/// The reports' cross-validation table: mean ± se over folds per metric, and elpd by K-fold.
pub fn table(rows: &[FoldSummary]) -> Table {
    let mut headers = vec!["run".to_string(), "predictive".to_string()];
    let names: Vec<String> = rows
        .first()
        .map(|r| r.metrics.iter().map(|(n, _, _)| n.clone()).collect())
        .unwrap_or_default();
    headers.extend(names.iter().cloned());
    headers.push("elpd (K-fold)".into());
    let cells = rows
        .iter()
        .map(|r| {
            let mut cells: Vec<Cell> = vec![r.run.as_str().into(), r.predictive.as_str().into()];
            cells.extend(
                r.metrics
                    .iter()
                    .map(|(_, mean, se)| Cell::from(format!("{mean:.4} ± {se:.4}"))),
            );
            cells.push(format!("{:.2} ± {:.2}", r.elpd_kfold, r.elpd_se).into());
            cells
        })
        .collect();
    let columns = headers.len();
    Table {
        headers,
        numeric: (0..columns).map(|i| i >= 2).collect(),
        rows: cells,
    }
}

/// What the table means, under it in both reports.
pub fn note(rows: &[FoldSummary]) -> String {
    let folds = rows.first().map_or(0, |r| r.folds);
    format!(
        "K-fold cross-validation over {folds} folds: each metric's mean over the folds ± its standard error (sd / √folds; \
         somewhat optimistic, as the folds' training rows overlap). elpd (K-fold): Σ ln p(yᵢ | the other folds) over every row \
         (higher is better; averaged over repeats), ± √N · sd of the row terms. Each fold's full report is in its folder `{FOLD_KEY}=<k>/`."
    )
}
