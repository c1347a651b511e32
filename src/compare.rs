//! Honest comparisons between two runs on the same test rows: for every shared run and
//! predictive, the paired-bootstrap 95 % interval of the difference (B − A) in log-loss,
//! Brier score and ECE. Rows are resampled with replacement and both runs are scored on the
//! same resample, so row-to-row difficulty cancels out of the difference.

use std::collections::BTreeMap;
use std::path::Path;

use rand::RngExt;
use serde::Serialize;

use crate::error::{Error, Result};
use crate::metrics::{self, percentile, Binning};
use crate::numeric::rng;
use crate::record::ExperimentRecord;

/// The predictions of one run directory (or of a record in memory).
#[derive(Debug, Clone)]
pub struct Predictions {
    pub y: Vec<f64>,
    /// `<run>/<predictive>` -> p(y = 1) per test row, in column order.
    pub columns: Vec<(String, Vec<f64>)>,
    pub bins: usize,
    pub binning: Binning,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    Improved,
    Worse,
    WithinNoise,
}

impl Verdict {
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Improved => "improved",
            Verdict::Worse => "worse",
            Verdict::WithinNoise => "within-noise",
        }
    }
}

/// One line of comparison.json. Lower is better for all three metrics, so a negative `diff`
/// is an improvement of B over A.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comparison {
    pub run: String,
    pub predictive: String,
    pub metric: String,
    pub a: f64,
    pub b: f64,
    pub diff: f64,
    pub ci_low: f64,
    pub ci_high: f64,
    pub verdict: Verdict,
}

impl Predictions {
    pub fn from_record(r: &ExperimentRecord) -> Self {
        let columns = r
            .runs
            .iter()
            .flat_map(|run| {
                run.predictives
                    .iter()
                    .map(move |p| (format!("{}/{}", run.id, p.name), p.probabilities.clone()))
            })
            .collect();
        Predictions {
            y: r.test_y.clone(),
            columns,
            bins: r.experiment.calibration_bins,
            binning: r.experiment.calibration_binning,
        }
    }

    /// Read `results.json` (for the binning) and `predictions.csv` of a run directory.
    pub fn from_dir(dir: &Path) -> Result<Self> {
        let results = dir.join("results.json");
        let text = std::fs::read_to_string(&results).map_err(|e| {
            Error::data(
                &results,
                format!("cannot read ({e}); is this a bayeslab run directory?"),
            )
        })?;
        let json: serde_json::Value = serde_json::from_str(&text)
            .map_err(|e| Error::data(&results, format!("not valid JSON: {e}")))?;
        let bins = json["experiment"]["calibration_bins"]
            .as_u64()
            .unwrap_or(10)
            .max(1) as usize;
        let binning = json["experiment"]["calibration_binning"]
            .as_str()
            .and_then(Binning::parse)
            .unwrap_or_default();
        let path = dir.join("predictions.csv");
        let text = std::fs::read_to_string(&path)
            .map_err(|e| Error::data(&path, format!("cannot read: {e}")))?;
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next().unwrap_or("").split(',').collect();
        if header.len() < 2 || header[0] != "row" || header[1] != "y" {
            return Err(Error::data(
                &path,
                "the header must start with `row,y`; is this a bayeslab predictions.csv?",
            ));
        }
        let mut y = Vec::new();
        let mut cols: Vec<Vec<f64>> = vec![Vec::new(); header.len() - 2];
        for (i, line) in lines.enumerate() {
            let fields: Vec<&str> = line.split(',').collect();
            if fields.len() != header.len() {
                return Err(Error::data(
                    &path,
                    format!(
                        "line {} has {} fields, the header {}",
                        i + 2,
                        fields.len(),
                        header.len()
                    ),
                ));
            }
            let parse = |s: &str| {
                s.parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite())
                    .ok_or_else(|| {
                        Error::data(&path, format!("line {}: \"{s}\" is not a number", i + 2))
                    })
            };
            y.push(parse(fields[1])?);
            for (c, f) in cols.iter_mut().zip(&fields[2..]) {
                c.push(parse(f)?);
            }
        }
        // Monte-Carlo standard errors are not predictions: they are not compared.
        let columns = header[2..]
            .iter()
            .map(|h| h.to_string())
            .zip(cols)
            .filter(|(h, _)| !h.ends_with("_mcse"))
            .collect();
        Ok(Predictions {
            y,
            columns,
            bins,
            binning,
        })
    }
}

fn metric(name: &str, p: &[f64], y: &[f64], bins: usize, binning: Binning) -> f64 {
    match name {
        "log_loss" => metrics::log_loss(p, y),
        "brier" => metrics::brier(p, y),
        _ => metrics::reliability(p, y, bins, binning).ece,
    }
}

pub const METRICS: [&str; 3] = ["log_loss", "brier", "ece"];

