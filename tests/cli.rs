//! The command line end to end on the shipped quickstart experiment: every output file is
//! checked against the contract in README.md.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_bayeslab"))
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

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

/// `bayeslab run` on an experiment written to a temporary folder: `[data]` with `path` (relative
/// to the repository) and target `y`, then `rest`; the output goes to `<tmp>/o`.
fn run_one_off(data: &str, rest: &str) -> (tempfile::TempDir, std::process::Output) {
    let tmp = tempfile::tempdir().unwrap();
    let exp = tmp.path().join("e.toml");
    let path = root().join(data).display().to_string();
    std::fs::write(
        &exp,
        format!("[data]\npath = {path:?}\ntarget = \"y\"\n{rest}"),
    )
    .unwrap();
    let out = bin()
        .arg("run")
        .arg(&exp)
        .arg("--out")
        .arg(tmp.path().join("o"))
        .output()
        .unwrap();
    (tmp, out)
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
    let mut columns_expected = vec!["row".to_string(), "y".to_string()];
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
        let p = |name: &str| row[col(name)].parse::<f64>().unwrap();
        for name in &header[2..] {
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
    // per run and predictive (1 + 1 + 5), two convergence plots, the weights.
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
        "reliability-logistic-laplace-exact",
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

#[test]
fn every_shipped_experiment_passes_check() {
    let mut n = 0;
    for entry in std::fs::read_dir(root().join("experiments")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            let out = bin().arg("check").arg(&path).output().unwrap();
            assert!(
                out.status.success(),
                "{}: {}",
                path.display(),
                String::from_utf8_lossy(&out.stderr)
            );
            n += 1;
        }
    }
    assert!(n >= 3);
}

#[test]
fn missing_drop_drops_and_says_how_many() {
    let (tmp, out) = run_one_off(
        "tests/fixtures/with_nan.csv",
        "missing = \"drop\"\nsplit = { every = 3, offset = 2 }\n\n[[method]]\nkind = \"logistic-map\"\n",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("dropped 3 of 30 rows with missing values")
    );
    let r: Value =
        serde_json::from_str(&std::fs::read_to_string(tmp.path().join("o/results.json")).unwrap())
            .unwrap();
    assert_eq!(
        r["dataset"]["rows_train"].as_u64().unwrap() + r["dataset"]["rows_test"].as_u64().unwrap(),
        27
    );
}

#[test]
fn string_labels_with_positive() {
    let tmp = tempfile::tempdir().unwrap();
    let exp = tmp.path().join("labels.toml");
    let data = root().join("tests/fixtures/string_labels.csv");
    std::fs::write(
        &exp,
        format!(
            "[data]\npath = {:?}\ntarget = \"outcome\"\npositive = \"Yes\"\n\n[[method]]\nkind = \"logistic-laplace\"\n",
            data.display().to_string()
        ),
    )
    .unwrap();
    let out = run_quiet(&exp, &tmp.path().join("o"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r: Value =
        serde_json::from_str(&std::fs::read_to_string(tmp.path().join("o/results.json")).unwrap())
            .unwrap();
    // rows i with (7 i) % 3 == 0 are "Yes": i = 0, 3, ..., 39 -> 14 of 40
    let pos = r["dataset"]["positives_train"].as_u64().unwrap()
        + r["dataset"]["positives_test"].as_u64().unwrap();
    assert_eq!(pos, 14);
}

#[test]
fn an_interrupted_run_leaves_the_previous_report_untouched() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("bc");
    std::fs::create_dir_all(&out).unwrap();
    // a previous run's record (its first key schema_version), which a run may replace
    let previous = "{\"schema_version\": 1, \"previous\": true}";
    std::fs::write(out.join("results.json"), previous).unwrap();
    // A gradient-descent fit of thousands of iterations: long enough to interrupt.
    let exp = tmp.path().join("slow.toml");
    let data = root().join("datasets/breast_cancer.csv");
    std::fs::write(
        &exp,
        format!(
            "[data]\npath = {:?}\ntarget = \"y\"\n\n[prior]\nprecision = 0.01\n\n[[method]]\nkind = \"logistic-map\"\noptimizer = \"gradient\"\nlearning_rate = 0.01\nmax_iter = 100000000\ntolerance = 1e-12\n",
            data.display().to_string()
        ),
    )
    .unwrap();
    let mut child = bin()
        .arg("run")
        .arg(&exp)
        .arg("--out")
        .arg(&out)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // wait until the fit is under way (its first progress line), then interrupt
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    std::io::BufRead::read_line(&mut stderr, &mut line).unwrap();
    assert!(line.contains("logistic-map"), "{line}");
    let status = Command::new("kill")
        .arg("-INT")
        .arg(child.id().to_string())
        .status()
        .unwrap();
    assert!(status.success());
    // A process started in the background by a shell without job control inherits SIGINT
    // ignored; then the run cannot be interrupted by it, so kill it outright instead (the
    // harder case for the atomic output). Never wait forever.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if std::time::Instant::now() > deadline {
            child.kill().unwrap();
            break child.wait().unwrap();
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    assert!(!status.success(), "the run was interrupted");
    assert_eq!(
        std::fs::read_to_string(out.join("results.json")).unwrap(),
        previous
    );
    let siblings = std::fs::read_dir(tmp.path()).unwrap().count();
    assert_eq!(
        siblings, 2,
        "only the experiment and the untouched output: no temporaries"
    );
}

#[test]
fn features_of_magnitude_1e8_fit_once_standardised_and_wide_data_fits_under_a_prior() {
    let tmp = tempfile::tempdir().unwrap();
    for (name, data, kinds) in [
        (
            "huge",
            "huge_scale.csv",
            ["logistic-mle", "logistic-laplace"],
        ),
        ("wide", "wide.csv", ["logistic-map", "logistic-laplace"]),
    ] {
        let exp = tmp.path().join(format!("{name}.toml"));
        let path = root().join("tests/fixtures").join(data);
        let methods: String = kinds
            .iter()
            .map(|k| format!("[[method]]\nkind = \"{k}\"\n\n"))
            .collect();
        std::fs::write(
            &exp,
            format!("[data]\npath = {:?}\ntarget = \"y\"\nsplit = {{ every = 2, offset = 1 }}\n\n{methods}", path.display().to_string()),
        )
        .unwrap();
        let out = tmp.path().join(name);
        let o = run_quiet(&exp, &out);
        assert!(
            o.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let r: Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap())
                .unwrap();
        for run in r["runs"].as_array().unwrap() {
            assert_eq!(run["converged"], true, "{name}: {run}");
            for p in run["predictives"].as_array().unwrap() {
                assert!(p["metrics"]["log_loss"].as_f64().unwrap().is_finite());
            }
        }
    }
}

#[test]
fn one_failing_method_does_not_lose_the_others() {
    // MLE fails on separable data; MAP and the Student-t predictives of the generative
    // classifiers (fitted from a class with a single training row) still produce results.
    let tmp = tempfile::tempdir().unwrap();
    let exp = tmp.path().join("mixed.toml");
    let sep = root().join("tests/fixtures/separable.csv");
    std::fs::write(
        &exp,
        format!("[data]\npath = {:?}\ntarget = \"y\"\n\n[[method]]\nkind = \"logistic-mle\"\n\n[[method]]\nkind = \"logistic-map\"\n", sep.display().to_string()),
    )
    .unwrap();
    let out = tmp.path().join("o");
    let o = run_quiet(&exp, &out);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("perfectly separable"));
    let r: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    let runs = r["runs"].as_array().unwrap();
    assert!(runs[0]["error"]
        .as_str()
        .unwrap()
        .contains("perfectly separable"));
    assert!(runs[0]["predictives"].as_array().unwrap().is_empty());
    assert!(runs[1]["error"].is_null());
    assert!(runs[1]["predictives"][0]["metrics"]["log_loss"]
        .as_f64()
        .unwrap()
        .is_finite());
    assert!(std::fs::read_to_string(out.join("report.md"))
        .unwrap()
        .contains("**logistic-mle failed:**"));

    let exp = tmp.path().join("tiny.toml");
    let tiny = root().join("tests/fixtures/tiny_class.csv");
    std::fs::write(
        &exp,
        format!(
            "[data]\npath = {:?}\ntarget = \"y\"\nsplit = {{ every = 2, offset = 1 }}\n\n[[method]]\nkind = \"gaussian-naive-bayes\"\n\n[[method]]\nkind = \"gaussian-generative\"\n",
            tiny.display().to_string()
        ),
    )
    .unwrap();
    let o = run_quiet(&exp, &tmp.path().join("t"));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let r: Value =
        serde_json::from_str(&std::fs::read_to_string(tmp.path().join("t/results.json")).unwrap())
            .unwrap();
    assert_eq!(r["dataset"]["positives_train"], 1);
    for run in r["runs"].as_array().unwrap() {
        for p in run["predictives"].as_array().unwrap() {
            let m = &p["metrics"];
            assert!(
                m["log_loss"].as_f64().unwrap().is_finite() && m["brier"].as_f64().unwrap() <= 1.0,
                "{run}"
            );
        }
    }
}

#[test]
fn a_missing_or_unreadable_experiment_file_is_named() {
    let tmp = tempfile::tempdir().unwrap();
    for path in [tmp.path().join("no_such.toml"), tmp.path().to_path_buf()] {
        let o = bin().arg("check").arg(&path).output().unwrap();
        assert_eq!(o.status.code(), Some(2));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains(&path.display().to_string())
                && err.contains("cannot read the experiment file"),
            "{err}"
        );
    }
}

