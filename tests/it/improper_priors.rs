//! Fits that cannot reach an answer say so, for every kind alike: separable rows under an
//! improper prior (`[prior] precision = 0`) are refused by every kind with a weight prior, in
//! memory and streamed, with the fix for that kind (model/glm.rs `runaway`, run/failure.rs);
//! and an iterative fit whose tolerance cannot be met stops on no progress instead of running
//! to `max_iter`, its record saying why (optim/driver.rs).

use std::path::Path;
use std::process::Output;
use std::time::{Duration, Instant};

use serde_json::Value;

fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Run an experiment of `body` (after a [data] table on `data`) into `dir/out`.
fn run(dir: &Path, data: &str, body: &str) -> (Output, Option<Value>) {
    let exp = dir.join("exp.toml");
    std::fs::write(
        &exp,
        format!("name = \"p\"\n[data]\npath = {data:?}\ntarget = \"y\"\n{body}"),
    )
    .unwrap();
    let out = dir.join("out");
    let o = crate::util::cli::bin()
        .args(["run", "--out"])
        .arg(&out)
        .arg(&exp)
        .output()
        .unwrap();
    let results = std::fs::read_to_string(out.join("results.json"))
        .ok()
        .map(|t| serde_json::from_str(&t).unwrap());
    (o, results)
}

#[test]
fn separable_rows_under_a_flat_prior_are_refused_by_every_kind_with_its_own_fix() {
    let binary = fixture("separable.csv");
    let three = fixture("separable_three.csv");
    // (softmax-laplace without reference_class is refused at any data under a flat prior:
    // tests/invalid_configs/softmax_improper_prior_without_reference.toml)
    let cases: [(&str, &str, &str); 7] = [
        ("logistic-mle", &binary, ""),
        ("logistic-map", &binary, ""),
        ("logistic-laplace", &binary, ""),
        ("probit-laplace", &binary, ""),
        (
            "logistic-laplace",
            &binary,
            "optimizer = \"gradient\"\nmax_iter = 200000\n",
        ),
        ("softmax-laplace", &binary, "reference_class = true\n"),
        ("softmax-laplace", &three, "reference_class = true\n"),
    ];
    for streamed in [false, true] {
        for (kind, data, extra) in cases {
            if streamed && (kind.starts_with("softmax") || extra.contains("gradient")) {
                continue; // kinds the streamed path does not run
            }
            let tmp = tempfile::tempdir().unwrap();
            let stream = if streamed {
                "streaming = true\nchunk_rows = 8\nsplit = { every = 5, offset = 4 }\n"
            } else {
                ""
            };
            let (o, results) = run(
                tmp.path(),
                data,
                &format!(
                    "{stream}\n[prior]\nprecision = 0\n\n[[method]]\nkind = \"{kind}\"\n{extra}"
                ),
            );
            let err = String::from_utf8_lossy(&o.stderr);
            let what = format!("{kind} {extra:?} streamed={streamed}");
            // the run wrote its results and one method failed: exit 3 (bad input is 2)
            assert_eq!(o.status.code(), Some(3), "{what}: {err}");
            assert!(err.contains("perfectly separable"), "{what}: {err}");
            let run = &results.unwrap()["runs"][0];
            assert_eq!(run["converged"], false, "{what}");
            assert_eq!(
                run["termination"], "separable",
                "{what}: the record says why"
            );
            if kind == "logistic-mle" {
                assert!(err.contains("Use kind = \"logistic-map\""), "{what}: {err}");
            } else {
                assert!(
                    err.contains(&format!("kind = \"{kind}\" has no posterior mode"))
                        && err.contains("Set [prior] precision > 0"),
                    "{what}: {err}"
                );
                assert!(
                    !err.contains(&format!("Use kind = \"{kind}\"")),
                    "{what}: advises the kind already in use: {err}"
                );
            }
        }
    }
}