/// Compare every column shared by `a` and `b`. `a_name`/`b_name` name them in errors.
pub fn compare(
    a: &Predictions,
    b: &Predictions,
    resamples: usize,
    seed: u64,
    a_name: &Path,
    b_name: &Path,
) -> Result<Vec<Comparison>> {
    if a.y != b.y {
        return Err(Error::data(
            b_name,
            format!(
                "its test rows differ from those of {} ({} vs {} rows, or different labels): a paired comparison needs the same test set",
                a_name.display(),
                b.y.len(),
                a.y.len()
            ),
        ));
    }
    let shared: Vec<(&String, &Vec<f64>, &Vec<f64>)> = a
        .columns
        .iter()
        .filter_map(|(name, pa)| {
            b.columns
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, pb)| (name, pa, pb))
        })
        .collect();
    if shared.is_empty() {
        return Err(Error::data(
            b_name,
            format!(
                "no run/predictive column is shared with {}",
                a_name.display()
            ),
        ));
    }
    let n = a.y.len();
    let mut stream = rng::stream(seed, "compare");
    // One set of resampled row indices, shared by every column and metric.
    let draws: Vec<Vec<usize>> = (0..resamples)
        .map(|_| (0..n).map(|_| stream.random_range(0..n)).collect())
        .collect();
    let mut out = Vec::new();
    for (name, pa, pb) in shared {
        let (run, predictive) = name.split_once('/').unwrap_or((name.as_str(), ""));
        for m in METRICS {
            let va = metric(m, pa, &a.y, a.bins, a.binning);
            let vb = metric(m, pb, &b.y, b.bins, b.binning);
            let mut diffs: Vec<f64> = draws
                .iter()
                .map(|idx| {
                    let y: Vec<f64> = idx.iter().map(|&i| a.y[i]).collect();
                    let sa: Vec<f64> = idx.iter().map(|&i| pa[i]).collect();
                    let sb: Vec<f64> = idx.iter().map(|&i| pb[i]).collect();
                    metric(m, &sb, &y, b.bins, b.binning) - metric(m, &sa, &y, a.bins, a.binning)
                })
                .collect();
            diffs.sort_by(f64::total_cmp);
            let (ci_low, ci_high) = (percentile(&diffs, 0.025), percentile(&diffs, 0.975));
            let verdict = if ci_high < 0.0 {
                Verdict::Improved
            } else if ci_low > 0.0 {
                Verdict::Worse
            } else {
                Verdict::WithinNoise
            };
            out.push(Comparison {
                run: run.to_string(),
                predictive: predictive.to_string(),
                metric: m.to_string(),
                a: va,
                b: vb,
                diff: vb - va,
                ci_low,
                ci_high,
                verdict,
            });
        }
    }
    Ok(out)
}

/// Group comparisons by run for display.
pub fn by_run(rows: &[Comparison]) -> BTreeMap<&str, Vec<&Comparison>> {
    let mut m: BTreeMap<&str, Vec<&Comparison>> = BTreeMap::new();
    for r in rows {
        m.entry(r.run.as_str()).or_default().push(r);
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    fn preds(y: Vec<f64>, p: Vec<f64>) -> Predictions {
        Predictions {
            y,
            columns: vec![("m/plugin".into(), p)],
            bins: 10,
            binning: Binning::EqualWidth,
        }
    }

    #[test]
    fn a_uniform_improvement_has_a_degenerate_interval() {
        // Every row is positive; A predicts 0.5, B 0.8: the per-row Brier loss is 0.25 and
        // 0.04 on every row, so every resample's difference is exactly -0.21.
        let a = preds(vec![1.0; 20], vec![0.5; 20]);
        let b = preds(vec![1.0; 20], vec![0.8; 20]);
        let rows = compare(&a, &b, 200, 1, Path::new("A"), Path::new("B")).unwrap();
        let brier = rows.iter().find(|r| r.metric == "brier").unwrap();
        assert!((brier.diff + 0.21).abs() < 1e-12);
        assert!((brier.ci_low + 0.21).abs() < 1e-12 && (brier.ci_high + 0.21).abs() < 1e-12);
        assert_eq!(brier.verdict, Verdict::Improved);
        let ll = rows.iter().find(|r| r.metric == "log_loss").unwrap();
        assert!((ll.diff + (0.8f64.ln() - 0.5f64.ln())).abs() < 1e-12);
    }

    #[test]
    fn two_rows_give_the_enumerable_bootstrap_distribution() {
        // A's Brier losses are 0.25 on both rows; B's are (1 - p1)^2 = 0.2 and p2^2 = 0.35, so
        // the per-row differences are d1 = -0.05 and d2 = +0.1. A resample is {1,1}, {1,2},
        // {2,1} or {2,2} with probability 1/4 each, so the mean difference is -0.05 (1/4),
        // 0.025 (1/2) or 0.1 (1/4): the 95 % interval is [-0.05, 0.1], within noise.
        let y = vec![1.0, 0.0];
        let a = preds(y.clone(), vec![0.5, 0.5]);
        let b = preds(y, vec![1.0 - 0.2f64.sqrt(), 0.35f64.sqrt()]);
        let rows = compare(&a, &b, 4000, 3, Path::new("A"), Path::new("B")).unwrap();
        let brier = rows.iter().find(|r| r.metric == "brier").unwrap();
        assert!((brier.ci_low + 0.05).abs() < 1e-12, "{}", brier.ci_low);
        assert!((brier.ci_high - 0.1).abs() < 1e-12, "{}", brier.ci_high);
        assert!((brier.diff - 0.025).abs() < 1e-12);
        assert_eq!(brier.verdict, Verdict::WithinNoise);
    }

    #[test]
    fn different_test_rows_are_refused() {
        let a = preds(vec![1.0, 0.0], vec![0.5, 0.5]);
        let b = preds(vec![1.0, 1.0], vec![0.5, 0.5]);
        let e = compare(&a, &b, 10, 0, Path::new("A"), Path::new("B"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("same test set"), "{e}");
    }
}
