//! Honest comparisons between two runs on the same test rows: for every shared run and
//! predictive (or the pairs of columns named with `--pair`), the paired-bootstrap 95 %
//! interval of the difference (B − A) in log-loss, Brier score and ECE. Rows are resampled with replacement and both runs are scored on the
//! same resample, so row-to-row difficulty cancels out of the difference.

mod best;
pub mod loo;
mod pairs;
mod read;

use std::collections::BTreeMap;
use std::path::Path;

use rand::RngExt;

use bayeslab_core::error::{Error, Result};
use bayeslab_core::metrics::{self, multiclass, percentile, Binning};
use bayeslab_core::numeric::rng;
pub use bayeslab_core::record::{Comparison, Scores, Verdict};
pub use best::versus_best;
use pairs::Matched;
pub use pairs::Pair;

use bayeslab_core::record::ExperimentRecord;

/// The most bootstrap resamples, as for a run's `[evaluation] resamples`.
pub const MAX_RESAMPLES: usize = crate::config::limits::MAX_RESAMPLES as usize;

/// The fewest bootstrap resamples, as for a run's `[evaluation] resamples`: below this the 2.5 %
/// and 97.5 % percentiles are a handful of draws, and no verdict is drawn from them.
pub const MIN_RESAMPLES: usize = crate::config::limits::MIN_RESAMPLES as usize;

/// The most row draws of one column's bootstrap (resamples x test rows): about a minute of
/// work per column, where more only takes longer.
pub const MAX_ROW_DRAWS: u64 = 10_000_000_000;

/// The most calibration bins compare accepts from a results.json: the most a run may use.
pub const MAX_BINS: usize = crate::config::limits::MAX_BINS as usize;

/// The predictions of one run directory (or of a record in memory).
#[derive(Debug, Clone)]
pub struct Predictions {
    /// The label of each test row: 0/1, or the class index for more than two classes.
    pub y: Vec<f64>,
    /// `<run>/<predictive>` -> its predictions, in column order.
    pub columns: Vec<(String, Scores)>,
    pub bins: usize,
    pub binning: Binning,
}
impl Predictions {
    pub fn from_record(r: &ExperimentRecord) -> Self {
        let table = &r.predictions;
        Predictions {
            y: table.y.clone(),
            columns: table
                .columns
                .iter()
                .map(|c| (c.name(), c.scores.clone()))
                .collect(),
            bins: r.experiment.calibration_bins,
            binning: r.experiment.calibration_binning,
        }
    }

    /// Read `results.json` (for the binning) and `predictions.csv` of a run directory; every
    /// value is checked, so a damaged file is refused with its line and column.
    pub fn from_dir(dir: &Path) -> Result<Self> {
        read::from_dir(dir)
    }
}

/// The number of bootstrap resamples and where it was set, for the message refusing it:
/// `file` is the experiment file (with `key` its key) or the command-line flag (`key` empty).
#[derive(Debug, Clone, Copy)]
pub struct Resamples<'a> {
    pub count: usize,
    pub file: &'a Path,
    pub key: &'a str,
}

impl Resamples<'_> {
    /// The largest number of resamples worth drawing for `rows` test rows.
    pub fn largest(rows: usize) -> usize {
        let by_work = MAX_ROW_DRAWS / (rows.max(1) as u64);
        MAX_RESAMPLES.min(usize::try_from(by_work).unwrap_or(usize::MAX))
    }

    /// Refuse fewer than [`MIN_RESAMPLES`], or more than [`Resamples::largest`] for `rows`
    /// test rows.
    pub fn check(&self, rows: usize) -> Result<()> {
        let largest = Self::largest(rows);
        if (MIN_RESAMPLES..=largest).contains(&self.count) {
            return Ok(());
        }
        let what = if self.key.is_empty() {
            self.count.to_string()
        } else {
            format!("{} = {}", self.key, self.count)
        };
        let message = if self.count < MIN_RESAMPLES {
            format!(
                "{what} is too few: a 95 % interval from fewer than {MIN_RESAMPLES} resamples rests on a handful of \
                 draws in each tail, too few for a verdict; use at least {MIN_RESAMPLES} (the default is 2000)"
            )
        } else {
            format!(
                "{what} is too many for {rows} test rows: beyond {MAX_RESAMPLES} resamples the 95 % interval no longer \
                 moves, and every resample redraws all rows (at most {MAX_ROW_DRAWS} row draws per column); \
                 use at most {largest} (the default is 2000)"
            )
        };
        Err(Error::config(self.file, message))
    }
}

/// Each row's loss under every metric, so that any resample is scored by sums over its rows:
/// log-loss and Brier terms, and the calibration point (the prediction and its outcome; for
/// more than two classes the top-label probability and whether that class is right).
struct Terms {
    log_loss: Vec<f64>,
    brier: Vec<f64>,
    confidence: Vec<f64>,
    outcome: Vec<f64>,
    bins: usize,
    binning: Binning,
}

