//! K-fold cross-validation (`[data] split = { folds = K, seed = S, stratify = true }`) on
//! tests/fixtures/kfold/spector_folds.toml: the folds partition the rows, keep the classes'
//! proportions, and each fold's run equals the run of the same experiment with `fold = k`
//! written out by hand; the summary's means and elpd are those of the folds.

use std::collections::BTreeSet;
use std::path::Path;

use bayeslab_core::record::Outcome;
use bayeslab_engine::config::folds::FOLD_KEY;
use bayeslab_engine::run::Silent;

const FILE: &str = "tests/fixtures/kfold/spector_folds.toml";

/// The experiment with its split fixed to fold `k`.
fn one_fold(k: usize) -> bayeslab_engine::config::Plan {
    let text = std::fs::read_to_string(FILE).unwrap().replace(
        "split = { folds = 4, seed = 11, stratify = true }",
        &format!("split = {{ folds = 4, seed = 11, stratify = true, fold = {k} }}"),
    );
    bayeslab_engine::config::parse(&text, Path::new(FILE)).unwrap()
}

#[test]
fn the_folds_partition_the_rows_and_keep_the_class_proportions() {
    let mut seen = BTreeSet::new();
    for k in 0..4 {
        let plan = one_fold(k);
        assert!(plan.sweep.is_none());
        let d = bayeslab_data::load(plan.data.as_ref().unwrap()).unwrap();
        assert_eq!(d.train.rows() + d.test.rows(), 32);
        for &r in &d.test.source_rows {
            assert!(seen.insert(r), "row {r} is in two folds");
        }
        // spector has 11 positives in 32 rows: each fold of 8 holds 2 or 3.
        let positives = d.test.positives();
        assert!(
            (2..=3).contains(&positives),
            "fold {k}: {positives} positives"
        );
    }
    assert_eq!(seen.len(), 32);
}

#[test]
fn each_fold_equals_a_separate_run_of_that_fold() {
    let plan = bayeslab_engine::config::load(Path::new(FILE)).unwrap();
    let sweep = plan.sweep.as_ref().expect("folds run as a sweep");
    assert_eq!(sweep.key, FOLD_KEY);
    assert_eq!(sweep.points.len(), 4);
    let Outcome::Sweep(all) =
        bayeslab_engine::run::run_plan(&plan, &mut Silent, None, None).unwrap()
    else {
        panic!("a sweep")
    };
    let mut log_loss_sum = 0.0;
    for (k, point) in all.points.iter().enumerate() {
        let alone = bayeslab_engine::run::run(&one_fold(k), &mut Silent, None).unwrap();
        for (a, b) in point.record.runs.iter().zip(&alone.runs) {
            assert_eq!(a.id, b.id);
            for (p, q) in a.predictives.iter().zip(&b.predictives) {
                assert_eq!(p.metrics, q.metrics, "fold {k}: {}/{}", a.id, p.name);
            }
        }
        let exact = &point.record.runs[1].predictives[1];
        log_loss_sum += exact.metrics.log_loss * point.record.dataset.rows_test as f64;
    }
    let summary = bayeslab_report::folds::summaries(&all);
    let laplace_exact = summary
        .iter()
        .find(|s| s.run == "laplace" && s.predictive == "exact")
        .unwrap();
    // elpd by K-fold is minus the log-loss summed over every row, each tested once.
    assert!((laplace_exact.elpd_kfold + log_loss_sum).abs() < 1e-9);
    let mean: f64 = all
        .points
        .iter()
        .map(|p| p.record.runs[1].predictives[1].metrics.log_loss)
        .sum::<f64>()
        / 4.0;
    assert_eq!(laplace_exact.metrics[0].0, "log-loss");
    assert!((laplace_exact.metrics[0].1 - mean).abs() < 1e-12);
}
