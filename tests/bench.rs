//! `bayeslab bench` end to end on a tiny synth data set: every task reports every field with
//! sane values, the fit is `logistic::fit` itself, and bad input ends with exit code 2 and a
//! message naming the file and the fix. No timings are asserted beyond being positive.

use std::path::Path;
use std::process::{Command, Output};

use bayeslab::config::Optimizer;
use bayeslab::model::logistic::{fit, FitSettings};
use serde_json::Value;

fn bayeslab(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bayeslab"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

fn synth(dir: &Path, rows: &str, features: &str, out: &str) {
    let o = bayeslab(
        &[
            "synth",
            "--rows",
            rows,
            "--features",
            features,
            "--seed",
            "5",
            "--test-rows",
            "300",
            "--npy",
            "--csv",
            "--out",
            out,
            "--quiet",
        ],
        dir,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

#[test]
fn bench_json_reports_every_task_and_the_fit_is_logistic_fit_itself() {
    let dir = tempfile::tempdir().unwrap();
    synth(dir.path(), "1500", "4", "d/train.parquet");
    let o = bayeslab(
        &[
            "bench",
            "--train",
            "d/train.parquet",
            "--test",
            "d/train.test.parquet",
            "--lambda",
            "2",
            "--samples",
            "50",
            "--reps",
            "3",
            "--threads",
            "1",
            "--json",
            "--quiet",
            "--out",
            "d/bench.json",
        ],
        dir.path(),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let r: Value = serde_json::from_slice(&o.stdout).unwrap();
    let saved: Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("d/bench.json")).unwrap()).unwrap();
    assert_eq!(r, saved, "--out writes what --json prints");
    assert_eq!(r["schema_version"], 1);
    assert_eq!(r["threads"], 1);
    assert!(r["cores"].as_u64().unwrap() >= 1);
    let tasks = r["tasks"].as_array().unwrap();
    let names: Vec<&str> = tasks.iter().map(|t| t["task"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "load-parquet",
            "load-csv",
            "load-npy",
            "fit",
            "bound",
            "khat",
            "predict"
        ]
    );
    let task = |name: &str| tasks.iter().find(|t| t["task"] == name).unwrap();
    for t in tasks {
        let name = t["task"].as_str().unwrap();
        let secs = floats(&t["seconds"]);
        assert_eq!(secs.len(), 3, "{name}");
        assert!(secs.iter().all(|s| *s > 0.0), "{name}");
        let med = t["median_seconds"].as_f64().unwrap();
        let mut sorted = secs.clone();
        sorted.sort_by(f64::total_cmp);
        assert_eq!(med, sorted[1], "{name}: the median of three");
        // The Parquet and CSV loads go through `bayeslab run`'s loader: the training and the
        // test file's rows, the intercept and the 4 features.
        let (rows, cols) = match name {
            "predict" => (300, 4),
            "load-parquet" | "load-csv" => (1800, 5),
            _ => (1500, 4),
        };
        assert_eq!(
            (t["rows"].as_u64(), t["cols"].as_u64()),
            (Some(rows), Some(cols)),
            "{name}"
        );
        assert_eq!(t["input_bytes"].as_u64(), Some(rows * cols * 8), "{name}");
        if Path::new("/proc/self/status").exists() {
            let peak = t["peak_rss_bytes"].as_u64().unwrap();
            let start = t["start_rss_bytes"].as_u64().unwrap();
            assert!(
                peak >= t["input_bytes"].as_u64().unwrap() && start > 0,
                "{name}"
            );
            assert!(t["peak_over_input"].as_f64().unwrap() > 1.0, "{name}");
        }
    }
    for (name, files) in [
        ("load-parquet", ["d/train.parquet", "d/train.test.parquet"]),
        ("load-csv", ["d/train.csv", "d/train.test.csv"]),
    ] {
        let load = &task(name)["load"];
        let polars = load["polars_read_median_seconds"].as_f64().unwrap();
        assert!(polars > 0.0, "{name}");
        let bytes: u64 = files
            .iter()
            .map(|f| std::fs::metadata(dir.path().join(f)).unwrap().len())
            .sum();
        assert_eq!(load["file_bytes"].as_u64(), Some(bytes), "{name}");
        let rate = |key: &str, seconds: f64| {
            let got = load[key].as_f64().unwrap();
            let want = bytes as f64 / 1e6 / seconds;
            assert!((got - want).abs() <= 1e-12 * want, "{name}: {key}");
        };
        rate("polars_mb_per_second", polars);
        rate(
            "loader_mb_per_second",
            task(name)["median_seconds"].as_f64().unwrap(),
        );
    }
    assert!(task("load-npy")["load"]["polars_read_median_seconds"].is_null());

    // The fit equals logistic::fit on the same matrix (read here with the library's .npy reader)
    // with the settings `bayeslab run`'s logistic-laplace uses: the policy for N and D.
    let f = &task("fit")["fit"];
    assert_eq!(f["termination"], "converged");
    assert_eq!(f["lambda"].as_f64(), Some(2.0));
    let x = bayeslab::npy::read_matrix(&dir.path().join("d/train.X.npy")).unwrap();
    let y = bayeslab::npy::read_vector(&dir.path().join("d/train.y.npy")).unwrap();
    let direct = fit(
        x.as_ref(),
        &y,
        &FitSettings {
            precision: 2.0,
            optimizer: Optimizer::Newton,
            max_iter: 100,
            tolerance: 1e-8,
            laplace: true,
            curvature: bayeslab::optim::Curvature::for_columns(4),
            warm_start: true,
        },
        "direct",
        None,
        &mut |_: &str, _: &bayeslab::optim::Iterate| {},
    )
    .unwrap();
    let w = floats(&f["weights"]);
    let diag = floats(&f["cov_diag"]);
    let direct_diag = direct.posterior.as_ref().unwrap().cov_diag();
    for j in 0..4 {
        assert!((w[j] - direct.weights[j]).abs() < 1e-12, "w[{j}]");
        assert!(
            (diag[j] - direct_diag[j]).abs() < 1e-12 * direct_diag[j],
            "diag[{j}]"
        );
    }
    let iters = f["newton_iterations"].as_u64().unwrap();
    assert_eq!(iters as usize, direct.outcome.iterations);
    // The passes the direct fit counted (the Laplace factor's Hessian at the mode included), and the flops they cost: 2 (N D^2 + N D) per Hessian pass, 4 N D per
    // gradient pass.
    let (hessians, gradients) = (direct.passes.hessian, direct.passes.gradient);
    assert_eq!(f["hessians"].as_u64(), Some(hessians as u64));
    assert_eq!(f["gradient_passes"].as_u64(), Some(gradients as u64));
    let (n, d) = (1500.0, 4.0);
    let flops = 2.0 * hessians as f64 * (n * d * d + n * d) + 4.0 * gradients as f64 * n * d;
    assert_eq!(f["flops"].as_f64(), Some(flops));
    // Full Newton beside it: one Hessian per step and the start's, the same answer.
    let full = &f["full_newton"];
    assert_eq!(
        full["hessians"].as_u64(),
        Some(full["newton_iterations"].as_u64().unwrap() + 1)
    );
    assert!(full["max_weight_difference"].as_f64().unwrap() < 1e-10);
    assert!(full["max_cov_diag_relative_difference"].as_f64().unwrap() < 1e-10);
    let ratio = full["chord_over_full"].as_f64().unwrap();
    let med = task("fit")["median_seconds"].as_f64().unwrap();
    let full_med = full["median_seconds"].as_f64().unwrap();
    assert!((ratio - med / full_med).abs() < 1e-12 * ratio);
    let med = task("fit")["median_seconds"].as_f64().unwrap();
    assert!((f["gflops"].as_f64().unwrap() - flops / med / 1e9).abs() < 1e-9);

    let b = &task("bound")["bound"];
    assert_eq!(b["flops"].as_f64(), Some(2.0 * n * d * d));
    assert!(b["gflops"].as_f64().unwrap() > 0.0);
    let ratio = r["bound_over_fit"].as_f64().unwrap();
    let expect = b["gflops"].as_f64().unwrap() / f["gflops"].as_f64().unwrap();
    assert!((ratio - expect).abs() < 1e-12 * expect);

    // The k-hat log likelihood: the draws `bayeslab run` would use on 1,500 x 4 (20,000), its
    // rates from its own times, and its k-hat that of the straightforward path on the same
    // draws (stream "bench/khat" of --seed 0), whose log target sums each row's row_terms.
    let k = &task("khat")["khat"];
    assert_eq!(k["draws"], 20_000);
    let med = task("khat")["median_seconds"].as_f64().unwrap();
    let product = k["product_median_seconds"].as_f64().unwrap();
    let row_draws = n * 20_000.0;
    let close = |a: &Value, b: f64| (a.as_f64().unwrap() - b).abs() <= 1e-12 * b;
    assert!(close(&k["row_draws_per_second"], row_draws / med));
    assert!(close(
        &k["product_row_draws_per_second"],
        row_draws / product
    ));
    assert!(close(
        &k["product_gflops"],
        2.0 * row_draws * d / product / 1e9
    ));
    assert!(close(&k["kernel_over_product"], med / product));
    let posterior = direct.posterior.as_ref().unwrap();
    let target = |w: &[f64]| {
        let a = bayeslab::numeric::linalg::mat_vec(x.as_ref(), w);
        let loss: f64 = a
            .iter()
            .zip(&y)
            .map(|(&a, &y)| bayeslab::model::logistic::row_terms(a, y).0)
            .sum();
        -(loss + 0.5 * 2.0 * w.iter().map(|v| v * v).sum::<f64>())
    };
    let slow = bayeslab::model::importance::gaussian_khat(
        &posterior.mean,
        posterior.precision.inverse().as_ref(),
        &target,
        20_000,
        &mut bayeslab::numeric::rng::stream(0, "bench/khat"),
        "test",
    )
    .unwrap()
    .unwrap();
    let fast = k["khat"].as_f64().unwrap();
    assert!((fast - slow).abs() < 1e-8, "{fast} against {slow}");

    // The Monte-Carlo mean probability is within MC error (S = 50, 300 rows) of the exact one.
    let p = &task("predict")["predict"];
    assert_eq!(p["samples"], 50);
    let xt = bayeslab::npy::read_matrix(&dir.path().join("d/train.test.X.npy")).unwrap();
    let act = direct.posterior.as_ref().unwrap().activations(xt.as_ref());
    let gh = bayeslab::numeric::quadrature::GaussHermite::new(64);
    let exact = act
        .mean
        .iter()
        .zip(&act.var)
        .map(|(&m, &v)| bayeslab::model::predictive::logistic_normal(m, v, &gh))
        .sum::<f64>()
        / 300.0;
    let mc = p["mean_probability"].as_f64().unwrap();
    // Each row's estimate has sd <= 0.5 / sqrt(50); their mean over 300 rows far less.
    assert!(
        (mc - exact).abs() < 5.0 * 0.5 / (50.0f64 * 300.0).sqrt(),
        "{mc} vs {exact}"
    );
}

#[test]
fn only_runs_the_listed_tasks_here_and_the_table_names_them() {
    let dir = tempfile::tempdir().unwrap();
    synth(dir.path(), "800", "3", "t.parquet");
    let o = bayeslab(
        &[
            "bench",
            "--train",
            "t",
            "--only",
            "fit,bound",
            "--reps",
            "1",
            "--threads",
            "2",
        ],
        dir.path(),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let table = String::from_utf8_lossy(&o.stdout);
    assert!(table.contains("2 thread(s)"), "{table}");
    let lines: Vec<&str> = table.lines().collect();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("fit ") && l.contains("t.X.npy")),
        "{table}"
    );
    assert!(lines.iter().any(|l| l.starts_with("bound ")), "{table}");
    assert!(
        !lines
            .iter()
            .any(|l| l.starts_with("load") || l.starts_with("predict")),
        "{table}"
    );
    assert!(table.contains("fit vs bound"), "{table}");
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("bench: fit 1/1"),
        "progress on stderr: {stderr}"
    );
}

