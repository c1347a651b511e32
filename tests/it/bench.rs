//! `bayeslab bench` end to end on a tiny synth data set: every task reports every field with
//! sane values, and each figure is checked against the library computing it directly: the fit
//! is `logistic::fit` itself, k-hat that of the straightforward path, the Monte-Carlo
//! predictive within its error of the exact one. No timings are asserted beyond being
//! positive. The command line's refusals are in tests/it/bench_cli.rs.

use std::path::Path;

use crate::util::cli::{bayeslab_in, synth_bench_set};
use bayeslab_core::model::logistic::{fit, FitSettings, LogisticFit};
use bayeslab_engine::config::Optimizer;
use faer::Mat;
use serde_json::Value;

fn floats(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

/// The data set's rows and features, and the prior precision the bench is run with.
const N: f64 = 1500.0;
const D: f64 = 4.0;
const LAMBDA: f64 = 2.0;

#[test]
fn bench_json_reports_every_task_and_the_fit_is_logistic_fit_itself() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    let r = bench_record(p);
    let tasks = r["tasks"].as_array().unwrap();
    let task = |name: &str| tasks.iter().find(|t| t["task"] == name).unwrap();
    every_task_has_its_times_and_shape(tasks);
    loads_have_their_bytes_and_rates(p, &task);
    let (x, y) = (
        bayeslab_data::npy::read_matrix(&p.join("d/train.X.npy")).unwrap(),
        bayeslab_data::npy::read_vector(&p.join("d/train.y.npy")).unwrap(),
    );
    let direct = fit_is_logistic_fit_itself(task("fit"), &x, &y);
    bound_is_its_flops(&r, task("bound"), task("fit"));
    khat_is_the_straightforward_paths(task("khat"), &direct, &x, &y);
    predict_is_within_mc_error(p, task("predict"), &direct);
}

