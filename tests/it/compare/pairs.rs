//! `bayeslab compare --pair A_COLUMN=B_COLUMN`: the columns compared are named, across runs
//! whose ids differ and between two predictives of one run directory; a bad pair is exit
//! code 2 with the columns that exist on its side.

use std::path::Path;

use serde_json::Value;

use super::{bin, experiment, fake_run, metrics_of, refused, run};

/// `compare` with `args` after the two directories, its rows written to `out`.
fn compare_rows(a: &Path, b: &Path, args: &[&str], out: &Path) -> (Vec<Value>, String) {
    let o = bin()
        .arg("compare")
        .arg(a)
        .arg(b)
        .args(args)
        .args(["--resamples", "300", "--seed", "4", "--out"])
        .arg(out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rows: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("comparison.json")).unwrap())
            .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout).to_string();
    (rows.as_array().unwrap().clone(), stdout)
}

#[test]
fn a_pair_across_differently_named_runs_equals_the_comparison_of_namesakes() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b, renamed) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("renamed"),
    );
    run(&experiment(tmp.path(), "weak", 1.0, None), &a);
    let strong = experiment(tmp.path(), "strong", 200.0, None);
    run(&strong, &b);
    // The same experiment as B with the method's id changed: the same predictions under
    // another column name, which the default comparison cannot match with A's.
    let text = std::fs::read_to_string(&strong)
        .unwrap()
        .replace("id = \"laplace\"", "id = \"shrunk\"");
    let other = tmp.path().join("shrunk.toml");
    std::fs::write(&other, text).unwrap();
    run(&other, &renamed);
    let o = bin().arg("compare").arg(&a).arg(&renamed).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no run/predictive column is shared"));

    let (want, _) = compare_rows(&a, &b, &[], &tmp.path().join("default"));
    let (got, stdout) = compare_rows(
        &a,
        &renamed,
        &[
            "--pair",
            "laplace/plugin=shrunk/plugin",
            "--pair",
            "laplace/exact=shrunk/exact",
        ],
        &tmp.path().join("paired"),
    );
    assert_eq!(want.len(), 6);
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(&want) {
        for f in [
            "run",
            "predictive",
            "metric",
            "a",
            "b",
            "diff",
            "ci_low",
            "ci_high",
            "verdict",
        ] {
            assert_eq!(g[f], w[f], "{f}: {g} vs {w}");
        }
        let b_column = format!("shrunk/{}", w["predictive"].as_str().unwrap());
        assert_eq!(g["b_column"], b_column.as_str());
        // the default comparison's rows keep today's fields only
        assert!(w.get("b_column").is_none(), "{w}");
    }
    assert!(stdout.contains("| B column |"), "{stdout}");
    assert!(
        stdout.contains("| laplace | exact | shrunk/exact | log_loss |"),
        "{stdout}"
    );
}

#[test]
fn two_predictives_of_one_run_directory_are_compared() {
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("a");
    run(&experiment(tmp.path(), "weak", 1.0, None), &a);
    let (rows, _) = compare_rows(
        &a,
        &a,
        &["--pair", "laplace/plugin=laplace/exact"],
        &tmp.path().join("out"),
    );
    assert_eq!(rows.len(), 3, "one pair x three metrics");
    // A and B are the run's own metrics of the two predictives (results.json).
    let metrics = metrics_of(&a);
    let of = |column: &str, metric: &str| {
        metrics.iter().find(|(k, _)| k == column).unwrap().1[metric]
            .as_f64()
            .unwrap()
    };
    for r in &rows {
        let metric = r["metric"].as_str().unwrap();
        assert_eq!(
            (r["run"].as_str(), r["predictive"].as_str()),
            (Some("laplace"), Some("plugin"))
        );
        assert_eq!(r["b_column"], "laplace/exact");
        for (side, column) in [("a", "laplace/plugin"), ("b", "laplace/exact")] {
            let (got, want) = (r[side].as_f64().unwrap(), of(column, metric));
            assert!((got - want).abs() <= 1e-12 * want.abs().max(1.0), "{r}");
        }
    }
    // A column against itself: every resample's difference is exactly 0.
    let (rows, _) = compare_rows(
        &a,
        &a,
        &["--pair", "laplace/exact=laplace/exact"],
        &tmp.path().join("same"),
    );
    for r in &rows {
        assert_eq!(
            (r["diff"].as_f64(), r["ci_low"].as_f64()),
            (Some(0.0), Some(0.0))
        );
        assert_eq!(r["verdict"], "within-noise");
        assert!(r.get("b_column").is_none(), "{r}");
    }
}

const TWO: &str = "row,y,m/plugin,m/exact\n0,1,0.8,0.7\n1,0,0.3,0.4\n2,1,0.6,0.6\n";

#[test]
fn a_column_missing_on_its_side_is_refused_with_the_columns_there() {
    let e = refused(TWO, "10", &["--pair", "m/exat=m/plugin"]);
    assert!(e.contains("--pair m/exat=m/plugin"), "{e}");
    assert!(e.contains("A has no column \"m/exat\""), "{e}");
    assert!(e.contains("(did you mean `m/exact`?)"), "{e}");
    assert!(e.contains("its columns are m/plugin, m/exact"), "{e}");
    let e = refused(TWO, "10", &["--pair", "m/plugin=gibbs/exact"]);
    assert!(e.contains("B has no column \"gibbs/exact\""), "{e}");
    assert!(!e.contains("did you mean"), "{e}");
    assert!(e.contains("its columns are m/plugin, m/exact"), "{e}");
    // a later bad pair is refused as well
    let e = refused(
        TWO,
        "10",
        &["--pair", "m/plugin=m/exact", "--pair", "x/y=m/exact"],
    );
    assert!(e.contains("A has no column \"x/y\""), "{e}");
}

#[test]
fn a_pair_without_an_equals_sign_is_refused() {
    for v in ["m/plugin", "=m/plugin", "m/plugin="] {
        let e = refused(TWO, "10", &["--pair", v]);
        assert!(
            e.contains("--pair") && e.contains("A_COLUMN=B_COLUMN"),
            "{e}"
        );
    }
}

#[test]
fn a_binary_column_is_not_paired_with_a_multiclass_one() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = fake_run(
        &tmp.path().join("a"),
        "10",
        "row,y,m/plugin,k/plugin/p0,k/plugin/p1,k/plugin/p2\n0,1,0.7,0.2,0.5,0.3\n1,0,0.4,0.5,0.3,0.2\n",
    );
    let o = bin()
        .arg("compare")
        .arg(&dir)
        .arg(&dir)
        .args(["--pair", "m/plugin=k/plugin"])
        .output()
        .unwrap();
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(e.contains("\"k/plugin\" predicts 3 classes"), "{e}");
    assert!(e.contains("same classes"), "{e}");
    assert!(!dir.join("comparison.json").exists());
}
