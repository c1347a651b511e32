//! `bayeslab compare` and `baseline = "..."` end to end: two runs of the quickstart data that
//! differ only in the prior precision, compared row by row.

use std::path::{Path, PathBuf};

use serde_json::Value;

mod pairs;

mod verdicts;

use crate::util::cli::bin;

fn experiment(dir: &Path, name: &str, precision: f64, baseline: Option<&Path>) -> PathBuf {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/pima.csv");
    let baseline = baseline
        .map(|b| format!("baseline = {:?}\n", b.display().to_string()))
        .unwrap_or_default();
    let text = format!(
        "name = \"{name}\"\nseed = 5\n{baseline}\n[data]\npath = {:?}\ntarget = \"y\"\nsplit = {{ every = 5, offset = 4 }}\n\n\
         [prior]\nprecision = {precision}\n\n[evaluation]\nresamples = 500\n\n\
         [[method]]\nid = \"laplace\"\nkind = \"logistic-laplace\"\npredictive = [\"plugin\", \"exact\"]\n",
        data.display().to_string()
    );
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, text).unwrap();
    path
}

fn run(exp: &Path, out: &Path) {
    let o = bin()
        .arg("run")
        .arg(exp)
        .arg("--quiet")
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn compare_writes_a_paired_bootstrap_table() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    run(&experiment(tmp.path(), "weak", 1.0, None), &a);
    run(&experiment(tmp.path(), "strong", 200.0, None), &b);
    let o = bin()
        .arg("compare")
        .arg(&a)
        .arg(&b)
        .arg("--resamples")
        .arg("300")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        stdout.contains("| laplace | exact | log_loss |"),
        "{stdout}"
    );
    let rows: Value =
        serde_json::from_str(&std::fs::read_to_string(b.join("comparison.json")).unwrap()).unwrap();
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 2 * 3, "two predictives x three metrics");
    for r in rows {
        for key in [
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
            assert!(r.get(key).is_some(), "missing {key}");
        }
        let (diff, lo, hi) = (
            r["diff"].as_f64().unwrap(),
            r["ci_low"].as_f64().unwrap(),
            r["ci_high"].as_f64().unwrap(),
        );
        assert!((r["b"].as_f64().unwrap() - r["a"].as_f64().unwrap() - diff).abs() < 1e-12);
        assert!(lo <= hi);
        let verdict = r["verdict"].as_str().unwrap();
        let want = if hi < 0.0 {
            "improved"
        } else if lo > 0.0 {
            "worse"
        } else {
            "within-noise"
        };
        assert_eq!(verdict, want);
    }
    // A prior 200 times stronger shrinks the weights towards 0: log-loss gets clearly worse.
    let ll = rows
        .iter()
        .find(|r| r["metric"] == "log_loss" && r["predictive"] == "plugin")
        .unwrap();
    assert_eq!(ll["verdict"], "worse", "{ll}");
    assert!(b.join("comparison.md").is_file());
}

#[test]
fn baseline_key_puts_the_comparison_in_the_reports() {
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("a");
    run(&experiment(tmp.path(), "weak", 1.0, None), &a);
    let b = tmp.path().join("b");
    run(&experiment(tmp.path(), "again", 1.0, Some(&a)), &b);
    let r: Value =
        serde_json::from_str(&std::fs::read_to_string(b.join("results.json")).unwrap()).unwrap();
    let rows = r["comparison"]["rows"].as_array().unwrap();
    // identical settings and seed: identical predictions, every difference exactly 0
    assert!(rows
        .iter()
        .all(|r| r["diff"] == 0.0 && r["verdict"] == "within-noise"));
    for f in ["report.md", "report.html"] {
        let text = std::fs::read_to_string(b.join(f)).unwrap();
        assert!(text.contains("Comparison with the baseline"), "{f}");
    }
    assert!(b.join("comparison.json").is_file());
}

#[test]
fn comparing_runs_on_different_test_rows_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("a");
    run(&experiment(tmp.path(), "weak", 1.0, None), &a);
    let other = Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/spector.toml");
    let b = tmp.path().join("b");
    run(&other, &b);
    let o = bin().arg("compare").arg(&a).arg(&b).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("same test set"));
}

