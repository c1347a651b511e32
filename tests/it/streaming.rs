//! `[data] streaming = true` against the in-memory run of the same experiment: weights,
//! posterior moments, log evidence, every test prediction and every metric agree to 1e-10, for
//! CSV and Parquet input read in many small, uneven chunks (issue 8, "Larger than memory").

use std::path::{Path, PathBuf};

use crate::util::streaming::{assert_equal, root, run, write_parquet};
use bayeslab_engine::run::{self as experiment, Silent};

/// The shipped streaming experiment with its data path, chunk size and split replaced; without
/// `chunk_rows` the experiment runs in memory.
fn experiment(dir: &Path, data: &Path, chunk_rows: Option<usize>, split: &str) -> PathBuf {
    let shipped = std::fs::read_to_string(root().join("experiments/streaming.toml")).unwrap();
    let mut text = String::new();
    for line in shipped.lines() {
        let key = line.split('=').next().unwrap_or("").trim();
        match key {
            "path" => text.push_str(&format!("path = {:?}\n", data.display().to_string())),
            "split" => text.push_str(&format!("split = {split}\n")),
            "streaming" | "max_memory" => {}
            "chunk_rows" => {
                if let Some(n) = chunk_rows {
                    text.push_str(&format!("streaming = true\nchunk_rows = {n}\n"));
                }
            }
            _ => {
                text.push_str(line);
                text.push('\n');
            }
        }
    }
    let name = match chunk_rows {
        Some(n) => format!("streamed-{n}.toml"),
        None => "memory.toml".to_string(),
    };
    let file = dir.join(name);
    std::fs::write(&file, text).unwrap();
    file
}

#[test]
fn streaming_equals_in_memory_on_pima_csv_and_parquet() {
    let dir = tempfile::tempdir().unwrap();
    let csv = root().join("datasets/pima.csv");
    let parquet = dir.path().join("pima.parquet");
    write_parquet(&csv, &parquet);
    for (data, split) in [
        (&csv, "{ every = 5, offset = 4 }"),
        (
            &parquet,
            "{ test_fraction = 0.25, seed = 7, draw = \"hash\" }",
        ),
    ] {
        let sub = tempfile::tempdir().unwrap();
        let memory = run(&experiment(sub.path(), data, None, split));
        let streamed = run(&experiment(sub.path(), data, Some(37), split));
        let info = streamed.streaming.as_ref().unwrap();
        // 532 rows in chunks of 37: 14 full chunks and one of 14
        assert_eq!(info.chunks_per_pass, 15);
        assert!(info
            .passes
            .iter()
            .any(|p| p.purpose == bayeslab_core::record::PassPurpose::Predict));
        for r in &info.runs {
            assert!(r.passes >= 1 && r.seconds_per_pass > 0.0, "{r:?}");
            // Pima has 9 design columns: full Newton (fewer than CHORD_MIN_COLUMNS), every fit
            // pass with the Hessian.
            assert_eq!(r.gradient_passes, 0, "{r:?}");
        }
        assert_equal(&streamed, &memory);
    }
}

#[test]
fn the_shipped_streaming_experiment_writes_its_predictions_into_the_run_directory() {
    let out = tempfile::tempdir().unwrap();
    let mut child = crate::util::cli::bin()
        .args(["run", "experiments/streaming.toml", "--quiet", "--out"])
        .arg(out.path().join("run"))
        .current_dir(root())
        .spawn()
        .unwrap();
    let pid = child.id();
    assert!(child.wait().unwrap().success());
    let results: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.path().join("run/results.json")).unwrap(),
    )
    .unwrap();
    let s = &results["streaming"];
    assert_eq!(s["chunk_rows"], 64);
    assert_eq!(s["max_memory_bytes"], 64 << 20);
    assert!(s["estimated_bytes"].as_u64().unwrap() < 64 << 20);
    assert!(s["passes"][0]["purpose"] == "statistics");
    let predictions = std::fs::read_to_string(out.path().join("run/predictions.csv")).unwrap();
    assert_eq!(
        predictions.lines().count(),
        1 + results["dataset"]["rows_test"].as_u64().unwrap() as usize
    );
    // no temporary predictions file is left behind once the run is written
    let leftover = std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .flatten()
        .any(|e| {
            let name = e.file_name().to_string_lossy().to_string();
            name.starts_with("bayeslab-streaming-") && name.contains(&format!("-{pid}-"))
        });
    assert!(!leftover);
}

#[test]
fn a_collinear_or_constant_column_fails_streamed_with_the_in_memory_message() {
    // Under maximum likelihood, a column that repeats the ones before it (c = 2a - b) or the
    // intercept (k constant) has no unique weight: the streamed run checks X^T X from the
    // Hessian at w = 0 and must name the column and the fix exactly as the in-memory check.
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("collinear.csv");
    let mut csv = String::from("a,b,c,k,y\n");
    for i in 0..240 {
        let (a, b) = (
            ((i * 37) % 101) as f64 / 50.0 - 1.0,
            ((i * 53) % 97) as f64 / 48.0 - 1.0,
        );
        let y = u8::from((a - b + ((i * 7) % 11) as f64 / 5.0 - 1.0) > 0.0);
        csv.push_str(&format!("{a},{b},{},3.5,{y}\n", 2.0 * a - b));
    }
    std::fs::write(&data, csv).unwrap();
    let failure = |features: &str, streaming: bool| {
        let chunks = if streaming { "chunk_rows = 50\n" } else { "" };
        let text = format!(
            "name = \"collinear\"\n[data]\npath = {:?}\ntarget = \"y\"\nfeatures = {features}\n\
             standardize = false\nstreaming = {streaming}\n{chunks}\
             split = {{ every = 4, offset = 3 }}\n[[method]]\nkind = \"logistic-mle\"\n",
            data.display().to_string()
        );
        let file = dir.path().join(format!("e-{streaming}.toml"));
        std::fs::write(&file, text).unwrap();
        let plan = bayeslab_engine::config::load(&file).unwrap();
        let record = experiment::run(&plan, &mut Silent, None).unwrap();
        record.runs[0].error.clone().expect("the run fails")
    };
    for (features, column, words) in [
        (
            r#"["a", "b", "c"]"#,
            "\"c\"",
            "is a linear combination of the columns before it (intercept, a, b)",
        ),
        (r#"["a", "k"]"#, "\"k\"", "is constant on the training rows"),
    ] {
        let (streamed, memory) = (failure(features, true), failure(features, false));
        assert_eq!(streamed, memory);
        assert!(
            memory.contains(&format!("design column {column} {words}")),
            "{memory}"
        );
        assert!(
            memory.contains("logistic-map / logistic-laplace"),
            "{memory}"
        );
    }
}
