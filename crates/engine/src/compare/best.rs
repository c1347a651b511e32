//! Every predictive of one experiment against the best one, per metric: the paired bootstrap
//! of [`super::compare`] with the best column as A. A view marks a value best only when every
//! other is worse beyond noise (the 95 % interval of its difference excludes zero), and a
//! value whose interval includes zero as tied with the best.

use rand::RngExt;

use super::{Predictions, Terms, METRICS};
use bayeslab_core::metrics::percentile;
use bayeslab_core::numeric::rng;
use bayeslab_core::record::{Standing, VersusBest};

/// Each column of `p` against the best column on each metric of [`METRICS`], from `resamples`
/// resamples of the test rows drawn from `seed`; empty with fewer than two columns, no test
/// rows or no resamples. Every column is scored on the same resamples.
pub fn versus_best(p: &Predictions, resamples: usize, seed: u64) -> Vec<VersusBest> {
    let n = p.y.len();
    if p.columns.len() < 2 || n == 0 || resamples == 0 {
        return Vec::new();
    }
    let terms: Vec<Terms> = p
        .columns
        .iter()
        .map(|(_, s)| Terms::new(s, &p.y, p.bins, p.binning))
        .collect();
    // values[column][metric][resample]
    let mut values = vec![vec![Vec::with_capacity(resamples); METRICS.len()]; terms.len()];
    let mut stream = rng::stream(seed, "versus-best");
    let mut idx = vec![0usize; n];
    let mut eces: Vec<_> = terms.iter().map(|t| t.ece_resampler()).collect();
    for _ in 0..resamples {
        for i in idx.iter_mut() {
            *i = stream.random_range(0..n);
        }
        for ((t, v), ece) in terms.iter().zip(values.iter_mut()).zip(eces.iter_mut()) {
            for (m, v) in v.iter_mut().enumerate() {
                v.push(t.resampled(m, &idx, ece));
            }
        }
    }
    let mut out = Vec::new();
    for (m, metric) in METRICS.iter().enumerate() {
        let whole: Vec<f64> = terms.iter().map(|t| t.whole(m)).collect();
        let Some(best) = argmin(&whole) else { continue };
        let mut rows: Vec<VersusBest> = (0..terms.len())
            .map(|c| {
                let mut diffs: Vec<f64> = values[c][m]
                    .iter()
                    .zip(&values[best][m])
                    .map(|(x, b)| x - b)
                    .collect();
                diffs.sort_by(f64::total_cmp);
                let (ci_low, ci_high) = (percentile(&diffs, 0.025), percentile(&diffs, 0.975));
                let (run, predictive) = split(&p.columns[c].0);
                VersusBest {
                    run,
                    predictive,
                    metric: metric.to_string(),
                    best: p.columns[best].0.clone(),
                    diff: whole[c] - whole[best],
                    ci_low,
                    ci_high,
                    standing: if c == best {
                        Standing::Best
                    } else if ci_low > 0.0 {
                        Standing::Behind
                    } else {
                        Standing::Tied
                    },
                }
            })
            .collect();
        if rows.iter().any(|r| r.standing == Standing::Tied) {
            rows[best].standing = Standing::Tied;
        }
        out.extend(rows);
    }
    out
}

/// The index of the smallest finite value (the first of equals).
fn argmin(values: &[f64]) -> Option<usize> {
    values
        .iter()
        .enumerate()
        .filter(|(_, v)| v.is_finite())
        .reduce(|a, b| if b.1 < a.1 { b } else { a })
        .map(|(i, _)| i)
}

fn split(column: &str) -> (String, String) {
    let (run, predictive) = column.split_once('/').unwrap_or((column, ""));
    (run.to_string(), predictive.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use bayeslab_core::metrics::Binning;
    use bayeslab_core::record::Scores;

    fn preds(y: Vec<f64>, columns: Vec<(&str, Vec<f64>)>) -> Predictions {
        Predictions {
            y,
            columns: columns
                .into_iter()
                .map(|(n, p)| (n.to_string(), Scores::Binary(p)))
                .collect(),
            bins: 10,
            binning: Binning::EqualWidth,
        }
    }

    fn brier<'a>(rows: &'a [VersusBest], run: &str) -> &'a VersusBest {
        rows.iter()
            .find(|r| r.metric == "brier" && r.run == run)
            .unwrap()
    }

    #[test]
    fn a_uniformly_better_column_is_best_and_the_other_behind() {
        // Every row positive: a predicts 0.8 (Brier 0.04 per row), b 0.5 (0.25), so every
        // resample's difference b - a is exactly 0.21.
        let p = preds(
            vec![1.0; 30],
            vec![("a/plugin", vec![0.8; 30]), ("b/plugin", vec![0.5; 30])],
        );
        let rows = versus_best(&p, 200, 7);
        let (a, b) = (brier(&rows, "a"), brier(&rows, "b"));
        assert_eq!(a.standing, Standing::Best);
        assert_eq!(a.best, "a/plugin");
        assert_eq!((a.diff, a.ci_low, a.ci_high), (0.0, 0.0, 0.0));
        assert_eq!(b.standing, Standing::Behind);
        assert!((b.diff - 0.21).abs() < 1e-12);
        assert!((b.ci_low - 0.21).abs() < 1e-12 && (b.ci_high - 0.21).abs() < 1e-12);
    }

    #[test]
    fn a_difference_within_noise_is_a_tie_for_both() {
        // The two rows of compare's enumerable case: b's per-row Brier differences from a
        // are -0.05 and +0.1, so the mean difference over a resample is -0.05, 0.025 or 0.1
        // and the interval [-0.05, 0.1] holds zero. a (Brier 0.25) is best by 0.025.
        let y = vec![1.0, 0.0];
        let p = preds(
            y,
            vec![
                ("b/plugin", vec![1.0 - 0.2f64.sqrt(), 0.35f64.sqrt()]),
                ("a/plugin", vec![0.5, 0.5]),
            ],
        );
        let rows = versus_best(&p, 4000, 3);
        let (a, b) = (brier(&rows, "a"), brier(&rows, "b"));
        assert_eq!(b.best, "a/plugin");
        assert!((b.diff - 0.025).abs() < 1e-12);
        assert!((b.ci_low + 0.05).abs() < 1e-12 && (b.ci_high - 0.1).abs() < 1e-12);
        assert_eq!((a.standing, b.standing), (Standing::Tied, Standing::Tied));
    }

    #[test]
    fn one_column_has_nothing_to_be_best_against() {
        let p = preds(vec![1.0, 0.0], vec![("a/plugin", vec![0.6, 0.4])]);
        assert!(versus_best(&p, 100, 1).is_empty());
    }
}
