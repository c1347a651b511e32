//! Tests of the split and the standardisation: seeded, sized, and with the population sd.

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

fn folds(stratify: bool, fold: usize) -> Folds {
    Folds {
        folds: 5,
        repeats: 2,
        fold,
        seed: 3,
        stratify,
    }
}

#[test]
fn stratified_folds_hold_each_class_to_within_one_row_and_repeats_differ() {
    // 23 rows of class 0 and 12 of class 1.
    let y: Vec<f64> = (0..35)
        .map(|i| if i % 3 == 0 { 1.0 } else { 0.0 })
        .collect();
    let first = fold_of_rows(&y, &folds(true, 0), 0);
    for c in [0.0, 1.0] {
        let counts: Vec<usize> = (0..5)
            .map(|k| (0..35).filter(|&i| y[i] == c && first[i] == k).count())
            .collect();
        let (lo, hi) = (counts.iter().min().unwrap(), counts.iter().max().unwrap());
        assert!(hi - lo <= 1, "class {c}: {counts:?}");
    }
    assert_ne!(first, fold_of_rows(&y, &folds(true, 0), 1));
    // Fold 7 is fold 2 of repeat 1: its test rows are that repeat's fold 2.
    let labels: Vec<Option<f64>> = y.iter().map(|&v| Some(v)).collect();
    let test = test_rows_of(&labels, Split::Folds(folds(true, 7)));
    let second = fold_of_rows(&y, &folds(true, 7), 1);
    assert!((0..35).all(|i| test[i] == (second[i] == 2)));
    // Every row is tested once over the five folds of a repeat.
    let tested: usize = (0..5)
        .map(|k| {
            test_rows_of(&labels, Split::Folds(folds(false, k)))
                .iter()
                .filter(|&&t| t)
                .count()
        })
        .sum();
    assert_eq!(tested, 35);
}

#[test]
fn standardising_a_column_at_once_equals_value_by_value() {
    // Blocks that divide straight through, one with a NaN and one whose difference from the
    // mean overflows (taken in halves), a ragged last block; and a constant column's centring.
    let mut values: Vec<f64> = (0..300).map(|i| (i as f64 * 0.37).sin() * 1e3).collect();
    values[70] = f64::NAN;
    values[140] = -f64::MAX;
    for (mean, sd) in [(2.5, 7.0), (f64::MAX / 2.0, 3.0), (4.0, 0.0)] {
        // The processor's widest vectors, and the build's baseline ones.
        let (mut got, mut baseline) = (values.clone(), values.clone());
        standardise_all(&mut got, mean, sd);
        standardise_blocks(&mut baseline, mean, sd);
        for ((g, b), &v) in got.iter().zip(&baseline).zip(&values) {
            let want = standardise(v, mean, sd).to_bits();
            assert_eq!((g.to_bits(), b.to_bits()), (want, want), "{v}");
        }
    }
}