/// The iris experiment (three classes) with the data path made absolute, `precision` for the
/// prior and an optional baseline.
fn iris(dir: &Path, name: &str, precision: f64, baseline: Option<&Path>) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("experiments/iris_multiclass.toml")).unwrap();
    let data = root.join("datasets/iris.csv").display().to_string();
    let baseline = baseline
        .map(|b| format!("baseline = {:?}\n", b.display().to_string()))
        .unwrap_or_default();
    let text = format!("{baseline}{text}")
        .replace("\"../datasets/iris.csv\"", &format!("{data:?}"))
        .replace("precision = 1.0", &format!("precision = {precision:?}"));
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, text).unwrap();
    path
}

/// results.json's metrics of every run and predictive: `<run>/<predictive>` -> metrics.
fn metrics_of(dir: &Path) -> Vec<(String, Value)> {
    let r: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("results.json")).unwrap()).unwrap();
    let mut out = Vec::new();
    for run in r["runs"].as_array().unwrap() {
        for p in run["predictives"].as_array().unwrap() {
            out.push((
                format!(
                    "{}/{}",
                    run["id"].as_str().unwrap(),
                    p["name"].as_str().unwrap()
                ),
                p["metrics"].clone(),
            ));
        }
    }
    out
}

#[test]
fn multiclass_runs_are_compared_with_the_multiclass_metrics() {
    // The runs' own results.json hold the multiclass log-loss, Brier score and top-label ECE
    // of every predictive, computed from the class probabilities in memory
    // (crates/core/src/metrics/multiclass.rs): compare's A and B must be exactly those, not the per-class
    // columns scored as binary probabilities (which gave "log-loss 7.99, ECE 1.30").
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    run(&iris(tmp.path(), "iris_a", 1.0, None), &a);
    // B has a baseline: `run` compares in memory (the record against A's directory).
    run(&iris(tmp.path(), "iris_b", 20.0, Some(&a)), &b);
    let baseline: Value =
        serde_json::from_str(&std::fs::read_to_string(b.join("results.json")).unwrap()).unwrap();
    let baseline_rows = baseline["comparison"]["rows"].as_array().unwrap().clone();
    // The same comparison from the two directories, with the experiment's seed and resamples.
    let o = bin()
        .arg("compare")
        .arg(&a)
        .arg(&b)
        .args(["--seed", "3", "--resamples", "2000", "--out"])
        .arg(tmp.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rows: Value =
        serde_json::from_str(&std::fs::read_to_string(tmp.path().join("comparison.json")).unwrap())
            .unwrap();
    let rows = rows.as_array().unwrap();
    let (ma, mb) = (metrics_of(&a), metrics_of(&b));
    assert_eq!(ma.len(), 9, "seven runs, two of them with two predictives");
    assert_eq!(rows.len(), ma.len() * 3);
    for r in rows {
        let key = format!(
            "{}/{}",
            r["run"].as_str().unwrap(),
            r["predictive"].as_str().unwrap()
        );
        let metric = r["metric"].as_str().unwrap();
        let want = |m: &[(String, Value)]| {
            m.iter()
                .find(|(k, _)| *k == key)
                .unwrap_or_else(|| panic!("{key}"))
                .1[metric]
                .as_f64()
                .unwrap()
        };
        for (side, m) in [("a", &ma), ("b", &mb)] {
            let (got, want) = (r[side].as_f64().unwrap(), want(m));
            assert!(
                (got - want).abs() <= 1e-12 * want.abs().max(1.0),
                "{key} {metric} {side}: {got} vs results.json {want}"
            );
        }
        assert!(r["ci_low"].as_f64().unwrap() <= r["ci_high"].as_f64().unwrap());
        // the run's in-memory comparison against the baseline is the same computation
        let same = baseline_rows
            .iter()
            .find(|s| {
                s["run"] == r["run"]
                    && s["predictive"] == r["predictive"]
                    && s["metric"] == r["metric"]
            })
            .unwrap_or_else(|| panic!("{key} {metric} not in the baseline comparison"));
        for f in ["a", "b", "diff", "ci_low", "ci_high"] {
            let (x, y) = (r[f].as_f64().unwrap(), same[f].as_f64().unwrap());
            assert!((x - y).abs() <= 1e-12, "{key} {metric} {f}: {x} vs {y}");
        }
        assert_eq!(r["verdict"], same["verdict"]);
    }
}

/// A run directory written by hand: results.json with `bins` calibration bins and the given
/// predictions.csv.
fn fake_run(dir: &Path, bins: &str, predictions: &str) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(
        dir.join("results.json"),
        format!(
            "{{\"experiment\": {{\"calibration_bins\": {bins}, \"calibration_binning\": \"equal-width\"}}}}"
        ),
    )
    .unwrap();
    std::fs::write(dir.join("predictions.csv"), predictions).unwrap();
    dir.to_path_buf()
}

