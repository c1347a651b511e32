//! `[data] streaming = true` against the in-memory run of the same experiment: weights,
//! posterior moments, log evidence, every test prediction and every metric agree to 1e-10, for
//! CSV and Parquet input read in many small, uneven chunks (issue 8, "Larger than memory").

use std::path::{Path, PathBuf};

use bayeslab::record::ExperimentRecord;
use bayeslab::record::Scores;
use bayeslab::run::{self as experiment, Silent};
use polars::prelude::*;

const TOL: f64 = 1e-10;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

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

fn run(file: &Path) -> ExperimentRecord {
    let plan = bayeslab::config::load(file).unwrap();
    assert_eq!(
        plan.data.as_ref().unwrap().streaming.is_some(),
        file.to_string_lossy().contains("streamed"),
        "{}",
        file.display()
    );
    experiment::run(&plan, &mut Silent, None).unwrap()
}

fn close(a: f64, b: f64, what: &str) {
    assert!(
        (a - b).abs() <= TOL * b.abs().max(1.0),
        "{what}: streamed {a} vs in memory {b}"
    );
}

fn close_all(a: &[f64], b: &[f64], what: &str) {
    assert_eq!(a.len(), b.len(), "{what}: lengths");
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        close(*x, *y, &format!("{what}[{i}]"));
    }
}

/// Every number of the two records, and the streamed predictions.csv against the in-memory
/// record's predictions.
fn assert_equal(streamed: &ExperimentRecord, memory: &ExperimentRecord) {
    assert_eq!(streamed.dataset.columns, memory.dataset.columns);
    assert_eq!(streamed.dataset.rows_train, memory.dataset.rows_train);
    assert_eq!(streamed.dataset.rows_test, memory.dataset.rows_test);
    assert_eq!(streamed.runs.len(), memory.runs.len());
    let mut columns: Vec<(String, &[f64])> = Vec::new();
    for (s, m) in streamed.runs.iter().zip(&memory.runs) {
        let id = &m.id;
        // Not the iteration count: where E is flat to rounding at the optimum, Newton's last
        // step can be accepted whole in one summation order and halved in the other; both end
        // at the same weights to rounding.
        assert_eq!((&s.id, &s.error), (id, &m.error));
        assert!(m.error.is_none(), "{id}: {:?}", m.error);
        close_all(&s.weights, &m.weights, &format!("{id} weights"));
        close(s.objective.unwrap_or(0.0), m.objective.unwrap_or(0.0), id);
        match (&s.posterior, &m.posterior) {
            (Some(a), Some(b)) => {
                close_all(&a.mean, &b.mean, &format!("{id} posterior mean"));
                close_all(&a.cov_diag, &b.cov_diag, &format!("{id} cov diag"));
                close(
                    a.log_evidence.unwrap(),
                    b.log_evidence.unwrap(),
                    &format!("{id} log evidence"),
                );
            }
            (None, None) => {}
            _ => panic!("{id}: one posterior missing"),
        }
        // k-hat from the same draws; the streamed log posteriors are summed in another order
        match (s.khat, m.khat) {
            (Some(a), Some(b)) => close(a, b, &format!("{id} k-hat")),
            (None, None) => assert!(m.posterior.is_none(), "{id}: no k-hat"),
            other => panic!("{id}: k-hat {other:?}"),
        }
        assert_eq!(s.predictives.len(), m.predictives.len());
        for (a, b) in s.predictives.iter().zip(&m.predictives) {
            let what = format!("{id}/{}", b.name);
            let (x, y) = (&a.metrics, &b.metrics);
            for (u, v, k) in [
                (x.log_loss, y.log_loss, "log_loss"),
                (x.brier, y.brier, "brier"),
                (x.accuracy, y.accuracy, "accuracy"),
                (x.ece, y.ece, "ece"),
                (x.mce, y.mce, "mce"),
                (x.auc.unwrap(), y.auc.unwrap(), "auc"),
            ] {
                close(u, v, &format!("{what} {k}"));
            }
            close_all(
                &a.ece_ci.unwrap(),
                &b.ece_ci.unwrap(),
                &format!("{what} ece_ci"),
            );
            assert_eq!(a.calibration.len(), b.calibration.len());
            for (p, q) in a.calibration.iter().zip(&b.calibration) {
                assert_eq!(p.count, q.count, "{what} bin counts");
                close(
                    p.mean_predicted.unwrap_or(0.0),
                    q.mean_predicted.unwrap_or(0.0),
                    &what,
                );
            }
            let Scores::Binary(p) = &memory.predictions.column(id, &b.name).unwrap().scores else {
                panic!("{what}: a binary column")
            };
            columns.push((what, p));
        }
    }
    let path = streamed.predictions.file.as_ref().unwrap().path();
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let names: Vec<&str> = columns.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(header[2..], names[..]);
    let rows: Vec<Vec<f64>> = lines
        .map(|l| l.split(',').map(|v| v.parse().unwrap()).collect())
        .collect();
    assert_eq!(rows.len(), memory.predictions.y.len());
    for (i, row) in rows.iter().enumerate() {
        assert_eq!((row[0], row[1]), (i as f64, memory.predictions.y[i]));
        for (c, (name, p)) in columns.iter().enumerate() {
            close(row[2 + c], p[i], &format!("{name} row {i}"));
        }
    }
}

