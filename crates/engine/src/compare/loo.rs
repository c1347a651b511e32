//! `bayeslab compare` by leave-one-out: each run's pointwise elpd from the two directories'
//! results.json (`runs[].loo.pointwise`), and the difference B - A of elpd_loo with its
//! standard error paired over the training rows (Vehtari, Gelman & Gabry 2017, section 5.2).
//! Both runs must have scored the same training rows: the same count and the same data files
//! (their digests), and `compare` has already refused different test rows.

use std::path::Path;

use serde_json::Value;

use super::Pair;
use bayeslab_core::error::{Error, Result};
use bayeslab_core::metrics::loo::elpd_difference;
use bayeslab_core::record::LooDifference;

/// One directory's runs with a LOO: (run id, pointwise elpd), and what fixes the training rows.
pub struct LooRuns {
    /// (run id, pointwise elpd, Monte-Carlo standard error of elpd_loo).
    runs: Vec<(String, Vec<f64>, f64)>,
    /// (rows_train, data digests) of the experiment.
    rows: (u64, Value),
}

impl LooRuns {
    /// The runs with a LOO in `dir`/results.json (none for a record written before LOO).
    pub fn from_dir(dir: &Path) -> Result<LooRuns> {
        let path = dir.join("results.json");
        let text = std::fs::read_to_string(&path)
            .map_err(|e| Error::data(&path, format!("cannot read ({e})")))?;
        let json: Value = serde_json::from_str(&text)
            .map_err(|e| Error::data(&path, format!("not valid JSON: {e}")))?;
        let mut runs = Vec::new();
        for run in json["runs"].as_array().into_iter().flatten() {
            let (Some(id), Some(points)) = (run["id"].as_str(), run["loo"]["pointwise"].as_array())
            else {
                continue;
            };
            let elpd: Option<Vec<f64>> = points.iter().map(|p| p["elpd"].as_f64()).collect();
            let elpd = elpd.ok_or_else(|| {
                Error::data(
                    &path,
                    format!("runs[{id}].loo.pointwise has an elpd that is not a number; run the experiment again to rewrite it"),
                )
            })?;
            let mcse = run["loo"]["mcse"].as_f64().unwrap_or(0.0);
            runs.push((id.to_string(), elpd, mcse));
        }
        let rows = (
            json["dataset"]["rows_train"].as_u64().unwrap_or(0),
            json["provenance"]["data_sha256"].clone(),
        );
        Ok(LooRuns { runs, rows })
    }

    fn get(&self, id: &str) -> Option<(&[f64], f64)> {
        self.runs
            .iter()
            .find(|(r, _, _)| r == id)
            .map(|(_, e, m)| (e.as_slice(), *m))
    }
}

/// B - A for every run with a LOO in both (or the runs of `pairs`, by their run part); empty
/// when the two experiments did not score the same training rows.
pub fn differences(a: &LooRuns, b: &LooRuns, pairs: &[Pair]) -> Vec<LooDifference> {
    if a.rows != b.rows {
        return Vec::new();
    }
    let wanted: Vec<(String, String)> = if pairs.is_empty() {
        a.runs
            .iter()
            .map(|(id, _, _)| (id.clone(), id.clone()))
            .collect()
    } else {
        let run = |column: &str| column.split('/').next().unwrap_or(column).to_string();
        let mut w: Vec<(String, String)> = pairs.iter().map(|p| (run(&p.a), run(&p.b))).collect();
        w.dedup();
        w
    };
    wanted
        .into_iter()
        .filter_map(|(ra, rb)| {
            let ((ea, ma), (eb, mb)) = (a.get(&ra)?, b.get(&rb)?);
            if ea.len() != eb.len() {
                return None;
            }
            let (diff, se_diff) = elpd_difference(ea, eb);
            Some(LooDifference {
                b_run: (ra != rb).then(|| rb.clone()),
                run: ra,
                a: ea.iter().sum(),
                b: eb.iter().sum(),
                diff,
                se_diff,
                mcse_diff: ma.hypot(mb),
            })
        })
        .collect()
}