impl Terms {
    fn new(scores: &Scores, y: &[f64], bins: usize, binning: Binning) -> Self {
        let (log_loss, brier, (confidence, outcome)) = match scores {
            Scores::Binary(p) => (
                p.iter()
                    .zip(y)
                    .map(|(&p, &y)| metrics::log_loss_term(p, y))
                    .collect(),
                p.iter()
                    .zip(y)
                    .map(|(&p, &y)| metrics::brier_term(p, y))
                    .collect(),
                (p.clone(), y.to_vec()),
            ),
            Scores::Classes(rows) => (
                rows.iter()
                    .zip(y)
                    .map(|(r, &y)| multiclass::log_loss_term(r, y))
                    .collect(),
                rows.iter()
                    .zip(y)
                    .map(|(r, &y)| multiclass::brier_term(r, y))
                    .collect(),
                rows.iter()
                    .zip(y)
                    .map(|(r, &y)| multiclass::top_hit(r, y))
                    .unzip(),
            ),
        };
        Terms {
            log_loss,
            brier,
            confidence,
            outcome,
            bins,
            binning,
        }
    }

    /// Metric `m` (an index into [`METRICS`]) over every row.
    fn whole(&self, m: usize) -> f64 {
        let n = self.log_loss.len() as f64;
        match m {
            0 => self.log_loss.iter().sum::<f64>() / n,
            1 => self.brier.iter().sum::<f64>() / n,
            _ => metrics::reliability(&self.confidence, &self.outcome, self.bins, self.binning).ece,
        }
    }

    /// What [`Terms::resampled`] scores the ECE of a resample with.
    fn ece_resampler(&self) -> metrics::Resampler<'_> {
        metrics::Resampler::new(&self.confidence, &self.outcome, self.bins, self.binning)
    }

    /// Metric `m` over the rows `idx` (with repeats); `ece` is this column's
    /// [`Terms::ece_resampler`].
    fn resampled(&self, m: usize, idx: &[usize], ece: &mut metrics::Resampler) -> f64 {
        let n = idx.len() as f64;
        match m {
            0 => idx.iter().map(|&i| self.log_loss[i]).sum::<f64>() / n,
            1 => idx.iter().map(|&i| self.brier[i]).sum::<f64>() / n,
            _ => ece.ece(idx.iter().copied()),
        }
    }
}

/// Log-loss, Brier score and ECE: of the probability of class 1 for two classes, and for more
/// the multiclass log-loss, the multiclass Brier score and the top-label ECE
/// (crates/core/src/metrics/multiclass.rs), as the runs' own results.json report them.
pub const METRICS: [&str; 3] = ["log_loss", "brier", "ece"];

/// Why the test rows of `b` are not those of `a`, if they are not.
fn test_set_difference(a: &[f64], b: &[f64]) -> Option<String> {
    if a.len() != b.len() {
        return Some(format!("{} test rows against {}", b.len(), a.len()));
    }
    let i = a.iter().zip(b).position(|(x, y)| x != y)?;
    Some(format!(
        "test row {i} has the label {} against {}",
        b[i], a[i]
    ))
}

/// Compare every column shared by `a` and `b`. `a_name`/`b_name` name them in errors.
pub fn compare(
    a: &Predictions,
    b: &Predictions,
    resamples: Resamples<'_>,
    seed: u64,
    a_name: &Path,
    b_name: &Path,
) -> Result<Vec<Comparison>> {
    let n = check_rows(a, b, resamples, a_name, b_name)?;
    let matched = pairs::shared(a, b, a_name, b_name)?;
    Ok(bootstrap(&matched, a, b, n, resamples, seed))
}

/// Compare the columns named by `pairs` (A's column against B's), in their order; `a` and
/// `b` may be the same run directory, to compare two of its predictives.
pub fn compare_pairs(
    a: &Predictions,
    b: &Predictions,
    pairs: &[Pair],
    resamples: Resamples<'_>,
    seed: u64,
    a_name: &Path,
    b_name: &Path,
) -> Result<Vec<Comparison>> {
    let n = check_rows(a, b, resamples, a_name, b_name)?;
    let matched = pairs::named(a, b, pairs, a_name, b_name)?;
    Ok(bootstrap(&matched, a, b, n, resamples, seed))
}