fn write_parquet(csv: &Path, to: &Path) {
    let mut df = CsvReadOptions::default()
        .with_has_header(true)
        .try_into_reader_with_file_path(Some(csv.to_path_buf()))
        .unwrap()
        .finish()
        .unwrap();
    ParquetWriter::new(std::fs::File::create(to).unwrap())
        .with_row_group_size(Some(50))
        .finish(&mut df)
        .unwrap();
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
        assert!(info.passes.iter().any(|p| p.purpose == "predict"));
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
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_bayeslab"))
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
        let plan = bayeslab::config::load(&file).unwrap();
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

/// 2,000 rows of 260 seeded features x ~ U(-2, 2) and y = [u < sigma(x^T w)] (a 64-bit LCG,
/// Knuth's MMIX constants), w_j = (-1)^j 0.05: 261 design columns with the intercept, above
/// CHORD_MIN_COLUMNS.
fn write_wide_csv(to: &Path) {
    let mut state: u64 = 19;
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut text = (1..=260).map(|j| format!("x{j},")).collect::<String>() + "y\n";
    for _ in 0..2000 {
        let mut a = 0.0;
        for j in 1..=260 {
            let v = 4.0 * next() - 2.0;
            let sign = if j % 2 == 0 { 1.0 } else { -1.0 };
            a += v * sign * 0.05;
            text.push_str(&format!("{v},"));
        }
        let y = u8::from(next() < 1.0 / (1.0 + (-a).exp()));
        text.push_str(&format!("{y}\n"));
    }
    std::fs::write(to, text).unwrap();
}

/// With 261 design columns the GLM fits use chord Newton (issue 19): the streamed fit reads the
/// file for E and g alone on most passes (`fit-grad`), fewer with the Hessian (`fit`), and still
/// equals the in-memory run to 1e-10.
#[test]
fn chord_newton_streams_its_gradient_passes_and_equals_in_memory() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("wide.csv");
    write_wide_csv(&csv);
    // MAP and MLE only: a posterior would add k-hat's 20,000 draws x 261 columns, minutes in a
    // debug build.
    let toml = |streamed: bool| {
        let name = if streamed {
            "streamed-wide.toml"
        } else {
            "wide.toml"
        };
        let stream = if streamed {
            "streaming = true\nchunk_rows = 37\n"
        } else {
            ""
        };
        let text = format!(
            "name = \"wide\"\nseed = 3\n[data]\npath = {:?}\ntarget = \"y\"\n\
             split = {{ every = 5, offset = 4 }}\n{stream}[prior]\nprecision = 1.0\n\
             [[method]]\nkind = \"logistic-mle\"\n[[method]]\nkind = \"logistic-map\"\n",
            csv.display().to_string()
        );
        let file = dir.path().join(name);
        std::fs::write(&file, text).unwrap();
        file
    };
    let memory = run(&toml(false));
    let streamed = run(&toml(true));
    let info = streamed.streaming.as_ref().unwrap();
    assert_eq!(info.runs.len(), 2);
    for r in &info.runs {
        let of_run = |purpose: &str| {
            info.passes
                .iter()
                .filter(|p| p.purpose == purpose && p.run.as_deref() == Some(r.run.as_str()))
                .count()
        };
        assert_eq!(r.gradient_passes, of_run("fit-grad"), "{r:?}");
        assert_eq!(r.passes, of_run("fit") + of_run("fit-grad"), "{r:?}");
        let hessian = r.passes - r.gradient_passes;
        assert!(r.gradient_passes > hessian && hessian >= 2, "{r:?}");
    }
    assert_equal(&streamed, &memory);
}
