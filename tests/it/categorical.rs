//! Categorical features and imputation (issue 17) against an independent fit: statsmodels'
//! unpenalised `Logit` on `pandas.get_dummies(..., drop_first=True)` (treatment coding, the
//! first sorted level the reference) of datasets/penguins.csv. The reference numbers come from
//! `datasets/scripts/penguins_reference.py` (pandas 3.1.1, statsmodels 0.15.0, numpy 2.4.6;
//! Newton until no weight moves by 1e-10, max |score| <= 3.1e-10), copied below verbatim.
//!
//! bayeslab's side: `logistic-map` with precision 1e-12 (the penalty moves a weight by about
//! lambda * se^2 * |w| < 1e-7), unstandardised features and an intercept, trained on every row
//! (the same file as train and test).

// The reference numbers are statsmodels' output as printed (17 significant digits), kept verbatim.
#![allow(clippy::excessive_precision)]

use std::path::{Path, PathBuf};

use bayeslab_core::record::ExperimentRecord;
use bayeslab_engine::run::{self as experiment, Silent};

const FEATURES: &str = "[\"species\", \"island\", \"bill_length_mm\", \"bill_depth_mm\", \
    \"flipper_length_mm\", \"body_mass_g\", \"clutch_completion\", \"delta_15n\"]";

/// Design columns in statsmodels' order (its `const` is bayeslab's `intercept`).
const COLUMNS: [&str; 11] = [
    "intercept",
    "species=Chinstrap",
    "species=Gentoo",
    "island=Dream",
    "island=Torgersen",
    "bill_length_mm",
    "bill_depth_mm",
    "flipper_length_mm",
    "body_mass_g",
    "clutch_completion=Yes",
    "delta_15n",
];

/// statsmodels on the 324 complete rows (161 male); log-likelihood -53.826915962459609.
const COMPLETE: [f64; 11] = [
    -110.93538764716703,
    -8.4150999343892217,
    -8.1927202826366905,
    0.25570089117661637,
    -0.4520112752449772,
    0.61527940062693676,
    1.7023921391381185,
    0.031502582188230148,
    0.0068699710433793955,
    0.69900600667119028,
    2.7066144241590693,
];

/// statsmodels on the 333 rows with a sex and the seven other features, delta_15n's 9 gaps
/// filled with its mean over those rows, 8.7399440740740744; log-likelihood -54.869044001995455.
const IMPUTED: [f64; 11] = [
    -111.55484428343263,
    -8.7266228029761432,
    -7.8772288860499859,
    0.41582916723233659,
    -0.26148110008031766,
    0.6405526279170195,
    1.7853014488128331,
    0.017583653070234014,
    0.0069994706463008816,
    0.83584945588892867,
    2.7187080632917593,
];

fn penguins() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/penguins.csv")
}

/// Fit `logistic-map` on every row of `data` (train = test = the file) with `missing`.
fn fit(dir: &Path, data: &Path, missing: &str) -> ExperimentRecord {
    let text = format!(
        "name = \"penguins\"\n[data]\ntrain = {data:?}\ntest = {data:?}\ntarget = \"sex\"\n\
         positive = \"male\"\nfeatures = {FEATURES}\nmissing = \"{missing}\"\nstandardize = false\n\
         [prior]\nprecision = 1e-12\n[[method]]\nkind = \"logistic-map\"\n"
    );
    let file = dir.join(format!("{missing}.toml"));
    std::fs::write(&file, text).unwrap();
    let plan = bayeslab_engine::config::load(&file).unwrap();
    experiment::run(&plan, &mut Silent, None).unwrap()
}

fn assert_weights(record: &ExperimentRecord, want: &[f64], rows: usize) {
    assert_eq!(record.dataset.columns, COLUMNS);
    assert_eq!(record.dataset.rows_train, rows);
    let run = &record.runs[0];
    assert!(run.error.is_none(), "{:?}", run.error);
    for ((name, w), r) in COLUMNS.iter().zip(&run.weights).zip(want) {
        assert!(
            (w - r).abs() <= 1e-6 * r.abs().max(1.0),
            "{name}: bayeslab {w} vs statsmodels {r}"
        );
    }
}

#[test]
fn map_with_a_negligible_prior_equals_statsmodels_logit_on_dummy_coded_complete_rows() {
    let dir = tempfile::tempdir().unwrap();
    let record = fit(dir.path(), &penguins(), "drop");
    assert_weights(&record, &COMPLETE, 324);
    let species = &record.dataset.encoding.categorical[0];
    assert_eq!(species.column, "species");
    assert_eq!(species.reference, "Adelie");
    assert_eq!(
        species.design_columns,
        ["species=Chinstrap", "species=Gentoo"]
    );
}