/// `bayeslab run EXP --quiet --out OUT`.
fn run_quiet(exp: &Path, out: &Path) -> std::process::Output {
    bin()
        .arg("run")
        .arg(exp)
        .arg("--quiet")
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}

#[test]
fn a_sampler_reports_sweeps_and_mixing_and_chains_that_have_not_mixed_are_flagged() {
    // tests/fixtures/short_chains.toml: a Laplace run, then 4 Gibbs chains of 8 sweeps each
    // started far apart, which cannot have mixed.
    let dir = tempfile::tempdir().unwrap();
    let o = bin()
        .arg("run")
        .arg(root().join("tests/fixtures/short_chains.toml"))
        .arg("--out")
        .arg(dir.path().join("out"))
        .output()
        .unwrap();
    assert!(o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    let line = err
        .lines()
        .find(|l| l.contains("sweeps × 4 chains"))
        .unwrap_or_else(|| panic!("no sampler line in\n{err}"));
    assert!(
        line.starts_with("[2/2] gibbs 8 sweeps × 4 chains in "),
        "{line}"
    );
    assert!(line.contains("R-hat max 1."), "{line}");
    assert!(
        line.contains("NOT MIXED (R-hat > 1.01): run longer chains"),
        "{line}"
    );
    // the optimiser's line is unchanged
    assert!(err.contains("[1/2] laplace converged after"), "{err}");
    // and the report's convergence table says the same
    let md = std::fs::read_to_string(dir.path().join("out/report.md")).unwrap();
    assert!(
        md.contains("| gibbs | gibbs-logistic | **sampled, NOT MIXED** | 8 sweeps per chain |"),
        "{md}"
    );
    assert!(
        md.contains("| laplace | logistic-laplace | converged | "),
        "{md}"
    );
}

/// Each progress line says what its kind did: a closed form and ADF's single pass count no
/// iterations (they used to read "converged after 0 iterations" and "after 1 iterations").
#[test]
fn progress_lines_say_what_each_kind_did() {
    let (_tmp, out) = run_one_off(
        "datasets/pima.csv",
        "\n[[method]]\nkind = \"gaussian-naive-bayes\"\n\n[[method]]\nkind = \"adf-probit\"\n\n[[method]]\nkind = \"logistic-map\"\n",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    for text in [
        "[1/3] gaussian-naive-bayes closed form in ",
        "[2/3] adf-probit one pass over the training rows in ",
        "[3/3] logistic-map converged after ",
    ] {
        assert!(stderr.contains(text), "{text} missing:\n{stderr}");
    }
    assert!(!stderr.contains("after 0 iterations"), "{stderr}");
    assert!(!stderr.contains("1 iterations"), "{stderr}");
}

/// EP under `damping = 1e-6` moves its sites a millionth of the way per sweep: it runs out of
/// iterations, and the run says so with the fix instead of reporting the prior as converged.
#[test]
fn a_fit_that_runs_out_of_iterations_says_so_with_the_fix() {
    let (tmp, out) = run_one_off(
        "datasets/pima.csv",
        "\n[[method]]\nkind = \"ep-probit\"\ndamping = 1e-6\nmax_iter = 20\n",
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("max-iterations after 20 iterations"),
        "{stderr}"
    );
    assert!(
        stderr.contains("NOT CONVERGED") && stderr.contains("damping closer to 1"),
        "{stderr}"
    );
    let r: Value =
        serde_json::from_str(&std::fs::read_to_string(tmp.path().join("o/results.json")).unwrap())
            .unwrap();
    assert_eq!(r["runs"][0]["termination"], "max-iterations");
}

#[test]
fn top_level_help_points_to_the_kinds_in_run_help() {
    let out = bin().arg("--help").output().unwrap();
    assert!(out.status.success());
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(
        help.contains(
            "`bayeslab run --help` lists every method kind with its predictives and keys"
        ),
        "{help}"
    );
    assert!(help.contains("gibbs-logistic"), "{help}");
    let run = bin().args(["run", "--help"]).output().unwrap();
    let run = String::from_utf8_lossy(&run.stdout);
    assert!(run.contains("keys: chains, draws, burn_in, thin"), "{run}");
}