/// `bayeslab bench --json --out` on a 1,500 x 4 set with a 300-row test file: the record,
/// checked to be what `--out` saved.
fn bench_record(p: &Path) -> Value {
    synth_bench_set(p, "1500", "4", "d/train.parquet");
    let args = [
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
    ];
    let o = bayeslab_in(p, &args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let r: Value = serde_json::from_slice(&o.stdout).unwrap();
    let saved: Value =
        serde_json::from_slice(&std::fs::read(p.join("d/bench.json")).unwrap()).unwrap();
    assert_eq!(r, saved, "--out writes what --json prints");
    assert_eq!(r["schema_version"], 1);
    assert_eq!(r["threads"], 1);
    assert!(r["cores"].as_u64().unwrap() >= 1);
    r
}

/// Every task in order, with three positive times and their median, its rows and columns,
/// and a peak at least its input.
fn every_task_has_its_times_and_shape(tasks: &[Value]) {
    let names: Vec<&str> = tasks.iter().map(|t| t["task"].as_str().unwrap()).collect();
    let order = [
        "load-parquet",
        "load-csv",
        "load-npy",
        "fit",
        "bound",
        "khat",
        "predict",
    ];
    assert_eq!(names, order);
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
}

/// The Parquet and CSV loads' file bytes and rates, and the plain polars read timed beside
/// them (none for .npy).
fn loads_have_their_bytes_and_rates<'a>(p: &Path, task: &dyn Fn(&str) -> &'a Value) {
    for (name, files) in [
        ("load-parquet", ["d/train.parquet", "d/train.test.parquet"]),
        ("load-csv", ["d/train.csv", "d/train.test.csv"]),
    ] {
        let load = &task(name)["load"];
        let polars = load["polars_read_median_seconds"].as_f64().unwrap();
        assert!(polars > 0.0, "{name}");
        let bytes: u64 = files
            .iter()
            .map(|f| std::fs::metadata(p.join(f)).unwrap().len())
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
}

/// The fit equals logistic::fit on the same matrix with the settings `bayeslab run`'s
/// logistic-laplace uses (the policy for N and D), and its passes and flops are the direct
/// fit's; full Newton beside it gives the same answer.
fn fit_is_logistic_fit_itself(t: &Value, x: &Mat<f64>, y: &[f64]) -> LogisticFit {
    let f = &t["fit"];
    assert_eq!(f["termination"], "converged");
    assert_eq!(f["lambda"].as_f64(), Some(LAMBDA));
    let direct = fit(
        x.as_ref(),
        y,
        &FitSettings {
            precision: LAMBDA,
            optimizer: Optimizer::Newton,
            max_iter: 100,
            tolerance: 1e-8,
            laplace: true,
            curvature: bayeslab_core::optim::Curvature::for_columns(4),
            warm_start: true,
        },
        "direct",
        None,
        &mut |_: &str, _: &bayeslab_core::optim::Iterate| {},
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
    // The passes the direct fit counted (the Laplace factor's Hessian at the mode included),
    // and the flops they cost: 2 (N D^2 + N D) per Hessian pass, 4 N D per gradient pass.
    let (hessians, gradients) = (direct.passes.hessian, direct.passes.gradient);
    assert_eq!(f["hessians"].as_u64(), Some(hessians as u64));
    assert_eq!(f["gradient_passes"].as_u64(), Some(gradients as u64));
    let flops = 2.0 * hessians as f64 * (N * D * D + N * D) + 4.0 * gradients as f64 * N * D;
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
    let med = t["median_seconds"].as_f64().unwrap();
    let full_med = full["median_seconds"].as_f64().unwrap();
    assert!((ratio - med / full_med).abs() < 1e-12 * ratio);
    assert!((f["gflops"].as_f64().unwrap() - flops / med / 1e9).abs() < 1e-9);
    direct
}

/// The bound's flops (2 N D^2) and its speed over the fit's.
fn bound_is_its_flops(r: &Value, t: &Value, fit: &Value) {
    let (b, f) = (&t["bound"], &fit["fit"]);
    assert_eq!(b["flops"].as_f64(), Some(2.0 * N * D * D));
    assert!(b["gflops"].as_f64().unwrap() > 0.0);
    let ratio = r["bound_over_fit"].as_f64().unwrap();
    let expect = b["gflops"].as_f64().unwrap() / f["gflops"].as_f64().unwrap();
    assert!((ratio - expect).abs() < 1e-12 * expect);
}

/// The k-hat task: the draws `bayeslab run` would use on 1,500 x 4 (20,000), its rates from
/// its own times, and its k-hat that of the straightforward path on the same draws (stream
/// "bench/khat" of --seed 0), whose log target sums each row's row_terms.
fn khat_is_the_straightforward_paths(t: &Value, direct: &LogisticFit, x: &Mat<f64>, y: &[f64]) {
    let k = &t["khat"];
    assert_eq!(k["draws"], 20_000);
    let med = t["median_seconds"].as_f64().unwrap();
    let product = k["product_median_seconds"].as_f64().unwrap();
    let row_draws = N * 20_000.0;
    let close = |a: &Value, b: f64| (a.as_f64().unwrap() - b).abs() <= 1e-12 * b;
    assert!(close(&k["row_draws_per_second"], row_draws / med));
    assert!(close(
        &k["product_row_draws_per_second"],
        row_draws / product
    ));
    assert!(close(
        &k["product_gflops"],
        2.0 * row_draws * D / product / 1e9
    ));
    assert!(close(&k["kernel_over_product"], med / product));
    let posterior = direct.posterior.as_ref().unwrap();
    let target = |w: &[f64]| {
        let a = bayeslab_core::numeric::linalg::mat_vec(x.as_ref(), w);
        let loss: f64 = a
            .iter()
            .zip(y)
            .map(|(&a, &y)| bayeslab_core::model::logistic::row_terms(a, y).0)
            .sum();
        -(loss + 0.5 * LAMBDA * w.iter().map(|v| v * v).sum::<f64>())
    };
    let slow = bayeslab_core::model::importance::gaussian_khat(
        &posterior.mean,
        posterior.precision.inverse().as_ref(),
        &target,
        20_000,
        &mut bayeslab_core::numeric::rng::stream(0, "bench/khat"),
        "test",
    )
    .unwrap()
    .unwrap();
    let fast = k["khat"].as_f64().unwrap();
    assert!((fast - slow).abs() < 1e-8, "{fast} against {slow}");
}

/// The Monte-Carlo mean probability is within MC error (S = 50, 300 rows) of the exact one.
fn predict_is_within_mc_error(p: &Path, t: &Value, direct: &LogisticFit) {
    let xt = bayeslab_data::npy::read_matrix(&p.join("d/train.test.X.npy")).unwrap();
    let p = &t["predict"];
    assert_eq!(p["samples"], 50);
    let act = direct.posterior.as_ref().unwrap().activations(xt.as_ref());
    let gh = bayeslab_core::numeric::quadrature::GaussHermite::new(64);
    let exact = act
        .mean
        .iter()
        .zip(&act.var)
        .map(|(&m, &v)| bayeslab_core::model::predictive::logistic_normal(m, v, &gh))
        .sum::<f64>()
        / 300.0;
    let mc = p["mean_probability"].as_f64().unwrap();
    // Each row's estimate has sd <= 0.5 / sqrt(50); their mean over 300 rows far less.
    assert!(
        (mc - exact).abs() < 5.0 * 0.5 / (50.0f64 * 300.0).sqrt(),
        "{mc} vs {exact}"
    );
}
