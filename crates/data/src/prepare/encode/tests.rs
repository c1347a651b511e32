//! The encoder on hand-made columns: level order, the reference, fill values and the
//! indicator columns, each checked against the value worked out by hand.

use std::path::Path;

use super::*;
use crate::plan::{DataPlan, DataSource, EncodingPlan, FeatureMap, Missing, Split, Unseen};

fn plan(missing: Missing, encoding: EncodingPlan) -> DataPlan {
    DataPlan {
        source: DataSource::Single {
            path: "x.csv".into(),
            split: Split::Every {
                every: 2,
                offset: 1,
            },
        },
        target: "y".into(),
        features: None,
        id: None,
        positive: None,
        standardize: true,
        intercept: true,
        missing,
        encoding,
        feature_map: FeatureMap::Identity,
        seed: 0,
        binary_method: None,
        streaming: None,
        separator: b',',
    }
}

fn levels(v: &[Option<&str>]) -> Cells {
    Cells::Levels(v.iter().map(|s| s.map(String::from)).collect())
}

/// Tallies with rows 0..train as training rows and the rest as test rows.
fn tally(cells: &[&Cells], train: usize, median: bool) -> Vec<ColumnTally> {
    cells
        .iter()
        .map(|c| {
            let mut t = ColumnTally::new(median);
            t.push_file(c);
            (0..c.len()).for_each(|i| t.push(c, i, i >= train));
            t
        })
        .collect()
}

fn encoder(
    p: &DataPlan,
    names: &[&str],
    cells: &[&Cells],
    train: usize,
) -> Result<Encoder, String> {
    let names: Vec<String> = names.iter().map(|s| s.to_string()).collect();
    let tallies = tally(cells, train, p.missing == Missing::Median);
    learn(Path::new("x.csv"), p, &names, &tallies).map_err(|e| e.to_string())
}

#[test]
fn codes_sort_by_value_and_the_reference_is_the_first_unless_named() {
    let code = levels(&[Some("10"), Some("2"), Some("9"), Some("2"), Some("10")]);
    let p = plan(Missing::Error, EncodingPlan::default());
    let e = encoder(&p, &["k"], &[&code], 5).unwrap();
    assert_eq!(e.names, ["k=9", "k=10"]);
    assert_eq!(e.info.categorical[0].reference, "2");
    assert_eq!(
        e.encode(&[&code], &[0, 1, 2]),
        vec![vec![0.0, 0.0, 1.0], vec![1.0, 0.0, 0.0]]
    );
    let mut enc = EncodingPlan::default();
    enc.reference.insert("k".into(), "10".into());
    let e = encoder(&plan(Missing::Error, enc), &["k"], &[&code], 5).unwrap();
    assert_eq!(e.names, ["k=2", "k=9"]);
    assert_eq!(e.indicator, [true, true]);
    // every row has exactly one level: the indicators plus the reference's sum to one
    let x = e.encode(&[&code], &[0, 1, 2, 3, 4]);
    let reference: Vec<f64> = (0..5).map(|i| 1.0 - x[0][i] - x[1][i]).collect();
    assert_eq!(reference, [1.0, 0.0, 0.0, 0.0, 1.0]);
}

#[test]
fn fill_values_are_the_training_mean_median_and_most_frequent_level() {
    // training rows 0..5; the test row 5 has a value the fills must not see
    let x = Cells::Numbers(vec![1.0, f64::NAN, 2.0, 7.0, 4.0, 100.0].into());
    let g = levels(&[Some("b"), Some("a"), None, Some("b"), Some("a"), Some("c")]);
    let mean = plan(
        Missing::Mean,
        EncodingPlan {
            missing_indicator: true,
            unseen: Unseen::Zero,
            ..Default::default()
        },
    );
    let e = encoder(&mean, &["x", "g"], &[&x, &g], 5).unwrap();
    assert_eq!(e.names, ["x", "x=missing", "g=b", "g=missing"]);
    assert_eq!(e.indicator, [false, true, true, true]);
    // mean of 1, 2, 7, 4 is 3.5; a tie between a and b (2 rows each) goes to a, the first
    let cols = e.encode(&[&x, &g], &[0, 1, 2, 5]);
    assert_eq!(cols[0], [1.0, 3.5, 2.0, 100.0]);
    assert_eq!(cols[1], [0.0, 1.0, 0.0, 0.0]);
    assert_eq!(cols[2], [1.0, 0.0, 0.0, 0.0]);
    assert_eq!(cols[3], [0.0, 0.0, 1.0, 0.0]);
    assert_eq!(e.info.imputed[1].value, "a");
    assert_eq!(e.info.imputed[1].strategy, "most_frequent");
    // the filled cell counts for its level; c (test only) is noted, not a column
    let a = &e.info.categorical[0].levels[0];
    assert_eq!((a.level.as_str(), a.train, a.test), ("a", 3, 0));
    assert!(e.notes[0].contains("level(s) c appear only in the test rows (1 row)"));
    let median = plan(Missing::Median, EncodingPlan::default());
    let e = encoder(&median, &["x"], &[&x], 5).unwrap();
    // median of 1, 2, 4, 7 is (2 + 4) / 2
    assert_eq!(e.encode(&[&x], &[1]), vec![vec![3.0]]);
    assert_eq!(e.info.imputed[0].value, "3");
}

#[test]
fn missing_as_a_level_comes_last_and_is_never_the_default_reference() {
    // "missing" sorts before "z" as text, but comes after every level seen
    let g = levels(&[None, Some("b"), Some("z"), None, Some("b")]);
    let p = plan(Missing::Level, EncodingPlan::default());
    let e = encoder(&p, &["g"], &[&g], 5).unwrap();
    assert_eq!(e.names, ["g=z", "g=missing"]);
    assert_eq!(e.info.categorical[0].reference, "b");
    assert_eq!(e.info.imputed[0].strategy, "level");
    assert_eq!(
        e.encode(&[&g], &[0, 1, 2]),
        vec![vec![0.0, 0.0, 1.0], vec![1.0, 0.0, 0.0]]
    );
    let err = encoder(
        &p,
        &["g", "x"],
        &[&g, &Cells::Numbers(vec![f64::NAN; 5].into())],
        5,
    )
    .unwrap_err();
    assert!(err.contains("numeric column(s) \"x\" (5 missing)"), "{err}");
}

#[test]
fn indicators_keep_their_scale_unless_asked() {
    let g = levels(&[Some("a"), Some("b"), Some("a")]);
    let x = Cells::Numbers(vec![1.0, 2.0, 4.0].into());
    let e = encoder(
        &plan(Missing::Error, EncodingPlan::default()),
        &["x", "g"],
        &[&x, &g],
        3,
    )
    .unwrap();
    let stats = [(2.0, 1.5), (0.25, 0.5)];
    assert_eq!(e.standardisation(&stats, false), [(2.0, 1.5), (0.0, 1.0)]);
    assert_eq!(e.standardisation(&stats, true), stats);
    assert!(!e.is_identity());
    let e = encoder(
        &plan(Missing::Error, EncodingPlan::default()),
        &["x"],
        &[&x],
        3,
    )
    .unwrap();
    assert!(e.is_identity());
}
