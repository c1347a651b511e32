//! The command line end to end beyond the contract: every shipped experiment checks, missing
//! values and string labels, interrupted and failing runs, samplers, progress lines and help.

use std::process::Command;

use crate::util::cli::{bin, root, run_experiment};
use serde_json::Value;

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
    let out = run_experiment(&exp, &tmp.path().join("o"), false);
    (tmp, out)
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
    let out = run_experiment(&exp, &tmp.path().join("o"), true);
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
            "[data]\npath = {:?}\ntarget = \"y\"\n\n[prior]\nprecision = 0.01\n\n[[method]]\nkind = \"logistic-map\"\noptimizer = \"gradient\"\nlearning_rate = 0.01\nmax_iter = 1000000\ntolerance = 1e-12\n",
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
    // wait until the fit is under way (its first progress line, after the data's), then
    // interrupt
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    while !line.contains("logistic-map") {
        line.clear();
        let n = std::io::BufRead::read_line(&mut stderr, &mut line).unwrap();
        assert!(n > 0, "stderr ended before the fit started");
    }
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
        let o = run_experiment(&exp, &out, true);
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
    let o = run_experiment(&exp, &out, true);
    // 3: the results were written, but a method failed (2 is bad input, nothing run).
    assert_eq!(o.status.code(), Some(3));
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
    let o = run_experiment(&exp, &tmp.path().join("t"), true);
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
        // the read is said, with its time, before any run (issue 32)
        "[data] 426 training rows, 106 test rows, ",
        " (read in ",
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