#[test]
fn a_flat_prior_on_overlapping_classes_still_fits() {
    // Spector's classes overlap: the maximum-likelihood weights exist and every kind finds them.
    let spector = format!("{}/datasets/spector.csv", env!("CARGO_MANIFEST_DIR"));
    for kind in ["logistic-laplace", "probit-laplace"] {
        let tmp = tempfile::tempdir().unwrap();
        let (o, results) = run(
            tmp.path(),
            &spector,
            &format!("\n[prior]\nprecision = 0\n\n[[method]]\nkind = \"{kind}\"\n"),
        );
        assert!(
            o.status.success(),
            "{kind}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(results.unwrap()["runs"][0]["converged"], true, "{kind}");
    }
}

#[test]
fn an_unreachable_tolerance_stops_on_no_progress_and_the_record_says_so() {
    let spector = format!("{}/datasets/spector.csv", env!("CARGO_MANIFEST_DIR"));
    let mut stalled = 0;
    for kind in [
        "ep-probit",
        "ep-logistic",
        "vb-logistic",
        "vi-logistic",
        "vi-probit",
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let start = Instant::now();
        let (o, results) = run(
            tmp.path(),
            &spector,
            &format!("\n[[method]]\nkind = \"{kind}\"\ntolerance = 1e-300\nmax_iter = 1000000\n"),
        );
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(start.elapsed() < Duration::from_secs(60), "{kind} ran on");
        let run = &results.unwrap_or_else(|| panic!("{kind}: {err}"))["runs"][0];
        assert!(
            run["error"].is_null(),
            "{kind}: the last iterate's results are kept"
        );
        let iterations = run["iterations"].as_u64().unwrap();
        assert!(iterations < 100_000, "{kind}: {iterations} iterations");
        // A fixed point reached exactly (a change of exactly 0) meets even 1e-300; any other
        // end is no progress, said as such.
        let grad = run_grad_norm(&tmp.path().join("out"), kind);
        if grad == 0.0 {
            assert_eq!(run["termination"], "converged", "{kind}");
            continue;
        }
        stalled += 1;
        assert_eq!(run["termination"], "no-progress", "{kind}: {run}");
        assert_eq!(run["converged"], false, "{kind}");
        assert!(
            iterations >= bayeslab_core::optim::STALL_WINDOW as u64,
            "{kind}: {iterations} iterations"
        );
        assert!(
            err.contains("NOT CONVERGED") && err.contains("raise tolerance"),
            "{kind}: {err}"
        );
    }
    assert!(stalled >= 2, "EP at least must stop on no progress");
}

/// The gradient norm (EP: site change) of the last iterate of `run` in trace.csv.
fn run_grad_norm(out: &Path, run: &str) -> f64 {
    let trace = std::fs::read_to_string(out.join("trace.csv")).unwrap();
    let mut lines = trace.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let (r, g) = (
        header.iter().position(|h| *h == "run").unwrap(),
        header.iter().position(|h| *h == "grad_norm").unwrap(),
    );
    lines
        .map(|l| l.split(',').collect::<Vec<_>>())
        .rfind(|c| c[r] == run)
        .map(|c| c[g].parse().unwrap())
        .unwrap()
}

#[test]
fn an_evidence_maximum_at_the_edge_of_its_grid_is_flagged_in_the_record_and_every_view() {
    // Labels that alternate whatever x is: the evidence keeps rising with the prior precision,
    // past the grid's upper end. Spector's has its maximum inside the grid.
    let tmp = tempfile::tempdir().unwrap();
    let noise = tmp.path().join("noise.csv");
    let rows: String = (0..80)
        .map(|i| {
            let i = f64::from(i);
            format!(
                "{:.4},{:.4},{}\n",
                (2.3 * i).sin(),
                (1.1 * i).cos(),
                i % 2.0
            )
        })
        .collect();
    std::fs::write(&noise, format!("x1,x2,y\n{rows}")).unwrap();
    let spector = format!("{}/datasets/spector.csv", env!("CARGO_MANIFEST_DIR"));
    for (data, edge) in [(noise.display().to_string(), Some("high")), (spector, None)] {
        for kind in ["logistic-laplace", "probit-laplace"] {
            let dir = tempfile::tempdir().unwrap();
            let (o, results) = run(
                dir.path(),
                &data,
                &format!("\n[prior]\nprecision = \"evidence\"\n\n[[method]]\nkind = \"{kind}\"\n"),
            );
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(o.status.success(), "{kind}: {err}");
            let run = &results.unwrap()["runs"][0];
            let out = dir.path().join("out");
            let md = std::fs::read_to_string(out.join("report.md")).unwrap();
            let html = std::fs::read_to_string(out.join("report.html")).unwrap();
            match edge {
                Some(e) => {
                    assert_eq!(run["prior_precision_edge"], e, "{kind}");
                    assert!(
                        err.contains("WARNING") && err.contains("edge of the search grid"),
                        "{err}"
                    );
                    for view in [&md, &html] {
                        assert!(view.contains("(at the grid's upper edge)"), "{kind}");
                        assert!(view.contains("may lie above the grid"), "{kind}");
                    }
                }
                None => {
                    assert!(run.get("prior_precision_edge").is_none(), "{kind}: {run}");
                    assert!(!err.contains("edge of the search grid"), "{err}");
                    assert!(!md.contains("grid's upper edge") && !md.contains("grid's lower edge"));
                }
            }
        }
    }
}