/// A bad invocation: exit code 2 and every `wants` in the message.
fn refused(dir: &Path, args: &[&str], wants: &[&str]) {
    let o = bayeslab(args, dir);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    for w in wants {
        assert!(err.contains(w), "{args:?}: {err:?} lacks {w:?}");
    }
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn bad_input_names_the_file_and_the_fix_with_exit_code_2() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    synth(p, "200", "3", "a.parquet");
    synth(p, "200", "2", "b.parquet");
    let copy = |from: &str, to: &str| {
        std::fs::copy(p.join(from), p.join(to)).unwrap();
    };
    refused(
        p,
        &["bench", "--train", "missing.parquet"],
        &["missing.parquet", "no such file", "bayeslab synth"],
    );
    refused(
        p,
        &["bench", "--train", "nothing"],
        &["nothing.parquet", "no data files"],
    );

    std::fs::write(p.join("junk.X.npy"), "x1,x2\n1,2\n").unwrap();
    copy("a.y.npy", "junk.y.npy");
    refused(
        p,
        &["bench", "--train", "junk.X.npy"],
        &["junk.X.npy", "magic", "numpy.save"],
    );

    copy("a.X.npy", "lonely.X.npy");
    refused(
        p,
        &["bench", "--train", "lonely.X.npy"],
        &["lonely.y.npy", "is missing"],
    );

    copy("a.X.npy", "short.X.npy");
    copy("a.test.y.npy", "short.y.npy");
    refused(
        p,
        &["bench", "--train", "short"],
        &["short.y.npy", "300 labels", "200 rows"],
    );

    let bytes = std::fs::read(p.join("a.X.npy")).unwrap();
    std::fs::write(p.join("cut.X.npy"), &bytes[..bytes.len() - 8]).unwrap();
    copy("a.y.npy", "cut.y.npy");
    refused(
        p,
        &["bench", "--train", "cut", "--only", "fit"],
        &["cut.X.npy", "truncated"],
    );

    refused(
        p,
        &["bench", "--train", "a", "--test", "b.test.parquet"],
        &["b.test.X.npy", "2 columns", "3", "--test-rows"],
    );
    refused(
        p,
        &["bench", "--train", "a", "--only", "predict"],
        &["needs --test"],
    );
    refused(
        p,
        &["bench", "--train", "a", "--only", "fitt"],
        &["fitt", "load-parquet"],
    );
    refused(
        p,
        &["bench", "--train", "a", "--lambda", "-1"],
        &["--lambda", ">= 0"],
    );
    refused(p, &["bench", "--train", "a", "--reps", "0"], &["--reps"]);
}
