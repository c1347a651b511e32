//! From raw columns to design matrices: the train/test split, missing rows, standardisation
//! with training statistics, and the intercept column.

use faer::Mat;
use rand::seq::SliceRandom;

use super::moments::Moments;
use crate::config::Split;
use crate::numeric::rng;

/// Test-row flags for `n` rows under `split`.
pub fn test_rows(n: usize, split: Split) -> Vec<bool> {
    match split {
        Split::Every { .. } | Split::Hash { .. } => (0..n)
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
        Split::Fraction { .. } => None,
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

/// Per-feature (mean, sd) on the training rows; sd is the population standard deviation,
/// computed by [`Moments`] (any finite column, the streamed statistics' code).
pub fn column_stats(x: &[Vec<f64>]) -> Vec<(f64, f64)> {
    x.iter()
        .map(|col| {
            let mut m = Moments::default();
            col.iter().for_each(|&v| m.push(v));
            m.mean_sd()
        })
        .collect()
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
mod tests {
    use super::*;

    #[test]
    fn every_k_split_is_by_row_index() {
        let t = test_rows(
            10,
            Split::Every {
                every: 5,
                offset: 4,
            },
        );
        let idx: Vec<usize> = (0..10).filter(|&i| t[i]).collect();
        assert_eq!(idx, vec![4, 9]);
    }

    #[test]
    fn fraction_split_is_seeded_and_sized() {
        let a = test_rows(
            100,
            Split::Fraction {
                test_fraction: 0.2,
                seed: 5,
            },
        );
        let b = test_rows(
            100,
            Split::Fraction {
                test_fraction: 0.2,
                seed: 5,
            },
        );
        let c = test_rows(
            100,
            Split::Fraction {
                test_fraction: 0.2,
                seed: 6,
            },
        );
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_eq!(a.iter().filter(|&&t| t).count(), 20);
    }

    #[test]
    fn hash_split_is_per_row_seeded_and_near_its_fraction() {
        let split = |seed| Split::Hash {
            test_fraction: 0.2,
            seed,
        };
        let a = test_rows(20_000, split(3));
        assert_eq!(a, test_rows(20_000, split(3)));
        assert_ne!(a, test_rows(20_000, split(4)));
        // a prefix of the file is split the same way: each row is decided on its own
        assert_eq!(&a[..100], &test_rows(100, split(3))[..]);
        let k = a.iter().filter(|&&t| t).count() as f64;
        // Binomial(20000, 0.2): sd = 56.6; 5 sd either side
        assert!((k - 4000.0).abs() < 283.0, "{k}");
        assert_eq!(
            row_is_test(
                7,
                Split::Every {
                    every: 5,
                    offset: 2
                }
            ),
            Some(true)
        );
        let shuffle = Split::Fraction {
            test_fraction: 0.2,
            seed: 1,
        };
        assert_eq!(row_is_test(7, shuffle), None);
    }

    #[test]
    fn standardisation_uses_population_sd_and_centres_constants() {
        let cols = vec![vec![1.0, 2.0, 3.0, 4.0], vec![7.0, 7.0, 7.0, 7.0]];
        let stats = column_stats(&cols);
        assert_eq!(stats[0].0, 2.5);
        assert!((stats[0].1 - 1.25f64.sqrt()).abs() < 1e-15);
        let x = design(&cols, Some(&stats), true);
        assert_eq!(x.ncols(), 3);
        assert!((0..4).all(|i| x[(i, 0)] == 1.0 && x[(i, 2)] == 0.0));
        let mean: f64 = (0..4).map(|i| x[(i, 1)]).sum::<f64>() / 4.0;
        let var: f64 = (0..4).map(|i| x[(i, 1)].powi(2)).sum::<f64>() / 4.0;
        assert!(mean.abs() < 1e-15 && (var - 1.0).abs() < 1e-12);
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 4.0 * f64::EPSILON * b.abs()
    }

    #[test]
    fn standardisation_works_for_any_finite_column() {
        // closed forms: [c, -c, c, -c] has mean 0 and sd c; [3c, c] has mean 2c and sd c
        for c in [1e300, 1e154, 1.0, 1e-300] {
            let s = column_stats(&[vec![c, -c, c, -c], vec![3.0 * c, c]]);
            assert!(s[0].0 == 0.0 && close(s[0].1, c), "{c}: {:?}", s[0]);
            assert!(
                close(s[1].0, 2.0 * c) && close(s[1].1, c),
                "{c}: {:?}",
                s[1]
            );
        }
        // [M, -M, M] at M = f64::MAX: mean M/3, sd M 2 sqrt(2)/3, standardised 1/sqrt(2) and -sqrt(2)
        let m = f64::MAX;
        let cols = vec![vec![m, -m, m]];
        let s = column_stats(&cols);
        assert!(close(s[0].0, m / 3.0), "{:?}", s[0]);
        assert!(close(s[0].1, m / 3.0 * 2.0 * 2f64.sqrt()), "{:?}", s[0]);
        let x = design(&cols, Some(&s), false);
        let want = [0.5f64.sqrt(), -(2f64.sqrt()), 0.5f64.sqrt()];
        for (i, w) in want.iter().enumerate() {
            assert!((x[(i, 0)] - w).abs() < 1e-15, "row {i}: {}", x[(i, 0)]);
        }
        // a constant column of the largest value is constant, not overflowing
        let s = column_stats(&[vec![m, m, m]]);
        assert_eq!(s[0], (m, 0.0));
    }

    #[test]
    fn statistics_scale_exactly_with_powers_of_two() {
        // multiplying by 2^k is exact, so the moments of 2^k x are those of x times 2^k
        let x = vec![1.0, 2.0, 3.0, 4.5, -7.25, 0.1];
        let base = column_stats(std::slice::from_ref(&x))[0];
        for k in [-1000, -500, 1, 500, 1000] {
            let f = 2f64.powi(k);
            let scaled: Vec<f64> = x.iter().map(|v| v * f).collect();
            assert_eq!(
                column_stats(&[scaled])[0],
                (base.0 * f, base.1 * f),
                "2^{k}"
            );
        }
    }

    #[test]
    fn a_column_without_values_is_named() {
        let names = ["a".to_string(), "empty".to_string()];
        assert_eq!(
            check_not_all_missing(5, "y", 1, &names, &[2, 4], true),
            Ok(())
        );
        let e = check_not_all_missing(5, "y", 1, &names, &[2, 5], true).unwrap_err();
        assert!(e.contains("column \"empty\" has no values at all"), "{e}");
        assert!(e.contains("remove \"empty\" from [data] features"), "{e}");
        let e = check_not_all_missing(5, "y", 0, &names, &[0, 5], false).unwrap_err();
        assert!(
            e.contains("list the columns to use in [data] features"),
            "{e}"
        );
        let e = check_not_all_missing(5, "y", 5, &names, &[0, 0], true).unwrap_err();
        assert!(
            e.contains("target column \"y\" has no values at all"),
            "{e}"
        );
    }
}
