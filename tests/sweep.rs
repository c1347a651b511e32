//! `[sweep]` end to end: one run directory per value and one report over the values.

use std::process::Command;

use serde_json::Value;

#[test]
fn prior_sweep_writes_one_report_over_every_value() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("sweep");
    let exp = concat!(env!("CARGO_MANIFEST_DIR"), "/experiments/prior_sweep.toml");
    let o = Command::new(env!("CARGO_BIN_EXE_bayeslab"))
        .args(["run", exp, "--quiet", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let s: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("sweep.json")).unwrap()).unwrap();
    assert_eq!(s["key"], "prior.precision");
    let values: Vec<f64> = s["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    assert_eq!(values, [0.001, 0.01, 0.1, 1.0, 10.0, 100.0, 1000.0]);
    let rows = s["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 7 * 3);
    for v in &values {
        // each value's directory is a complete run whose resolved config has that precision
        let dir = out.join(format!("prior.precision={v}"));
        let r: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("results.json")).unwrap())
                .unwrap();
        assert_eq!(r["experiment"]["prior_precision"].as_f64().unwrap(), *v);
        assert!(r["provenance"]["config"]
            .as_str()
            .unwrap()
            .contains(&format!("precision = {}", toml_float(*v))));
        // the sweep table repeats that run's metrics
        let ll = r["runs"][0]["predictives"][0]["metrics"]["log_loss"]
            .as_f64()
            .unwrap();
        let row = rows
            .iter()
            .find(|x| x["value"].as_f64() == Some(*v) && x["predictive"] == "plugin")
            .unwrap();
        assert_eq!(row["metrics"]["log_loss"].as_f64().unwrap(), ll);
    }
    // a stronger prior shrinks the weights: the log-loss at lambda = 1000 is clearly worse
    let ll = |v: f64| {
        rows.iter()
            .find(|x| x["value"].as_f64() == Some(v) && x["predictive"] == "exact")
            .unwrap()["metrics"]["log_loss"]
            .as_f64()
            .unwrap()
    };
    assert!(ll(1000.0) > ll(1.0) + 0.1);
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert_eq!(
        html.matches("<svg").count(),
        4,
        "log-loss, accuracy and ECE against the swept value, and each run's log evidence"
    );
    assert!(html.contains("log evidence ln p(y|X) against prior.precision"));
    assert!(std::fs::read_to_string(out.join("report.md"))
        .unwrap()
        .contains("| prior.precision | run | predictive |"));
}

fn toml_float(v: f64) -> String {
    toml::Value::Float(v).to_string()
}

/// Deletes the data file as soon as the first point has started, i.e. after the data were
/// loaded: a sweep that read its data file again for a later point would fail.
struct DeleteData {
    file: std::path::PathBuf,
    points: Vec<(usize, f64)>,
}

impl bayeslab::optim::Observer for DeleteData {
    fn observe(&mut self, _run: &str, _iterate: &bayeslab::optim::Iterate) {}
}

impl bayeslab::run::Monitor for DeleteData {
    fn sweep_point(&mut self, index: usize, _total: usize, _key: &str, value: f64) {
        self.points.push((index, value));
    }

    fn run_started(&mut self, _index: usize, _total: usize, _id: &str) {
        let _ = std::fs::remove_file(&self.file);
    }
}

#[test]
fn a_sweep_reads_its_data_file_once() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("pima.csv");
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/datasets/pima.csv"),
        &data,
    )
    .unwrap();
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/experiments/prior_sweep.toml"
    ))
    .unwrap()
    .replace("../datasets/pima.csv", "pima.csv");
    let exp = tmp.path().join("sweep.toml");
    std::fs::write(&exp, text).unwrap();
    let plan = bayeslab::config::load(&exp).unwrap();
    let mut monitor = DeleteData {
        file: data.clone(),
        points: Vec::new(),
    };
    let outcome = bayeslab::run::run_plan(&plan, &mut monitor, None, None).unwrap();
    assert!(!data.exists(), "the monitor deleted the data file");
    let bayeslab::record::Outcome::Sweep(sweep) = outcome else {
        panic!("a [sweep] experiment gives a sweep")
    };
    let values: Vec<f64> = sweep.points.iter().map(|p| p.value).collect();
    assert_eq!(values, [0.001, 0.01, 0.1, 1.0, 10.0, 100.0, 1000.0]);
    assert_eq!(monitor.points.len(), 7);
    for p in &sweep.points {
        assert_eq!(p.record.runs.len(), 1);
        assert!(
            p.record.runs[0].error.is_none(),
            "{:?}",
            p.record.runs[0].error
        );
        // every point's provenance still names the file, with the digest taken when it was read
        assert_eq!(p.record.provenance.data_sha256.len(), 1);
    }
}
