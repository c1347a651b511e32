//! The third stage: raw columns into design matrices. The target's classes ([`labels`],
//! [`classes`]), rows with missing values ([`missing`]), the encoding of categorical and filled
//! columns ([`encode`]), each feature's training moments ([`moments`]), feature maps
//! ([`features`]) and what loading makes ([`dataset`]); here, the train/test split,
//! standardisation with training statistics and the intercept column. [`score`] prepares a new
//! table as a run prepared its rows.

pub(crate) mod classes;
pub(crate) mod dataset;
pub(crate) mod encode;
pub(crate) mod features;
pub(crate) mod labels;
pub(crate) mod missing;
pub(crate) mod moments;
pub(crate) mod score;

use faer::Mat;
use rand::seq::SliceRandom;

use crate::plan::Folds;
use crate::plan::Split;
use bayeslab_core::numeric::{avx2_or_baseline, rng, Kernel};

/// Refuse a split of `rows` data rows that leaves no training rows, no test rows, or (a
/// `split.every` longer than the data) a single held-out row, which no score can rest on.
pub fn check_split_sizes(
    source: &crate::plan::DataSource,
    rows: usize,
    train: usize,
    test: usize,
) -> Result<(), String> {
    if let crate::plan::DataSource::Single {
        split: Split::Every { every, offset },
        ..
    } = source
    {
        if *every > rows && test > 0 {
            return Err(format!(
                "[data] split.every = {every} is more than the file's {rows} data rows, so the test set is the \
                 single row {offset}; lower every (5 holds out every fifth row)"
            ));
        }
    }
    if train == 0 {
        return Err("no training rows are left after the split; change [data] split".into());
    }
    if test == 0 {
        return Err("no test rows are left after the split; change [data] split".into());
    }
    Ok(())
}

/// Test-row flags for `n` rows under `split`.
pub fn test_rows(n: usize, split: Split) -> Vec<bool> {
    match split {
        Split::Every { .. } | Split::Hash { .. } | Split::Folds(_) => (0..n)
            .map(|i| row_is_test(i, split) == Some(true))
            .collect(),
        Split::Fraction {
            test_fraction,
            seed,
        } => {
            let k =
                ((test_fraction * n as f64).round() as usize).clamp(1, n.saturating_sub(1).max(1));
            let mut idx: Vec<usize> = (0..n).collect();
            idx.shuffle(&mut rng::stream(seed, "split"));
            let mut test = vec![false; n];
            for &i in &idx[..k] {
                test[i] = true;
            }
            test
        }
    }
}

/// Test-row flags for the rows with labels `y` (`None`: missing) under `split`: K-fold splits
/// read the labels to stratify; the others only count the rows ([`test_rows`]).
pub fn test_rows_of(y: &[Option<f64>], split: Split) -> Vec<bool> {
    let Split::Folds(f) = split else {
        return test_rows(y.len(), split);
    };
    let labels: Vec<f64> = y.iter().map(|v| v.unwrap_or(f64::NEG_INFINITY)).collect();
    let fold = fold_of_rows(&labels, &f, f.fold / f.folds);
    fold.iter().map(|&k| k == f.fold % f.folds).collect()
}

/// Which fold (0..folds) each of the rows with labels `y` falls in, for repeat `repeat`: a
/// shuffle of the rows from the seed's stream `folds/<repeat>`, dealt out in turn; with
/// `stratify` each class is shuffled and dealt on its own, continuing where the last class
/// stopped, so every fold holds each class to within one row.
pub fn fold_of_rows(y: &[f64], folds: &Folds, repeat: usize) -> Vec<usize> {
    let mut stream = bayeslab_core::numeric::rng::stream(folds.seed, &format!("folds/{repeat}"));
    let mut groups: Vec<Vec<usize>> = if folds.stratify {
        let mut classes: Vec<f64> = y.to_vec();
        classes.sort_by(f64::total_cmp);
        classes.dedup();
        classes
            .iter()
            .map(|c| (0..y.len()).filter(|&i| y[i] == *c).collect())
            .collect()
    } else {
        vec![(0..y.len()).collect()]
    };
    let mut fold = vec![0; y.len()];
    let mut next = 0;
    for group in groups.iter_mut() {
        group.shuffle(&mut stream);
        for &i in group.iter() {
            fold[i] = next % folds.folds;
            next += 1;
        }
    }
    fold
}

/// Whether data row `i` (0-based, file order) is a test row, for the splits that decide each row
/// on its own: `i % every == offset`, or a hash of (seed, i) below `test_fraction`. `None` for
/// the shuffle split, which needs the number of rows first.
pub fn row_is_test(i: usize, split: Split) -> Option<bool> {
    match split {
        Split::Every { every, offset } => Some(i % every == offset),
        Split::Hash {
            test_fraction,
            seed,
        } => Some(unit_hash(seed, i as u64) < test_fraction),
        Split::Fraction { .. } | Split::Folds(_) => None,
    }
}

