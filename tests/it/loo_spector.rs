//! PSIS-LOO against brute force on a small real dataset: tests/fixtures/loo/spector_loo.toml
//! fits the Spector & Mazzeo logit (24 training rows) by Gibbs sampling and by three Gaussian
//! approximations. Each run's elpd_loo from one fit must agree with leave-one-out done the
//! slow way: the run fitted 24 times, each time without one row, and that row's log predictive
//! density taken from the refit (`bayeslab_engine::run::loo::refit_row`, the same refit `loo_refits`
//! uses). They agree within a tenth of the PSIS estimate's standard error (Vehtari, Gelman &
//! Gabry 2017, section 4: the PSIS error is far below it when the k's are good; seen: 0.004 to
//! 0.05 se), and the approximations' corrected estimates agree with the exact posterior's brute
//! force as closely. The Jaakkola-Jordan VB posterior has two rows above k = 0.7; refitting
//! them (`loo_refits`) must list them and move its estimate to the brute force.

use std::path::Path;

use bayeslab_engine::run::loo::{refit_row, LooInput};
use bayeslab_engine::run::Silent;

#[test]
fn psis_loo_agrees_with_refitting_without_each_row() {
    let plan =
        bayeslab_engine::config::load(Path::new("tests/fixtures/loo/spector_loo.toml")).unwrap();
    let record = bayeslab_engine::run::run(&plan, &mut Silent, None).unwrap();
    let dataset = bayeslab_data::load(plan.data.as_ref().unwrap()).unwrap();
    let n = dataset.train.rows();
    assert_eq!(n, 24);
    let mut brute_gibbs = None;
    for method in &plan.methods {
        let run = record.runs.iter().find(|r| r.id == method.id).unwrap();
        let loo = run
            .loo
            .as_ref()
            .unwrap_or_else(|| panic!("{} has no LOO", run.id));
        assert_eq!(loo.pointwise.len(), n);
        eprintln!("{}: k {:?}, max {:.2}", run.id, loo.k_counts, loo.k_max);
        let input = LooInput {
            plan: &plan,
            method,
            dataset: &dataset,
            precision: 1.0,
            cancel: None,
        };
        let likelihood = method.kind.likelihood(1.0).unwrap();
        let brute: f64 = (0..n)
            .map(|i| {
                refit_row(&input, likelihood, i, loo.draws)
                    .unwrap()
                    .unwrap()
            })
            .sum();
        eprintln!(
            "{}: PSIS-LOO {:.4} ± {:.4} (p_loo {:.2}), brute force {brute:.4}",
            run.id, loo.elpd_loo, loo.se, loo.p_loo
        );
        assert!(
            (loo.elpd_loo - brute).abs() < 0.1 * loo.se,
            "{}: PSIS-LOO {} against brute force {brute} (se {})",
            run.id,
            loo.elpd_loo,
            loo.se
        );
        if method.id == "gibbs" {
            brute_gibbs = Some(brute);
            assert_eq!(
                loo.k_counts.good, n,
                "the exact posterior's k's are all good"
            );
        }
        // Without refits, every row above 0.7 is left, and said to be.
        let bad = loo.k_counts.bad + loo.k_counts.very_bad;
        assert_eq!(loo.unrefitted_rows.len(), bad);
        assert_eq!(loo.reliable(), bad == 0);
    }
    // The approximations' corrected estimates are the exact model's: each within its se of
    // the exact posterior's brute-force LOO.
    let exact = brute_gibbs.unwrap();
    for run in record.runs.iter().filter(|r| r.id != "gibbs") {
        let loo = run.loo.as_ref().unwrap();
        assert!(
            (loo.elpd_loo - exact).abs() < 0.1 * loo.se,
            "{}: corrected PSIS-LOO {} against the exact posterior's brute force {exact}",
            run.id,
            loo.elpd_loo
        );
    }
    // The comparison table ranks every run, best first, the best with a zero difference.
    assert_eq!(record.loo_comparison.len(), 4);
    assert_eq!(record.loo_comparison[0].elpd_diff, 0.0);
}

#[test]
fn rows_above_the_threshold_are_refitted_and_named() {
    let path = Path::new("tests/fixtures/loo/spector_loo.toml");
    let text = std::fs::read_to_string(path)
        .unwrap()
        .replace("loo_refits = 0", "loo_refits = 10");
    let plan = bayeslab_engine::config::parse(&text, path).unwrap();
    let record = bayeslab_engine::run::run(&plan, &mut Silent, None).unwrap();
    let vb = record.runs.iter().find(|r| r.id == "vb").unwrap();
    let loo = vb.loo.as_ref().unwrap();
    let bad: Vec<usize> = (0..loo.pointwise.len())
        .filter(|&i| loo.pointwise[i].k > 0.7)
        .collect();
    assert!(!bad.is_empty(), "the VB fixture should have rows above 0.7");
    assert_eq!(loo.refitted_rows, bad);
    assert!(loo.unrefitted_rows.is_empty() && loo.reliable());
    // Each refitted row's elpd is the brute-force one.
    let dataset = bayeslab_data::load(plan.data.as_ref().unwrap()).unwrap();
    let method = plan.methods.iter().find(|m| m.id == "vb").unwrap();
    let input = LooInput {
        plan: &plan,
        method,
        dataset: &dataset,
        precision: 1.0,
        cancel: None,
    };
    let likelihood = method.kind.likelihood(1.0).unwrap();
    for &i in &bad {
        let exact = refit_row(&input, likelihood, i, loo.draws)
            .unwrap()
            .unwrap();
        assert_eq!(loo.pointwise[i].elpd, exact, "row {i}");
    }
}
