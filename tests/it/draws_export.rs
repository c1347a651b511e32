//! The draws export (`[evaluation] export_draws = true`) of tests/fixtures/loo/spector_export.toml:
//! a Gibbs run and a Laplace run on the Spector & Mazzeo logit write their draws to draws/.
//!
//! - The files say what the record says: every column recomputed independently here from the
//!   data and the weights (log likelihoods, ln p(y, w), ln q(w) from results.json's mean and
//!   full covariance), the Parquet files hold the CSV's numbers.
//! - ArviZ, reading those files in one call each (tests/fixtures/loo/export_reference.py, run
//!   once; its output export_reference.json), gives the record's elpd_loo, se, p_loo and every
//!   Pareto k, and its `summary` gives the record's mean, sd, R-hat, bulk and tail ESS per
//!   weight, all to 1e-6.

use std::path::Path;

use bayeslab_engine::run::Silent;
use serde_json::Value;

const TOL: f64 = 1e-6;

fn close(a: f64, b: f64, what: &str) {
    assert!(
        (a - b).abs() <= TOL * (1.0 + b.abs()),
        "{what}: bayeslab {a}, reference {b}"
    );
}

/// (comments, header, rows) of one CmdStan CSV file.
fn cmdstan(path: &Path) -> (Vec<String>, Vec<String>, Vec<Vec<f64>>) {
    let text = std::fs::read_to_string(path).unwrap();
    let (comments, rest): (Vec<&str>, Vec<&str>) = text.lines().partition(|l| l.starts_with('#'));
    let header = rest[0].split(',').map(String::from).collect();
    let rows = rest[1..]
        .iter()
        .map(|l| l.split(',').map(|v| v.parse().unwrap()).collect())
        .collect();
    (
        comments.into_iter().map(String::from).collect(),
        header,
        rows,
    )
}

/// ln sigma(a) = -ln(1 + e^-a), without overflow for either sign.
fn log_sigmoid(a: f64) -> f64 {
    if a >= 0.0 {
        -(-a).exp().ln_1p()
    } else {
        a - a.exp().ln_1p()
    }
}

#[test]
fn the_exported_draws_are_the_records_and_arviz_reads_them_to_its_numbers() {
    let file = Path::new("tests/fixtures/loo/spector_export.toml");
    let plan = bayeslab_engine::config::load(file).unwrap();
    let record = bayeslab_engine::run::run(&plan, &mut Silent, None).unwrap();
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("run");
    bayeslab_report::write_record(&dir, &record).unwrap();
    let dataset = bayeslab_data::load(plan.data.as_ref().unwrap()).unwrap();
    let (x, y) = (&dataset.train.x, &dataset.train.y);
    let (n, d) = (x.nrows(), x.ncols());
    let reference: Value = serde_json::from_str(
        &std::fs::read_to_string("tests/fixtures/loo/export_reference.json").unwrap(),
    )
    .unwrap();

    for id in ["gibbs", "laplace"] {
        let run = record.runs.iter().find(|r| r.id == id).unwrap();
        let chains = if id == "gibbs" { 4 } else { 1 };
        let mut rows = Vec::new();
        for c in 1..=chains {
            let (comments, header, r) = cmdstan(&dir.join(format!("draws/{id}-{c}.csv")));
            assert!(comments[0].contains(&format!("run {id}")), "{comments:?}");
            let q = usize::from(id == "laplace");
            assert_eq!(header.len(), 1 + q + d + n, "{header:?}");
            assert_eq!(header[0], "lp__");
            assert_eq!(header[1 + q], "w.1");
            assert_eq!(header[1 + q + d], "log_lik.1");
            rows.extend(r);
        }
        let q = usize::from(id == "laplace");
        for row in &rows {
            let w = &row[1 + q..1 + q + d];
            // ln p(y_i | w) = ln sigma((2 y_i - 1) x_i^T w), and the prior N(0, I).
            let mut joint = -0.5 * d as f64 * (2.0 * std::f64::consts::PI).ln()
                - 0.5 * w.iter().map(|v| v * v).sum::<f64>();
            for i in 0..n {
                let a: f64 = (0..d).map(|j| x[(i, j)] * w[j]).sum();
                let ll = log_sigmoid((2.0 * y[i] - 1.0) * a);
                close(row[1 + q + d + i], ll, &format!("{id} log_lik.{}", i + 1));
                joint += ll;
            }
            close(row[0], joint, &format!("{id} lp__"));
        }
        if id == "laplace" {
            check_log_q(run, &rows, d);
        }
        check_parquet(&dir, id, &rows, q, d, n, &dataset.train.source_rows);
        check_against_arviz(run, &reference[id]);
    }
}