#[test]
fn mean_imputation_equals_the_fit_on_a_table_imputed_by_hand_and_statsmodels() {
    let dir = tempfile::tempdir().unwrap();
    let imputed = fit(dir.path(), &penguins(), "mean");
    assert_weights(&imputed, &IMPUTED, 333);
    let info = &imputed.dataset.encoding.imputed;
    assert_eq!(info.len(), 1, "{info:?}");
    assert_eq!(
        (info[0].column.as_str(), info[0].strategy.as_str()),
        ("delta_15n", "mean")
    );
    assert_eq!((info[0].filled_train, info[0].filled_test), (9, 9));
    let fill: f64 = info[0].value.parse().unwrap();
    assert!((fill - 8.7399440740740744).abs() < 1e-12, "{fill}");

    // The same table imputed here: the rows with a sex and every feature but delta_15n, whose
    // empty cells get the mean of its values over those rows, written with every digit.
    let text = std::fs::read_to_string(penguins()).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (sex, d15n) = (col("sex"), col("delta_15n"));
    let others: Vec<usize> = [
        "species",
        "island",
        "bill_length_mm",
        "bill_depth_mm",
        "flipper_length_mm",
        "body_mass_g",
        "clutch_completion",
    ]
    .iter()
    .map(|n| col(n))
    .collect();
    let rows: Vec<Vec<String>> = lines
        .map(|l| l.split(',').map(String::from).collect::<Vec<_>>())
        .filter(|r| !r[sex].is_empty() && others.iter().all(|&j| !r[j].is_empty()))
        .collect();
    let present: Vec<f64> = rows
        .iter()
        .filter(|r| !r[d15n].is_empty())
        .map(|r| r[d15n].parse().unwrap())
        .collect();
    let mean = present.iter().sum::<f64>() / present.len() as f64;
    assert_eq!((rows.len(), present.len()), (333, 324));
    let mut by_hand = header.join(",") + "\n";
    for mut r in rows {
        if r[d15n].is_empty() {
            r[d15n] = format!("{mean:?}");
        }
        by_hand.push_str(&(r.join(",") + "\n"));
    }
    let hand = dir.path().join("imputed_by_hand.csv");
    std::fs::write(&hand, by_hand).unwrap();
    let complete = fit(dir.path(), &hand, "error");
    let (a, b) = (&imputed.runs[0].weights, &complete.runs[0].weights);
    for (name, (x, y)) in COLUMNS.iter().zip(a.iter().zip(b)) {
        assert!(
            (x - y).abs() <= 1e-8 * y.abs().max(1.0),
            "{name}: imputed {x} vs by hand {y}"
        );
    }
}

#[test]
fn results_json_records_the_levels_the_fills_and_the_named_classes() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!(
        "name = \"penguins\"\n[data]\npath = {:?}\ntarget = \"sex\"\npositive = \"male\"\n\
         features = {FEATURES}\nmissing = \"mean\"\nmissing_indicator = true\n\
         split = {{ every = 4, offset = 3 }}\n[[method]]\nkind = \"logistic-map\"\n",
        penguins()
    );
    let file = dir.path().join("penguins.toml");
    std::fs::write(&file, text).unwrap();
    let out = dir.path().join("run");
    let status = crate::util::cli::bin()
        .args(["run", "--quiet", "--out"])
        .arg(&out)
        .arg(&file)
        .status()
        .unwrap();
    assert!(status.success());
    let results: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    let d = &results["dataset"];
    // two text labels keep their names; positive picks class 1
    assert_eq!(d["classes"], serde_json::json!(["female", "male"]));
    let (train, test) = (
        d["rows_train"].as_u64().unwrap(),
        d["rows_test"].as_u64().unwrap(),
    );
    assert_eq!(train + test, 333);
    let cats = d["encoding"]["categorical"].as_array().unwrap();
    let names: Vec<&str> = cats.iter().map(|c| c["column"].as_str().unwrap()).collect();
    assert_eq!(names, ["species", "island", "clutch_completion"]);
    for c in cats {
        // every row used has one level: the counts add up to the rows
        let sum = |side: &str| -> u64 {
            c["levels"]
                .as_array()
                .unwrap()
                .iter()
                .map(|l| l[side].as_u64().unwrap())
                .sum()
        };
        assert_eq!((sum("train"), sum("test")), (train, test), "{c}");
    }
    assert_eq!(cats[0]["reference"], "Adelie");
    // counted independently with Python's csv module: Chinstrap rows with a sex, i % 4 != 3 / == 3
    assert_eq!(
        cats[0]["levels"][1],
        serde_json::json!({"level": "Chinstrap", "train": 51, "test": 17})
    );
    let imputed = d["encoding"]["imputed"].as_array().unwrap();
    assert_eq!(imputed.len(), 1);
    assert_eq!(imputed[0]["column"], "delta_15n");
    assert_eq!(imputed[0]["indicator"], "delta_15n=missing");
    assert_eq!(
        imputed[0]["filled_train"].as_u64().unwrap() + imputed[0]["filled_test"].as_u64().unwrap(),
        9
    );
    let columns: Vec<&str> = d["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    assert_eq!(&columns[10..], ["delta_15n", "delta_15n=missing"]);
}
