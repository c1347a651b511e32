//! Unit tests of the paired bootstrap against enumerable and degenerate cases.
use super::*;

fn resamples(count: usize) -> Resamples<'static> {
    Resamples {
        count,
        file: Path::new("--resamples"),
        key: "",
    }
}

fn preds(y: Vec<f64>, p: Vec<f64>) -> Predictions {
    Predictions {
        y,
        columns: vec![("m/plugin".into(), Scores::Binary(p))],
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
    let rows = compare(&a, &b, resamples(200), 1, Path::new("A"), Path::new("B")).unwrap();
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
    let rows = compare(&a, &b, resamples(4000), 3, Path::new("A"), Path::new("B")).unwrap();
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
    let e = compare(
        &a,
        &b,
        resamples(MIN_RESAMPLES),
        0,
        Path::new("A"),
        Path::new("B"),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("same test set"), "{e}");
}

#[test]
fn multiclass_columns_use_the_multiclass_metrics() {
    // Every row is class 0; A predicts (0.5, 0.25, 0.25), B (0.8, 0.1, 0.1) on every row, so
    // every resample has the same per-row losses: log-loss -ln 0.5 against -ln 0.8, Brier
    // 0.25 + 2 * 0.0625 = 0.375 against 0.04 + 2 * 0.01 = 0.06, and top-label ECE |1 - 0.5|
    // = 0.5 against |1 - 0.8| = 0.2 (the top class is always right). Scored as three binary
    // columns instead, p1 = 0.25 against label 0 would be counted as a wrong prediction.
    let classes = |p: [f64; 3]| Predictions {
        y: vec![0.0; 12],
        columns: vec![("m/plugin".into(), Scores::Classes(vec![p.to_vec(); 12]))],
        bins: 10,
        binning: Binning::EqualWidth,
    };
    let (a, b) = (classes([0.5, 0.25, 0.25]), classes([0.8, 0.1, 0.1]));
    let rows = compare(&a, &b, resamples(100), 2, Path::new("A"), Path::new("B")).unwrap();
    assert_eq!(rows.len(), 3);
    let want = [
        ("log_loss", -(0.5f64.ln()), -(0.8f64.ln())),
        ("brier", 0.375, 0.06),
        ("ece", 0.5, 0.2),
    ];
    for (metric, va, vb) in want {
        let r = rows.iter().find(|r| r.metric == metric).unwrap();
        assert_eq!((r.run.as_str(), r.predictive.as_str()), ("m", "plugin"));
        assert!(
            (r.a - va).abs() < 1e-12 && (r.b - vb).abs() < 1e-12,
            "{r:?}"
        );
        assert!((r.ci_low - (vb - va)).abs() < 1e-12, "{r:?}");
        assert!((r.ci_high - (vb - va)).abs() < 1e-12, "{r:?}");
        assert_eq!(r.verdict, Verdict::Improved);
    }
}

#[test]
fn a_two_class_column_is_not_compared_with_a_three_class_one() {
    let a = preds(vec![1.0, 0.0], vec![0.5, 0.5]);
    let mut b = a.clone();
    b.columns[0].1 = Scores::Classes(vec![vec![0.2, 0.3, 0.5]; 2]);
    let e = compare(
        &a,
        &b,
        resamples(MIN_RESAMPLES),
        0,
        Path::new("A"),
        Path::new("B"),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("3 classes") && e.contains("m/plugin"), "{e}");
}

#[test]
fn resamples_are_bounded_by_the_rows_drawn() {
    assert_eq!(Resamples::largest(45), MAX_RESAMPLES);
    // 10^10 row draws over 10^6 test rows: 10^4 resamples
    assert_eq!(Resamples::largest(1_000_000), 10_000);
    let e = resamples(10_001).check(1_000_000).unwrap_err().to_string();
    assert!(e.contains("10001") && e.contains("at most 10000 "), "{e}");
}

#[test]
fn a_pair_is_two_columns_around_an_equals_sign() {
    let p = Pair::parse("laplace/exact=gibbs/exact").unwrap();
    assert_eq!(
        (p.a.as_str(), p.b.as_str()),
        ("laplace/exact", "gibbs/exact")
    );
    for bad in ["laplace/exact", "=gibbs/exact", "laplace/exact=", ""] {
        let e = Pair::parse(bad).unwrap_err();
        assert!(e.contains("A_COLUMN=B_COLUMN"), "{e}");
    }
}

#[test]
fn a_named_pair_is_scored_as_the_namesakes_are() {
    // B's column renamed: the pair gives the default comparison's numbers, naming B's column.
    let a = preds(vec![1.0, 0.0, 1.0, 1.0], vec![0.6, 0.4, 0.7, 0.5]);
    let b = preds(vec![1.0, 0.0, 1.0, 1.0], vec![0.8, 0.3, 0.6, 0.9]);
    let mut renamed = b.clone();
    renamed.columns[0].0 = "n/exact".into();
    let want = compare(&a, &b, resamples(300), 7, Path::new("A"), Path::new("B")).unwrap();
    let pair = Pair::parse("m/plugin=n/exact").unwrap();
    let got = compare_pairs(
        &a,
        &renamed,
        &[pair],
        resamples(300),
        7,
        Path::new("A"),
        Path::new("B"),
    )
    .unwrap();
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(&want) {
        assert_eq!(g.b_column.as_deref(), Some("n/exact"));
        assert_eq!(
            Comparison {
                b_column: None,
                note: None,
                ..g.clone()
            },
            *w
        );
    }
}

#[test]
fn no_verdict_comes_from_too_few_resamples() {
    // an interval that excludes zero, drawn from fewer resamples than the least allowed
    assert_eq!(
        verdict(-0.2, -0.1, MIN_RESAMPLES - 1),
        Verdict::TooFewResamples
    );
    assert_eq!(verdict(0.1, 0.2, 1), Verdict::TooFewResamples);
    assert_eq!(verdict(-0.2, -0.1, MIN_RESAMPLES), Verdict::Improved);
    assert_eq!(verdict(0.1, 0.2, MIN_RESAMPLES), Verdict::Worse);
    assert_eq!(verdict(-0.1, 0.2, MIN_RESAMPLES), Verdict::WithinNoise);
}
