//! `bayeslab run`'s k-hat phase end to end: its own progress line on stderr while the draws are
//! scored, before the run's summary line, and its seconds in results.json.

use crate::util::cli::run_experiment;
use serde_json::Value;

/// `bayeslab run` on Pima with one `logistic-laplace` and `khat_draws = 500`, output in `<tmp>/o`.
fn run_one_off() -> (tempfile::TempDir, std::process::Output) {
    let tmp = tempfile::tempdir().unwrap();
    let exp = tmp.path().join("e.toml");
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/pima.csv");
    std::fs::write(
        &exp,
        format!(
            "[data]\npath = {:?}\ntarget = \"y\"\n[evaluation]\nkhat_draws = 500\n[[method]]\nkind = \"logistic-laplace\"\n",
            data.display().to_string()
        ),
    )
    .unwrap();
    let out = run_experiment(&exp, &tmp.path().join("o"), false);
    (tmp, out)
}

#[test]
fn the_khat_phase_has_its_own_progress_line_and_its_seconds_in_the_record() {
    let (tmp, out) = run_one_off();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    let phase = lines
        .iter()
        .position(|l| l.starts_with("[1/1] logistic-laplace   k̂: 500 draws … "))
        .unwrap_or_else(|| panic!("no k-hat line in\n{stderr}"));
    let done = lines
        .iter()
        .position(|l| l.starts_with("[1/1] logistic-laplace converged after"))
        .unwrap();
    assert!(
        phase < done,
        "the k-hat line comes while the run is open:\n{stderr}"
    );
    let r: Value =
        serde_json::from_str(&std::fs::read_to_string(tmp.path().join("o/results.json")).unwrap())
            .unwrap();
    let run = &r["runs"][0];
    let (khat, seconds) = (
        run["khat"].as_f64().unwrap(),
        run["khat_seconds"].as_f64().unwrap(),
    );
    let draws = run["khat_draws"].as_u64().unwrap() as usize;
    let verdict = bayeslab_core::model::importance::khat_verdict(khat, draws);
    assert!(
        lines[phase].ends_with(&format!(" s, k̂ = {khat:.2} ({verdict})")),
        "{}",
        lines[phase]
    );
    assert!(seconds > 0.0 && seconds < run["fit_seconds"].as_f64().unwrap() + 60.0);
}