const GOOD: &str = "row,y,m/plugin\n0,1,0.8\n1,0,0.3\n2,1,0.6\n";

/// `compare A B` of two hand-written run directories, both with the predictions `bad`
/// (so that only the file's own flaw can be refused) and B with `bins` calibration bins:
/// exit code 2 and the message.
fn refused(bad: &str, bins: &str, extra: &[&str]) -> String {
    let tmp = tempfile::tempdir().unwrap();
    let a = fake_run(&tmp.path().join("a"), "10", bad);
    let b = fake_run(&tmp.path().join("b"), bins, bad);
    let o = bin()
        .arg("compare")
        .arg(&a)
        .arg(&b)
        .args(extra)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr).to_string();
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(!b.join("comparison.json").exists());
    stderr
}

#[test]
fn probabilities_outside_0_1_are_refused_with_the_line_and_column() {
    for v in ["7.5", "-3", "NaN", "inf"] {
        let e = refused(
            &format!("row,y,m/plugin\n0,1,0.8\n1,0,{v}\n2,1,0.6\n"),
            "10",
            &[],
        );
        assert!(e.contains("predictions.csv"), "{e}");
        assert!(
            e.contains("line 3") && e.contains("column \"m/plugin\""),
            "{e}"
        );
        assert!(e.contains("[0, 1]"), "{e}");
    }
}

#[test]
fn empty_predictions_are_refused() {
    let e = refused("row,y,m/plugin\n", "10", &[]);
    assert!(
        e.contains("predictions.csv") && e.contains("no rows"),
        "{e}"
    );
    let e = refused("", "10", &[]);
    assert!(e.contains("predictions.csv") && e.contains("empty"), "{e}");
}

#[test]
fn malformed_multiclass_rows_are_refused() {
    let head = "row,y,m/plugin/p0,m/plugin/p1,m/plugin/p2\n";
    // the class probabilities of row 1 sum to 1.2
    let e = refused(
        &format!("{head}0,0,0.8,0.1,0.1\n1,2,0.5,0.4,0.3\n"),
        "10",
        &[],
    );
    assert!(e.contains("line 3") && e.contains("sum to 1.2"), "{e}");
    // a class column is missing
    let e = refused("row,y,m/plugin/p0,m/plugin/p2\n0,0,0.8,0.2\n", "10", &[]);
    assert!(e.contains("m/plugin/p1"), "{e}");
    // a label that is not one of the classes
    let e = refused(
        &format!("{head}0,0,0.8,0.1,0.1\n1,3,0.2,0.2,0.6\n"),
        "10",
        &[],
    );
    assert!(e.contains("line 3") && e.contains("column \"y\""), "{e}");
}

#[test]
fn binary_labels_must_be_0_or_1() {
    let e = refused("row,y,m/plugin\n0,1,0.8\n1,2,0.3\n2,1,0.6\n", "10", &[]);
    assert!(e.contains("line 3") && e.contains("column \"y\""), "{e}");
}

#[test]
fn absurd_resamples_are_refused_with_the_largest_sensible_value() {
    for v in ["18446744073709551615", "1000000000"] {
        let e = refused(GOOD, "10", &["--resamples", v]);
        assert!(e.contains("--resamples") && e.contains(v), "{e}");
        assert!(e.contains("at most 1000000"), "{e}");
    }
}

#[test]
fn absurd_calibration_bins_in_results_json_are_refused() {
    for v in ["1000000000000000000", "1e18", "0", "\"ten\""] {
        let e = refused(GOOD, v, &[]);
        assert!(
            e.contains("results.json") && e.contains("calibration_bins"),
            "{e}"
        );
    }
}