/// Refuse different or no test rows and too many resamples; the number of test rows.
fn check_rows(
    a: &Predictions,
    b: &Predictions,
    resamples: Resamples<'_>,
    a_name: &Path,
    b_name: &Path,
) -> Result<usize> {
    if let Some(why) = test_set_difference(&a.y, &b.y) {
        return Err(Error::data(
            b_name,
            format!(
                "its test rows differ from those of {} ({why}): a paired comparison needs the same test set; \
                 run both experiments on the same data and split",
                a_name.display(),
            ),
        ));
    }
    let n = a.y.len();
    if n == 0 {
        return Err(Error::data(
            b_name,
            "there are no test rows to compare: give the experiment a test split",
        ));
    }
    resamples.check(n)?;
    Ok(n)
}

/// The paired bootstrap of every matched column over the `n` test rows.
fn bootstrap(
    matched: &[Matched<'_>],
    a: &Predictions,
    b: &Predictions,
    n: usize,
    resamples: Resamples<'_>,
    seed: u64,
) -> Vec<Comparison> {
    let mut out = Vec::new();
    let mut idx = vec![0usize; n];
    for m in matched {
        let (run, predictive) = m.a_name.split_once('/').unwrap_or((m.a_name, ""));
        // B's column is named only when it is not A's, so default comparisons read as before.
        let b_column = (m.b_name != m.a_name).then(|| m.b_name.to_string());
        // ECE depends on the bins: both sides are scored on A's, and a line says so when B's
        // run used others (two identical predictions must not differ in ECE).
        let ta = Terms::new(m.a, &a.y, a.bins, a.binning);
        let tb = Terms::new(m.b, &b.y, a.bins, a.binning);
        let rebinned = (a.bins, a.binning) != (b.bins, b.binning);
        let (mut ea, mut eb) = (ta.ece_resampler(), tb.ece_resampler());
        // The same stream for every column: every column is scored on the same resamples,
        // drawn again rather than kept (resamples x rows indices would not fit).
        let mut stream = rng::stream(seed, "compare");
        let mut diffs: [Vec<f64>; 3] = std::array::from_fn(|_| Vec::with_capacity(resamples.count));
        for _ in 0..resamples.count {
            for i in idx.iter_mut() {
                *i = stream.random_range(0..n);
            }
            for (m, d) in diffs.iter_mut().enumerate() {
                d.push(tb.resampled(m, &idx, &mut eb) - ta.resampled(m, &idx, &mut ea));
            }
        }
        for (m, mut diffs) in diffs.into_iter().enumerate() {
            let (va, vb) = (ta.whole(m), tb.whole(m));
            diffs.sort_by(f64::total_cmp);
            let (ci_low, ci_high) = (percentile(&diffs, 0.025), percentile(&diffs, 0.975));
            let verdict = verdict(ci_low, ci_high, resamples.count);
            let note = (rebinned && METRICS[m] == "ece").then(|| {
                format!(
                    "B's ECE rescored on A's {} {} bins (B's run used {} {}): ECE depends on the bins",
                    a.bins,
                    a.binning.name(),
                    b.bins,
                    b.binning.name()
                )
            });
            out.push(Comparison {
                run: run.to_string(),
                predictive: predictive.to_string(),
                metric: METRICS[m].to_string(),
                a: va,
                b: vb,
                diff: vb - va,
                ci_low,
                ci_high,
                verdict,
                b_column: b_column.clone(),
                note,
            });
        }
    }
    out
}

/// The verdict of a 95 % interval of B − A from `resamples` resamples: improved or worse only
/// when it excludes zero, and never from fewer than [`MIN_RESAMPLES`].
fn verdict(ci_low: f64, ci_high: f64, resamples: usize) -> Verdict {
    if resamples < MIN_RESAMPLES {
        Verdict::TooFewResamples
    } else if ci_high < 0.0 {
        Verdict::Improved
    } else if ci_low > 0.0 {
        Verdict::Worse
    } else {
        Verdict::WithinNoise
    }
}

/// The heading that opens comparison.md, by which `compare` recognises its own file.
pub const MD_HEADING: &str = "# bayeslab comparison";

/// Refuse an output directory `dir` for comparison.json and comparison.md before any work:
/// it must be a directory (or not exist yet, under a directory), and each of the two files
/// absent or an earlier comparison (files/owned.rs).
pub fn check_out(dir: &Path) -> Result<()> {
    use bayeslab_core::files::{check_ancestors, check_file_out, Own};
    check_ancestors(&dir.join("comparison.json"), "--out")?;
    if std::fs::metadata(dir).is_ok_and(|m| !m.is_dir()) {
        return Err(Error::config(
            dir,
            "refusing to write --out here: it is a file, and compare writes comparison.json and comparison.md into a \
             directory; choose another --out",
        ));
    }
    check_file_out(&dir.join("comparison.json"), "--out", &Own::Comparison, &[])?;
    check_file_out(
        &dir.join("comparison.md"),
        "--out",
        &Own::Heading(MD_HEADING),
        &[],
    )
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
mod tests;
