//! `bayeslab compare` and `baseline = "..."` end to end: two runs of the quickstart data that
//! differ only in the prior precision, compared row by row.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_bayeslab"))
}

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
