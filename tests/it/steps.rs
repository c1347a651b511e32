//! The step-by-step record end to end: experiments/pictures_steps.toml keeps Newton's, EP's
//! and ADF's steps in results.json and draws one strip per run in both reports; with more than
//! three weights `record_steps` records nothing and says so in the dataset notes.

use crate::util::cli::{root, run_experiment};
use serde_json::Value;

fn results(dir: &std::path::Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("results.json")).unwrap()).unwrap()
}

#[test]
fn pictures_steps_records_every_fit_and_draws_a_strip_per_run() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("o");
    let run = run_experiment(&root().join("experiments/pictures_steps.toml"), &out, true);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let r = results(&out);
    let runs = r["runs"].as_array().unwrap();
    let steps = |id: &str| {
        runs.iter()
            .find(|x| x["id"] == id)
            .map(|x| x["steps"].clone())
            .unwrap()
    };
    assert_eq!(steps("laplace")["kind"], "newton");
    assert_eq!(steps("ep")["kind"], "ep-site");
    assert_eq!(steps("adf")["kind"], "adf-example");
    assert!(steps("exact").is_null(), "a quadrature run has no steps");
    // ADF: one step per training row (24), each the posterior after that many examples
    let adf = steps("adf");
    assert_eq!(adf["total"], 24);
    assert_eq!(adf["steps"].as_array().unwrap().len(), 24);
    // EP: cut at 40 updates of its sweeps, the total said
    let ep = steps("ep");
    assert_eq!(ep["steps"].as_array().unwrap().len(), 40);
    assert!(ep["total"].as_u64().unwrap() > 40);
    let laplace = steps("laplace");
    let last = laplace["steps"].as_array().unwrap().last().unwrap().clone();
    let mode = runs.iter().find(|x| x["id"] == "laplace").unwrap()["weights"].clone();
    assert_eq!(last["mean"], mode, "Newton's last step is the mode");
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    for id in ["laplace", "ep", "adf"] {
        assert!(html.contains(&format!("id=\"steps-{id}\"")), "{id}");
        assert!(md.contains(&format!("](plots/steps-{id}.svg)")), "{id}");
        assert!(out.join(format!("plots/steps-{id}.svg")).exists(), "{id}");
    }
}

#[test]
fn record_steps_with_four_weights_records_nothing_and_says_so() {
    let tmp = tempfile::tempdir().unwrap();
    let exp = tmp.path().join("e.toml");
    let path = root().join("datasets/spector.csv").display().to_string();
    std::fs::write(
        &exp,
        format!(
            "[data]\npath = {path:?}\ntarget = \"y\"\nfeatures = [\"GPA\", \"TUCE\", \"PSI\"]\n\
             [evaluation]\nrecord_steps = true\n[[method]]\nkind = \"logistic-laplace\"\n"
        ),
    )
    .unwrap();
    let out = tmp.path().join("o");
    let run = run_experiment(&exp, &out, true);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let r = results(&out);
    assert!(r["runs"][0]["steps"].is_null());
    let notes = r["dataset"]["notes"].to_string();
    assert!(
        notes.contains("record_steps = true: no steps recorded"),
        "{notes}"
    );
    assert!(notes.contains("this one has 4"), "{notes}");
}
