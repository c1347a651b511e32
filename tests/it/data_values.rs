//! Label and feature values end to end (issue 14): text labels -1, 0, +1 are three classes, and
//! features near 1e300 standardise to the same design as the same features at 1e8.

use std::path::{Path, PathBuf};

use serde_json::Value;

fn fixture(name: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    p.display().to_string()
}

/// Run an experiment on `data` with `methods` (and extra `[data]` lines); its results.json.
fn run(dir: &Path, name: &str, data: &str, extra: &str, methods: &[&str]) -> Value {
    let exp = dir.join(format!("{name}.toml"));
    let methods: String = methods
        .iter()
        .map(|k| format!("[[method]]\nkind = \"{k}\"\n\n"))
        .collect();
    let text = format!(
        "[data]\npath = {:?}\ntarget = \"y\"\nsplit = {{ every = 2, offset = 1 }}\n{extra}\n\n{methods}",
        fixture(data)
    );
    std::fs::write(&exp, text).unwrap();
    let out = dir.join(name);
    let o = crate::util::cli::bin()
        .arg("run")
        .arg(&exp)
        .arg("--quiet")
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap()
}

fn weights(r: &Value) -> Vec<f64> {
    r["runs"][0]["weights"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_f64().unwrap())
        .collect()
}

#[test]
fn text_labels_minus_one_zero_plus_one_are_three_classes() {
    // polars reads the column as text because of "+1"; "0" and "-1" used to merge into class 0
    let tmp = tempfile::tempdir().unwrap();
    let r = run(
        tmp.path(),
        "labels",
        "labels_minus_zero_plus.csv",
        "",
        &["softmax-laplace"],
    );
    assert_eq!(
        r["dataset"]["classes"],
        serde_json::json!(["-1", "0", "+1"])
    );
    let text = std::fs::read_to_string(tmp.path().join("labels/predictions.csv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let y = header.iter().position(|h| *h == "y").unwrap();
    let mut seen: Vec<String> = lines
        .map(|l| l.split(',').nth(y).unwrap().to_string())
        .collect();
    seen.sort();
    seen.dedup();
    assert_eq!(seen, vec!["0", "1", "2"]);
}

#[test]
fn features_near_1e300_give_the_design_of_the_same_features_at_1e8() {
    // huge_1e300.csv is huge_scale.csv with a times 2^970 and b times -2^970 (about 1.5e300).
    // Standardisation is invariant to scaling a column, and scaling by a power of two is exact,
    // so the MLE is the same with the weight of b negated, and each mean and sd is 2^970 times
    // (b: -2^970 times the mean) the original. Before, the sd overflowed to inf, both columns
    // became 0 and logistic-mle called them constant.
    let tmp = tempfile::tempdir().unwrap();
    let small = run(tmp.path(), "small", "huge_scale.csv", "", &["logistic-mle"]);
    let f = 2f64.powi(970);
    for (name, extra) in [
        ("big", ""),
        ("streamed", "streaming = true\nchunk_rows = 7"),
    ] {
        let big = run(tmp.path(), name, "huge_1e300.csv", extra, &["logistic-mle"]);
        assert_eq!(
            big["runs"][0]["converged"], true,
            "{name}: {}",
            big["runs"][0]
        );
        let (w, v) = (weights(&small), weights(&big));
        let want = [w[0], w[1], -w[2]];
        for (a, b) in want.iter().zip(&v) {
            assert!(
                (a - b).abs() <= 1e-9 * a.abs().max(1.0),
                "{name}: {w:?} vs {v:?}"
            );
        }
        for (j, sign) in [(0, 1.0), (1, -1.0)] {
            let s = &small["dataset"]["summaries"][j];
            let b = &big["dataset"]["summaries"][j];
            let get = |v: &Value, k: &str| v[k].as_f64().unwrap();
            let mean = get(s, "mean") * f * sign;
            let sd = get(s, "sd") * f;
            assert!(
                (get(b, "mean") - mean).abs() <= 1e-12 * mean.abs(),
                "{name} {j}: {b}"
            );
            assert!((get(b, "sd") - sd).abs() <= 1e-12 * sd, "{name} {j}: {b}");
        }
    }
}
