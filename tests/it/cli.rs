//! The command line end to end on the shipped quickstart experiment: every output file is
//! checked against the contract in docs/reference/outputs.md (other runs of the command line: tests/it/cli_runs.rs).

use std::path::Path;

use crate::util::cli::{bin, root};
use serde_json::Value;

fn run_quickstart(out: &Path) -> Value {
    let status = bin()
        .arg("run")
        .arg(root().join("experiments/quickstart.toml"))
        .arg("--out")
        .arg(out)
        .arg("--quiet")
        .status()
        .unwrap();
    assert!(status.success());
    serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap()
}

fn csv(path: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header = lines
        .next()
        .unwrap()
        .split(',')
        .map(str::to_string)
        .collect();
    let rows = lines
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect();
    (header, rows)
}

#[test]
fn quickstart_writes_every_file_of_the_contract() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("qs");
    let r = run_quickstart(&out);

    assert_eq!(r["schema_version"], 1);
    assert_eq!(r["experiment"]["name"], "quickstart");
    assert_eq!(r["experiment"]["seed"], 42);
    let rows_train = r["dataset"]["rows_train"].as_u64().unwrap() as usize;
    let rows_test = r["dataset"]["rows_test"].as_u64().unwrap() as usize;
    assert_eq!(rows_train + rows_test, 532);
    // every fifth row (offset 4) is a test row: rows 4, 9, ..., 529
    assert_eq!(rows_test, 106);
    assert_eq!(r["dataset"]["features"], 7);
    let columns = r["dataset"]["columns"].as_array().unwrap();
    assert_eq!(columns[0], "intercept");

    let runs = r["runs"].as_array().unwrap();
    let ids: Vec<&str> = runs.iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["logistic-mle", "logistic-map", "logistic-laplace"]);
    let mut columns_expected = vec!["row".to_string(), "y".to_string(), "data_row".to_string()];
    for run in runs {
        assert_eq!(run["converged"], true, "{run}");
        assert!(run["iterations"].as_u64().unwrap() >= 1);
        assert!(run["fit_seconds"].as_f64().unwrap() >= 0.0);
        // Only the Gaussian posterior has a k-hat, and with it the seconds it took.
        let laplace = run["id"] == "logistic-laplace";
        assert_eq!(run["khat"].is_f64(), laplace, "{}", run["id"]);
        assert_eq!(
            run["khat_seconds"].as_f64().is_some_and(|s| s > 0.0),
            laplace
        );
        for p in run["predictives"].as_array().unwrap() {
            columns_expected.push(format!(
                "{}/{}",
                run["id"].as_str().unwrap(),
                p["name"].as_str().unwrap()
            ));
            let m = &p["metrics"];
            for key in ["log_loss", "brier", "accuracy", "auc", "ece", "mce"] {
                let v = m[key]
                    .as_f64()
                    .unwrap_or_else(|| panic!("metric {key} missing"));
                assert!(v.is_finite() && v >= 0.0);
            }
            assert!(m["accuracy"].as_f64().unwrap() <= 1.0 && m["auc"].as_f64().unwrap() <= 1.0);
            let bins = p["calibration"].as_array().unwrap();
            assert_eq!(bins.len(), 10);
            let total: u64 = bins.iter().map(|b| b["count"].as_u64().unwrap()).sum();
            assert_eq!(total as usize, rows_test);
            for key in [
                "lower",
                "upper",
                "count",
                "mean_predicted",
                "observed_frequency",
            ] {
                assert!(bins[0].get(key).is_some(), "bin key {key}");
            }
        }
    }
    let laplace = &runs[2];
    let names: Vec<&str> = laplace["predictives"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["plugin", "mc", "probit", "mackay", "exact"]);
    let post = &laplace["posterior"];
    assert_eq!(post["mean"].as_array().unwrap().len(), columns.len());
    assert_eq!(post["cov_diag"].as_array().unwrap().len(), columns.len());
    assert!(post["cov_diag"]
        .as_array()
        .unwrap()
        .iter()
        .all(|v| v.as_f64().unwrap() > 0.0));
    assert!(post["log_evidence"].as_f64().unwrap() < 0.0);
    assert!(runs[0]["posterior"].is_null(), "the MLE has no posterior");

    // predictions.csv
    let (header, rows) = csv(&out.join("predictions.csv"));
    assert_eq!(header, columns_expected);
    assert_eq!(rows.len(), rows_test);
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row[0], i.to_string());
        assert!(row[1] == "0" || row[1] == "1");
        // every fifth data row (offset 4) is a test row: the i-th is data row 5 i + 4
        assert_eq!(row[2], (5 * i + 4).to_string());
        let p = |name: &str| row[col(name)].parse::<f64>().unwrap();
        for name in &header[3..] {
            assert!((0.0..=1.0).contains(&p(name)));
        }
        // MacKay stays within 0.02 of the exact Laplace predictive, Monte Carlo (S = 10,000)
        // within 5 standard errors (sd of sigma(a) <= 0.5).
        let exact = p("logistic-laplace/exact");
        assert!((p("logistic-laplace/mackay") - exact).abs() < 0.02);
        assert!((p("logistic-laplace/mc") - exact).abs() < 5.0 * 0.5 / 100.0);
        // MAP plug-in and the Laplace plug-in are the same weights.
        assert_eq!(p("logistic-map/plugin"), p("logistic-laplace/plugin"));
    }
    let positives = rows.iter().filter(|r| r[1] == "1").count();
    assert_eq!(
        positives as u64,
        r["dataset"]["positives_test"].as_u64().unwrap()
    );

    // trace.csv: per run, iterations 0..=n with a non-increasing objective
    let (header, rows) = csv(&out.join("trace.csv"));
    assert_eq!(
        header,
        [
            "run",
            "iteration",
            "objective",
            "grad_norm",
            "step",
            "elapsed_s"
        ]
    );
    for run in runs {
        let id = run["id"].as_str().unwrap();
        let mine: Vec<&Vec<String>> = rows.iter().filter(|r| r[0] == id).collect();
        assert_eq!(mine.len() as u64, run["iterations"].as_u64().unwrap() + 1);
        let objective: Vec<f64> = mine.iter().map(|r| r[2].parse().unwrap()).collect();
        // never increases beyond rounding (Newton accepts a level step only if |g| shrinks)
        assert!(objective
            .windows(2)
            .all(|w| w[1] <= w[0] + 1e-12 * w[0].abs()));
        let last_grad: f64 = mine.last().unwrap()[3].parse().unwrap();
        assert!(last_grad <= 1e-8);
    }

    // report.md
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    for needle in [
        "# bayeslab report: quickstart",
        "## Dataset",
        "## Test-set metrics",
        "## Convergence",
        "## Calibration",
        "logistic-laplace | exact",
    ] {
        assert!(report.contains(needle), "report.md lacks {needle:?}");
    }
    // nothing else in the directory (no temporaries)
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "plots",
            "predictions.csv",
            "report.html",
            "report.md",
            "results.json",
            "trace.csv"
        ]
    );

    // report.html: self-contained, one inline SVG per promised figure: a reliability diagram
    // per run with its predictives overlaid (3), two convergence plots, the weights; the
    // pictures of the posterior: weight space, input space and the two predictive formulas.
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>") && html.trim_end().ends_with("</html>"));
    assert_eq!(html.matches("<svg").count(), 10);
    assert_eq!(html.matches("</svg>").count(), 10);
    let without_ns = html.replace("xmlns=\"http://www.w3.org/2000/svg\"", "");
    for external in [
        "http://", "https://", "<script", "<link", " src=", "url(", "@import",
    ] {
        assert!(
            !without_ns.contains(external),
            "report.html references something external: {external}"
        );
    }
    for id in [
        "reliability-logistic-laplace",
        "convergence-gradient",
        "convergence-objective",
        "weights",
    ] {
        assert!(
            html.contains(&format!("id=\"{id}\"")),
            "figure {id} missing"
        );
    }
    // report.md references the same figures as files written beside it
    let plots: Vec<String> = std::fs::read_dir(out.join("plots"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into())
        .collect();
    // the six figures above and the four pictures of the posterior
    assert_eq!(plots.len(), 10);
    for p in &plots {
        assert!(
            report.contains(&format!("(plots/{p})")),
            "report.md does not show {p}"
        );
        let svg = std::fs::read_to_string(out.join("plots").join(p)).unwrap();
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    }
    // provenance
    let pv = &r["provenance"];
    assert_eq!(pv["seed"], 42);
    assert_eq!(pv["version"], env!("CARGO_PKG_VERSION"));
    assert!(pv["cores"].as_u64().unwrap() >= 1);
    assert!(pv["created"].as_str().unwrap().ends_with('Z'));
    let shas = pv["data_sha256"].as_object().unwrap();
    assert_eq!(shas.len(), 1);
    assert_eq!(
        shas.values().next().unwrap(),
        "e4b1b2bb886f814ef9f2fd9b323b18315189f25b21d713a469f09bb61a49468e"
    );
    let config = pv["config"].as_str().unwrap();
    for key in [
        "calibration_binning = \"equal-width\"",
        "resamples = 2000",
        "mc_samples = 10000",
        "quadrature_nodes = 64",
    ] {
        assert!(
            config.contains(key),
            "resolved config lacks {key}:\n{config}"
        );
    }
}

#[test]
fn the_same_experiment_gives_the_same_numbers() {
    let tmp = tempfile::tempdir().unwrap();
    run_quickstart(&tmp.path().join("a"));
    run_quickstart(&tmp.path().join("b"));
    let a = std::fs::read_to_string(tmp.path().join("a/predictions.csv")).unwrap();
    let b = std::fs::read_to_string(tmp.path().join("b/predictions.csv")).unwrap();
    assert_eq!(a, b);
}