/// A uniform number in [0, 1) from (seed, i): SplitMix64 (Steele, Lea & Flood 2014) of the
/// mixed seed xor i, top 53 bits. Portable and stateless, so any chunk can decide its rows.
fn unit_hash(seed: u64, i: u64) -> f64 {
    fn mix(mut z: u64) -> u64 {
        z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    (mix(mix(seed) ^ i) >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// The error for a column without a single value (every row missing), which `missing = "drop"`
/// would otherwise turn into "no training rows are left": `missing[j]` of `rows` rows are
/// missing in feature `j`, `target_missing` in the target. `listed`: the features come from
/// `[data] features` (else every numeric column was taken).
pub fn check_not_all_missing(
    rows: usize,
    target: &str,
    target_missing: usize,
    features: &[String],
    missing: &[usize],
    listed: bool,
) -> Result<(), String> {
    if rows == 0 {
        return Ok(());
    }
    if target_missing == rows {
        return Err(format!(
            "target column \"{target}\" has no values at all (every row is missing): check [data] target"
        ));
    }
    let Some(name) = features
        .iter()
        .zip(missing)
        .find(|(_, &m)| m == rows)
        .map(|(f, _)| f)
    else {
        return Ok(());
    };
    let fix = if listed {
        format!("remove \"{name}\" from [data] features")
    } else {
        format!("list the columns to use in [data] features, without \"{name}\"")
    };
    Err(format!(
        "column \"{name}\" has no values at all (every row is missing: empty, NA or NaN), so no row is complete; {fix}"
    ))
}

/// Per-feature (mean, sd) on the training rows, as the loaders take them
/// ([`crate::prepare::moments::column_stats`]).
#[cfg(test)]
pub fn column_stats(x: &[Vec<f64>]) -> Vec<(f64, f64)> {
    let cols: Vec<&[f64]> = x.iter().map(Vec::as_slice).collect();
    let stats = crate::prepare::moments::column_stats(&cols);
    stats.iter().map(|s| (s.mean, s.sd)).collect()
}

/// Whether a column with these statistics is constant (then it is centred, not scaled).
pub fn is_constant(mean: f64, sd: f64) -> bool {
    sd <= 1e-12 * mean.abs().max(1.0)
}

/// One standardised value: (v - mean) / sd, or only centred for a constant column. When
/// v - mean overflows (v and the mean of opposite signs near f64::MAX) it is taken in halves.
pub fn standardise(v: f64, mean: f64, sd: f64) -> f64 {
    let d = v - mean;
    if is_constant(mean, sd) {
        d
    } else if d.is_finite() {
        d / sd
    } else {
        (0.5 * v - 0.5 * mean) / sd * 2.0
    }
}

/// [`standardise`] every value of `values` in place, the same numbers a vector at a time: a
/// block of values whose differences from the mean are all finite is divided straight
/// through, any other block value by value.
pub fn standardise_all(values: &mut [f64], mean: f64, sd: f64) {
    avx2_or_baseline(Standardise { values, mean, sd });
}

/// The arguments of [`standardise_blocks`], for [`avx2_or_baseline`].
struct Standardise<'a> {
    values: &'a mut [f64],
    mean: f64,
    sd: f64,
}

impl Kernel for Standardise<'_> {
    type Output = ();

    #[inline(always)]
    fn run<const FMA: bool>(self) {
        standardise_blocks(self.values, self.mean, self.sd)
    }
}

#[inline(always)]
fn standardise_blocks(values: &mut [f64], mean: f64, sd: f64) {
    if is_constant(mean, sd) {
        values.iter_mut().for_each(|v| *v -= mean);
        return;
    }
    for block in values.chunks_mut(64) {
        if block
            .iter()
            .fold(true, |all, &v| all & (v - mean).is_finite())
        {
            block.iter_mut().for_each(|v| *v = (*v - mean) / sd);
        } else {
            block
                .iter_mut()
                .for_each(|v| *v = standardise(*v, mean, sd));
        }
    }
}

/// The design matrix of feature columns `cols` (each a full column of values): optionally
/// standardised with `stats`, with a leading column of ones when `intercept`.
pub fn design(cols: &[Vec<f64>], stats: Option<&[(f64, f64)]>, intercept: bool) -> Mat<f64> {
    let n = cols.first().map_or(0, Vec::len);
    let shift = usize::from(intercept);
    // Filled a column slice at a time (faer is column-major): the values of the element-wise
    // formula, without an index computation per element.
    let mut x = Mat::<f64>::zeros(n, cols.len() + shift);
    if intercept {
        x.col_as_slice_mut(0).fill(1.0);
    }
    for (j, col) in cols.iter().enumerate() {
        let out = x.col_as_slice_mut(j + shift);
        match stats {
            Some(s) => {
                let (mean, sd) = s[j];
                for (o, &v) in out.iter_mut().zip(col) {
                    *o = standardise(v, mean, sd);
                }
            }
            None => out.copy_from_slice(col),
        }
    }
    x
}

/// `x` with a leading column of ones when `intercept`.
pub fn with_intercept(x: Mat<f64>, intercept: bool) -> Mat<f64> {
    if !intercept {
        return x;
    }
    let mut out = Mat::<f64>::zeros(x.nrows(), x.ncols() + 1);
    out.col_as_slice_mut(0).fill(1.0);
    for j in 0..x.ncols() {
        out.col_as_slice_mut(j + 1)
            .copy_from_slice(x.col_as_slice(j));
    }
    out
}

#[cfg(test)]
mod tests;
