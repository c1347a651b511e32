//! `bayeslab synth` end to end: the same seed gives the same bytes whatever the chunk size and
//! thread count, the values follow the stated distributions, and the .npy, Parquet and CSV
//! files hold the same numbers. Tolerances are 5 standard errors of the statistic at the
//! sample size used (a false alarm about once in 1.7 million runs per check).

use std::path::{Path, PathBuf};

use bayeslab_core::numeric::special::sigmoid;

fn synth(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> PathBuf {
    let out = dir.join("train.parquet");
    let status = crate::util::cli::bin()
        .arg("synth")
        .args(args)
        .arg("--out")
        .arg(&out)
        .arg("--quiet")
        .envs(env.iter().copied())
        .status()
        .unwrap();
    assert!(status.success());
    dir.join("train")
}

fn file(stem: &Path, suffix: &str) -> Vec<u8> {
    let mut s = stem.as_os_str().to_owned();
    s.push(suffix);
    std::fs::read(PathBuf::from(s)).unwrap()
}

const FILES: [&str; 8] = [
    ".parquet",
    ".X.npy",
    ".y.npy",
    ".csv",
    ".test.parquet",
    ".test.X.npy",
    ".test.y.npy",
    ".test.csv",
];

#[test]
fn the_same_seed_writes_the_same_bytes_whatever_the_chunks_and_threads() {
    let root = tempfile::tempdir().unwrap();
    let common = [
        "--rows",
        "3000",
        "--features",
        "4",
        "--test-rows",
        "700",
        "--npy",
        "--csv",
    ];
    let run = |name: &str, extra: &[&str], threads: &str| {
        let dir = root.path().join(name);
        let args: Vec<&str> = common.iter().chain(extra).copied().collect();
        synth(
            &dir,
            &args,
            &[
                ("RAYON_NUM_THREADS", threads),
                ("POLARS_MAX_THREADS", threads),
            ],
        )
    };
    let a = run("a", &["--seed", "3"], "2");
    let b = run("b", &["--seed", "3", "--chunk-rows", "77"], "1");
    let c = run("c", &["--seed", "4"], "2");
    for suffix in FILES {
        assert_eq!(file(&a, suffix), file(&b, suffix), "{suffix}");
        assert_ne!(file(&a, suffix), file(&c, suffix), "{suffix}");
    }
    let meta = |stem: &Path| -> serde_json::Value {
        serde_json::from_slice(&file(stem, ".synth.json")).unwrap()
    };
    assert_eq!(meta(&a)["weights"], meta(&b)["weights"]);
    assert_ne!(meta(&a)["weights"], meta(&c)["weights"]);
    // Nothing but the finished files: no temporaries left beside them.
    let names: Vec<String> = std::fs::read_dir(root.path().join("a"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), FILES.len() + 1, "{names:?}");
    assert!(names.iter().all(|n| !n.starts_with('.')), "{names:?}");
}

/// Decode a C-order float64 .npy written by synth, checking its header byte for byte; the
/// decoding is written here, independently of bayeslab_data::npy.
fn npy_f8(bytes: &[u8], shape: &str) -> Vec<f64> {
    assert_eq!(&bytes[..8], b"\x93NUMPY\x01\x00");
    let len = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    assert_eq!((10 + len) % 64, 0, "data aligned to 64 bytes");
    let dict = std::str::from_utf8(&bytes[10..10 + len]).unwrap();
    assert_eq!(
        dict.trim_end_matches(' ').trim_end_matches('\n').trim_end(),
        format!("{{'descr': '<f8', 'fortran_order': False, 'shape': {shape}, }}")
    );
    assert!(dict.ends_with('\n'));
    bytes[10 + len..]
        .chunks_exact(8)
        .map(|b| f64::from_le_bytes(b.try_into().unwrap()))
        .collect()
}

fn mean_var(v: impl Iterator<Item = f64> + Clone) -> (f64, f64, f64) {
    let n = v.clone().count() as f64;
    let m = v.clone().sum::<f64>() / n;
    let var = v.map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1.0);
    (m, var, n)
}