/// log_q__ is the density of the Gaussian of results.json (mean and full covariance) at w.
fn check_log_q(run: &bayeslab_core::record::RunRecord, rows: &[Vec<f64>], d: usize) {
    let post = run.posterior.as_ref().unwrap();
    let cov = post
        .cov
        .as_ref()
        .expect("the full covariance is in results.json");
    let c = faer::Mat::<f64>::from_fn(d, d, |i, j| cov[i][j]);
    let llt = c.llt(faer::Side::Lower).unwrap();
    let l = llt.L();
    let log_det: f64 = 2.0 * (0..d).map(|i| l[(i, i)].ln()).sum::<f64>();
    for row in rows {
        // (w - m)^T C^-1 (w - m) = |z|^2 with L z = w - m, by forward substitution.
        let mut z = vec![0.0; d];
        for i in 0..d {
            let done: f64 = (0..i).map(|j| l[(i, j)] * z[j]).sum();
            z[i] = (row[2 + i] - post.mean[i] - done) / l[(i, i)];
        }
        let quad: f64 = z.iter().map(|v| v * v).sum();
        let log_q = -0.5 * (d as f64 * (2.0 * std::f64::consts::PI).ln() + log_det + quad);
        close(row[1], log_q, "laplace log_q__");
    }
}

/// The Parquet files hold the CSV's numbers, named and keyed as documented.
fn check_parquet(
    dir: &Path,
    id: &str,
    rows: &[Vec<f64>],
    q: usize,
    d: usize,
    n: usize,
    data_rows: &[usize],
) {
    use polars::prelude::*;
    let read = |name: &str| {
        let f = std::fs::File::open(dir.join(format!("draws/{id}.{name}.parquet"))).unwrap();
        ParquetReader::new(f).finish().unwrap()
    };
    let draws = read("draws");
    assert_eq!(draws.height(), rows.len());
    let lp = draws.column("lp").unwrap().f64().unwrap();
    let first_weight = draws.column("intercept").unwrap().f64().unwrap();
    for (s, row) in rows.iter().enumerate() {
        assert_eq!(lp.get(s), Some(row[0]));
        assert_eq!(first_weight.get(s), Some(row[1 + q]));
    }
    let ll = read("log_lik");
    assert_eq!(ll.height(), rows.len() * n);
    let (value, data_row) = (
        ll.column("log_lik").unwrap().f64().unwrap(),
        ll.column("data_row").unwrap().u64().unwrap(),
    );
    // Long, row after row: training row i's draws are contiguous.
    for i in [0, n / 2, n - 1] {
        for s in [0, rows.len() - 1] {
            let k = i * rows.len() + s;
            assert_eq!(value.get(k), Some(rows[s][1 + q + d + i]));
            assert_eq!(data_row.get(k), Some(data_rows[i] as u64));
        }
    }
}

fn check_against_arviz(run: &bayeslab_core::record::RunRecord, r: &Value) {
    let loo = run.loo.as_ref().unwrap();
    let f = |k: &str| r[k].as_f64().unwrap();
    close(loo.elpd_loo, f("elpd_loo"), "elpd_loo");
    close(loo.se, f("se"), "se");
    close(loo.p_loo, f("p_loo"), "p_loo");
    let ks = r["pareto_k"].as_array().unwrap();
    assert_eq!(ks.len(), loo.pointwise.len());
    for (p, k) in loo.pointwise.iter().zip(ks) {
        close(p.k, k.as_f64().unwrap(), "Pareto k");
    }
    let Some(summary) = r.get("summary") else {
        return;
    };
    let diag = run.weight_diagnostics.as_ref().unwrap();
    let post = run.posterior.as_ref().unwrap();
    let col = |k: &str| -> Vec<f64> {
        summary[k]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect()
    };
    for (j, m) in col("mean").into_iter().enumerate() {
        close(post.mean[j], m, "mean");
    }
    for (j, s) in col("sd").into_iter().enumerate() {
        close(post.cov_diag[j].sqrt(), s, "sd");
    }
    for (j, v) in col("r_hat").into_iter().enumerate() {
        close(diag.rhat[j], v, "R-hat");
    }
    for (j, v) in col("ess_bulk").into_iter().enumerate() {
        close(diag.ess_bulk[j], v, "bulk ESS");
    }
    for (j, v) in col("ess_tail").into_iter().enumerate() {
        close(diag.ess_tail[j], v, "tail ESS");
    }
}
