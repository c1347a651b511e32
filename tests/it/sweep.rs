//! `[sweep]` end to end: one run directory per value and one report over the values.

use serde_json::Value;

#[test]
fn prior_sweep_writes_one_report_over_every_value() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("sweep");
    let exp = concat!(env!("CARGO_MANIFEST_DIR"), "/experiments/prior_sweep.toml");
    let o = crate::util::cli::bin()
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

impl bayeslab_engine::run::Monitor for DeleteData {
    fn event(&mut self, event: bayeslab_engine::run::Event) {
        match event {
            bayeslab_engine::run::Event::SweepPoint(at) => self.points.push((at.index, at.value)),
            bayeslab_engine::run::Event::RunStarted { .. } => {
                let _ = std::fs::remove_file(&self.file);
            }
            _ => {}
        }
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
    let plan = bayeslab_engine::config::load(&exp).unwrap();
    let mut monitor = DeleteData {
        file: data.clone(),
        points: Vec::new(),
    };
    let outcome = bayeslab_engine::run::run_plan(&plan, &mut monitor, None, None).unwrap();
    assert!(!data.exists(), "the monitor deleted the data file");
    let bayeslab_core::record::Outcome::Sweep(sweep) = outcome else {
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

/// Writes `toml` into a fresh folder beside a copy of the Spector data and runs it into `out`.
fn sweep_run(toml: &str) -> (tempfile::TempDir, std::process::Output) {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/datasets/spector.csv"),
        tmp.path().join("spector.csv"),
    )
    .unwrap();
    let exp = tmp.path().join("sweep.toml");
    std::fs::write(
        &exp,
        format!("name = \"s\"\n[data]\npath = \"spector.csv\"\ntarget = \"y\"\n\n{toml}"),
    )
    .unwrap();
    let o = crate::util::cli::bin()
        .arg("run")
        .arg(&exp)
        .arg("--out")
        .arg(tmp.path().join("out"))
        .output()
        .unwrap();
    (tmp, o)
}

#[test]
fn distinct_values_get_distinct_directories_however_close_or_extreme() {
    // Two seeds one apart beyond 2^53 are one f64; 1e-300 and 1e300 print hundreds of digits
    // in plain notation. Every point must keep its own complete run directory.
    // Values spanning 600 decades in one sweep (their figure is drawn against log10 of the
    // value: a log axis over them took plotters minutes).
    let cases: [(&str, &str, &[&str]); 4] = [
        (
            "seed",
            "[9007199254740992, 9007199254740993]",
            &["seed=9007199254740992", "seed=9007199254740993"],
        ),
        (
            "prior.precision",
            "[1e-300, 2.5e-300]",
            &["prior.precision=1e-300", "prior.precision=2.5e-300"],
        ),
        (
            "prior.precision",
            "[1e300, 3e300]",
            &["prior.precision=1e300", "prior.precision=3e300"],
        ),
        (
            "prior.precision",
            "[1e-300, 1e300, 0.5]",
            &[
                "prior.precision=1e-300",
                "prior.precision=1e300",
                "prior.precision=0.5",
            ],
        ),
    ];
    for (key, values, dirs) in cases {
        let (tmp, o) = sweep_run(&format!(
            "[[method]]\nkind = \"logistic-map\"\n\n[sweep]\n{key} = {values}\n"
        ));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{key} = {values}: {err}");
        let out = tmp.path().join("out");
        let sweep: Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("sweep.json")).unwrap())
                .unwrap();
        let rows = sweep["rows"].as_array().unwrap();
        for dir in dirs {
            let r: Value = serde_json::from_str(
                &std::fs::read_to_string(out.join(dir).join("results.json")).unwrap(),
            )
            .unwrap_or_else(|e| panic!("{dir}: {e}"));
            assert_eq!(r["runs"].as_array().unwrap().len(), 1, "{dir}");
            assert!(
                rows.iter().any(|row| row["dir"] == *dir),
                "{dir} in sweep.json"
            );
        }
        let written = std::fs::read_dir(&out)
            .unwrap()
            .filter(|e| e.as_ref().unwrap().path().is_dir())
            .count();
        assert_eq!(
            written,
            dirs.len() + 1,
            "one directory per point, plus plots/"
        );
    }
    // the seed is the point's own, not its neighbour's
    let (tmp, _) = sweep_run(
        "[[method]]\nkind = \"logistic-map\"\n\n[sweep]\nseed = [9007199254740992, 9007199254740993]\n",
    );
    let config = |dir: &str| {
        let r: Value = serde_json::from_str(
            &std::fs::read_to_string(tmp.path().join("out").join(dir).join("results.json"))
                .unwrap(),
        )
        .unwrap();
        r["provenance"]["config"].as_str().unwrap().to_string()
    };
    assert!(config("seed=9007199254740993").contains("seed = 9007199254740993"));
    assert!(config("seed=9007199254740992").contains("seed = 9007199254740992"));
}

#[test]
fn every_point_is_checked_against_the_data_before_any_point_runs() {
    // Spector's default split leaves a handful of test rows; a million resamples of 100,000
    // bins passes the bootstrap's step budget only for the first value.
    let (tmp, o) = sweep_run(
        "[evaluation]\ncalibration_bins = 100000\n\n[[method]]\nkind = \"logistic-map\"\n\n\
         [sweep]\nevaluation.resamples = [100, 1000000]\n",
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("[sweep] evaluation.resamples = 1000000:") && err.contains("too many"),
        "{err}"
    );
    assert!(
        !err.contains("[sweep 1/2]") && !err.contains("logistic-map"),
        "no point ran before the refusal:\n{err}"
    );
    assert!(!tmp.path().join("out").exists());
}