#[test]
fn values_follow_the_stated_distributions_and_every_format_agrees() {
    let root = tempfile::tempdir().unwrap();
    let (n, d) = (20_000usize, 5usize);
    let stem = synth(
        root.path(),
        &[
            "--rows",
            "20000",
            "--features",
            "5",
            "--seed",
            "11",
            "--npy",
            "--csv",
        ],
        &[],
    );
    let x = npy_f8(&file(&stem, ".X.npy"), "(20000, 5)");
    let y = npy_f8(&file(&stem, ".y.npy"), "(20000,)");
    assert_eq!((x.len(), y.len()), (n * d, n));

    // x ~ N(0, 1), independently: every column's mean and variance, and the correlations.
    for j in 0..d {
        let col = x.iter().skip(j).step_by(d).copied();
        let (m, v, cnt) = mean_var(col);
        assert!(m.abs() < 5.0 / cnt.sqrt(), "column {j}: mean {m}");
        assert!(
            (v - 1.0).abs() < 5.0 * (2.0 / cnt).sqrt(),
            "column {j}: var {v}"
        );
        for k in 0..j {
            let r = (0..n).map(|i| x[i * d + j] * x[i * d + k]).sum::<f64>() / n as f64;
            assert!(r.abs() < 5.0 / (n as f64).sqrt(), "corr({j}, {k}) = {r}");
        }
    }

    // The recorded weights are the generator's, and the generator's w ~ N(0, 0.25).
    let meta: serde_json::Value = serde_json::from_slice(&file(&stem, ".synth.json")).unwrap();
    let w: Vec<f64> = meta["weights"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    assert_eq!(w, bayeslab_engine::synth::true_weights(11, d));
    let many = bayeslab_engine::synth::true_weights(11, 20_000);
    let (m, v, cnt) = mean_var(many.iter().copied());
    assert!(m.abs() < 5.0 * 0.5 / cnt.sqrt(), "weights' mean {m}");
    assert!(
        (v - 0.25).abs() < 5.0 * 0.25 * (2.0 / cnt).sqrt(),
        "weights' var {v}"
    );

    // y ~ Bernoulli(sigma(x^T w)): ybar - pbar has variance sum p(1 - p) / N^2 (CLT).
    let p: Vec<f64> = (0..n)
        .map(|i| sigmoid((0..d).map(|j| x[i * d + j] * w[j]).sum()))
        .collect();
    assert!(y.iter().all(|&v| v == 0.0 || v == 1.0));
    let (ybar, pbar) = (
        y.iter().sum::<f64>() / n as f64,
        p.iter().sum::<f64>() / n as f64,
    );
    let se = p.iter().map(|p| p * (1.0 - p)).sum::<f64>().sqrt() / n as f64;
    assert!(
        (ybar - pbar).abs() < 5.0 * se,
        "ybar {ybar}, pbar {pbar}, se {se}"
    );
    assert_eq!(meta["positive_fraction"].as_f64().unwrap(), ybar);
    // The labels follow x, not just their overall rate: among rows with p > 0.75, y is 1 about p of the time.
    let high: Vec<usize> = (0..n).filter(|&i| p[i] > 0.75).collect();
    let (yh, ph) = (
        high.iter().map(|&i| y[i]).sum::<f64>() / high.len() as f64,
        high.iter().map(|&i| p[i]).sum::<f64>() / high.len() as f64,
    );
    let seh = high
        .iter()
        .map(|&i| p[i] * (1.0 - p[i]))
        .sum::<f64>()
        .sqrt()
        / high.len() as f64;
    assert!(
        high.len() > 500 && (yh - ph).abs() < 5.0 * seh,
        "{} rows: {yh} vs {ph} (se {seh})",
        high.len()
    );

    // The model is identified: the Laplace posterior of the data covers the true weights
    // (|w_hat - w| < 5 posterior sd per weight, under a nearly flat prior).
    let xm = faer::Mat::<f64>::from_fn(n, d, |i, j| x[i * d + j]);
    let fit = bayeslab_core::model::logistic::fit(
        xm.as_ref(),
        &y,
        &bayeslab_core::model::logistic::FitSettings {
            precision: 1e-6,
            optimizer: bayeslab_engine::config::Optimizer::Newton,
            max_iter: 100,
            tolerance: 1e-8,
            laplace: true,
            curvature: bayeslab_core::optim::Curvature::Chord,
            warm_start: false,
        },
        "synth",
        None,
        &mut |_: &str, _: &bayeslab_core::optim::Iterate| {},
    )
    .unwrap();
    let sd: Vec<f64> = fit
        .posterior
        .unwrap()
        .cov_diag()
        .iter()
        .map(|v| v.sqrt())
        .collect();
    for j in 0..d {
        assert!(
            (fit.weights[j] - w[j]).abs() < 5.0 * sd[j],
            "w[{j}]: fitted {} vs true {} (sd {})",
            fit.weights[j],
            w[j],
            sd[j]
        );
    }

    // Parquet and CSV (through polars) and faer's own .npy reader see the same numbers.
    for suffix in [".parquet", ".csv"] {
        let mut path = stem.as_os_str().to_owned();
        path.push(suffix);
        let dense = bayeslab_data::dense::read_dense(Path::new(&path), "y").unwrap();
        assert_eq!(dense.names, ["x1", "x2", "x3", "x4", "x5"]);
        assert_eq!(dense.y, y, "{suffix}");
        for i in 0..n {
            for j in 0..d {
                assert_eq!(dense.x[(i, j)], x[i * d + j], "{suffix} ({i}, {j})");
            }
        }
    }
    let bytes = file(&stem, ".X.npy");
    let faer_x = faer::io::npy::Npy::new(&bytes).unwrap().to_mat::<f64>();
    assert_eq!((faer_x.nrows(), faer_x.ncols()), (n, d));
    assert!((0..n).all(|i| (0..d).all(|j| faer_x[(i, j)] == x[i * d + j])));
}

#[test]
fn bad_arguments_end_with_exit_code_2_and_say_what_to_do() {
    let root = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        let out = crate::util::cli::bin()
            .arg("synth")
            .args(args)
            .current_dir(root.path())
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, err) = run(&["--rows", "10", "--features", "2", "--out", "d.csv"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("d.csv") && err.contains("ending in .parquet"),
        "{err}"
    );
    let (code, err) = run(&["--rows", "0", "--features", "2", "--out", "d.parquet"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--rows"), "{err}");
    assert_eq!(
        std::fs::read_dir(root.path()).unwrap().count(),
        0,
        "nothing written"
    );
}

/// Sizes the machine cannot write are refused with the option, its value and the largest that
/// works (exit 2), not a multiplication overflow or an endless write: u64::MAX features, 2^62
/// rows of 4 features (2^62 x 40 bytes, far past the 1 PiB a part may take), and chunks of
/// 10^8 rows of 1,000 features (800 GB against the 512 MiB budget; a --chunk-rows above --rows
/// is harmless, as a chunk never holds more rows than the part).
#[test]
fn sizes_beyond_the_machine_are_refused_with_the_option_and_the_largest_value() {
    let dir = tempfile::tempdir().unwrap();
    let max = u64::MAX.to_string();
    let cases: [(&[&str], &str); 3] = [
        (
            &["--rows", "10", "--features", &max],
            "--features 18446744073709551615 is too large; at most 4194304",
        ),
        (
            &["--rows", "4611686018427387904", "--features", "4"],
            // floor(2^50 / (8 x 5))
            "--rows 4611686018427387904 is too large; at most 28147497671065",
        ),
        (
            &[
                "--rows",
                "100000000",
                "--features",
                "1000",
                "--chunk-rows",
                "1099511627776",
            ],
            // floor(512 MiB / (8 x 1000))
            "--chunk-rows 1099511627776 is too large; at most 67108",
        ),
    ];
    for (args, expect) in cases {
        let output = crate::util::cli::bin()
            .arg("synth")
            .args(args)
            .arg("--out")
            .arg(dir.path().join("train.parquet"))
            .arg("--quiet")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(expect), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "nothing written"
    );
}
