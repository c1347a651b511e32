//! The approximation lab end to end: the shipped lab experiments through the CLI, checked
//! against the results.json contract of issue 5 (docs/guide/approximation-lab.md).

use std::path::{Path, PathBuf};

use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn run(experiment: &Path, out: &Path) -> Value {
    let output = crate::util::cli::bin()
        .arg("run")
        .arg(experiment)
        .arg("--out")
        .arg(out)
        .arg("--quiet")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap()
}

fn num(v: &Value, key: &str) -> f64 {
    v[key]
        .as_f64()
        .unwrap_or_else(|| panic!("`{key}` is not a number in {v}"))
}

fn quantiles(v: &Value) -> [f64; 3] {
    let q = v["quantiles"].as_array().expect("quantiles is a list");
    assert_eq!(q.len(), 3, "quantiles are [2.5 %, 50 %, 97.5 %]");
    let q = [
        q[0].as_f64().unwrap(),
        q[1].as_f64().unwrap(),
        q[2].as_f64().unwrap(),
    ];
    assert!(q[0] < q[1] && q[1] < q[2], "quantiles out of order: {q:?}");
    q
}

/// Every contract name of one `posteriors` entry, with sane values.
fn check_entry(p: &Value) {
    for key in ["id", "kind"] {
        assert!(p[key].is_string(), "`{key}` missing in {p}");
    }
    assert!(p["n"].as_u64().unwrap() >= 1);
    let exact = &p["exact"];
    assert!(num(exact, "sd") > 0.0);
    let q = quantiles(exact);
    assert!(q[0] < num(exact, "mean") && num(exact, "mean") < q[2]);
    let approximations = p["approximations"].as_array().unwrap();
    assert!(!approximations.is_empty());
    for a in approximations {
        let name = a["name"].as_str().unwrap();
        assert!(
            ["normal", "lognormal", "logitnormal", "t", "mixture"].contains(&name),
            "unknown approximation name {name}"
        );
        assert!(num(a, "sd") > 0.0);
        num(a, "mean");
        quantiles(a);
        assert!(num(a, "kl") >= 0.0);
        let tv = num(a, "tv");
        let h = num(a, "hellinger");
        assert!((0.0..=1.0).contains(&tv) && (0.0..=1.0).contains(&h));
        // Hellinger and TV bound each other: H² <= TV <= H sqrt(2 - H²).
        assert!(
            h * h <= tv + 1e-6 && tv <= h * (2.0 - h * h).sqrt() + 1e-6,
            "{a}"
        );
        let out = num(a, "mass_outside_support");
        assert!((0.0..=1.0).contains(&out));
        assert_eq!(a["integration"]["converged"], Value::Bool(true), "{a}");
    }
}

fn entries<'a>(r: &'a Value, id: &str) -> Vec<&'a Value> {
    r["posteriors"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["id"] == id)
        .collect()
}

fn approx<'a>(p: &'a Value, name: &str) -> &'a Value {
    p["approximations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == name)
        .unwrap_or_else(|| panic!("no approximation {name} in {p}"))
}

#[test]
fn lab_counts_meets_the_contract_and_shows_the_sweep() {
    let dir = tempfile::tempdir().unwrap();
    let r = run(&root().join("experiments/lab_counts.toml"), dir.path());
    let all = r["posteriors"].as_array().unwrap();
    // 3 + 3 subset sizes, one beta-binomial, 2 subset sizes.
    assert_eq!(all.len(), 9);
    all.iter().for_each(check_entry);
    assert!(r["runs"].as_array().unwrap().is_empty());

    // The InsectSprays sweep: n follows the subset, and the normal approximation's KL falls
    // as n grows (the notes' figure).
    let sweep = entries(&r, "insects-all");
    let ns: Vec<u64> = sweep.iter().map(|p| p["n"].as_u64().unwrap()).collect();
    assert_eq!(ns, [5, 20, 72]);
    let kl: Vec<f64> = sweep
        .iter()
        .map(|p| num(approx(p, "normal"), "kl"))
        .collect();
    assert!(kl[0] > kl[1] && kl[1] > kl[2], "{kl:?}");
    // All 72 counts sum to 684; prior Gamma(1, 1): exact Gamma(685, 73).
    let exact = &sweep[2]["exact"];
    assert!((num(exact, "mean") - 685.0 / 73.0).abs() < 1e-9);
    assert!((num(exact, "sd") - 685f64.sqrt() / 73.0).abs() < 1e-9);
    let normal = approx(sweep[2], "normal");
    assert!((num(normal, "mean") - 684.0 / 73.0).abs() < 1e-7);
    assert!((num(normal, "sd") - 684f64.sqrt() / 73.0).abs() < 1e-7);

    // Small counts: the log-normal is closer than the normal, and only the normal and the t
    // put mass below zero.
    for p in entries(&r, "insects-spray-c") {
        assert!(num(approx(p, "lognormal"), "kl") < num(approx(p, "normal"), "kl"));
        assert_eq!(num(approx(p, "lognormal"), "mass_outside_support"), 0.0);
        assert!(num(approx(p, "normal"), "mass_outside_support") > 0.0);
    }

    // 6 of 9 under a flat prior: exact mean 7/11; logit-normal below, theta-scale normal above.
    let six = entries(&r, "six-of-nine")[0];
    let m = num(&six["exact"], "mean");
    assert!((m - 7.0 / 11.0).abs() < 1e-12);
    assert!(num(approx(six, "logitnormal"), "mean") < m);
    assert!(num(approx(six, "normal"), "mean") > m);

    let report = std::fs::read_to_string(dir.path().join("report.md")).unwrap();
    assert!(report.contains("## Approximation lab"));
    assert!(report.contains("### insects-all (gamma-poisson, subset 20, n = 20)"));
}

#[test]
fn lab_incomes_reports_the_gini_and_both_modes_reproducibly() {
    let dir = tempfile::tempdir().unwrap();
    let r = run(&root().join("experiments/lab_incomes.toml"), dir.path());
    r["posteriors"]
        .as_array()
        .unwrap()
        .iter()
        .for_each(check_entry);
    let gini = entries(&r, "wages-gini");
    assert_eq!(
        gini.iter()
            .map(|p| p["n"].as_u64().unwrap())
            .collect::<Vec<_>>(),
        [5, 20, 100, 534]
    );
    for p in &gini {
        for side in ["approx", "exact"] {
            let g = &p["gini"][side];
            let (mean, lo, hi, mcse) = (
                num(g, "mean"),
                num(g, "q025"),
                num(g, "q975"),
                num(g, "mcse"),
            );
            assert!(0.0 < lo && lo < mean && mean < hi && hi < 1.0, "{g}");
            assert!(mcse > 0.0 && mcse < 0.01);
        }
        // The exact simulation agrees with the exact distribution of G (quadrature).
        let sim = &p["gini"]["exact"];
        assert!((num(sim, "mean") - num(&p["exact"], "mean")).abs() < 4.0 * num(sim, "mcse"));
    }
    let mix = entries(&r, "two-clusters")[0];
    let modes = mix["modes"].as_array().unwrap();
    assert_eq!(modes.len(), 2);
    let w: f64 = modes.iter().map(|m| num(m, "weight")).sum();
    assert!((w - 1.0).abs() < 1e-12);
    assert!(num(approx(mix, "mixture"), "kl") < num(approx(mix, "normal"), "kl"));

    // Same TOML, same numbers.
    let again = tempfile::tempdir().unwrap();
    let r2 = run(&root().join("experiments/lab_incomes.toml"), again.path());
    assert_eq!(r["posteriors"], r2["posteriors"]);
}

#[test]
fn methods_and_posteriors_run_together() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("both.toml");
    let pima = root().join("datasets/pima.csv");
    std::fs::write(
        &file,
        format!(
            "seed = 1\n[data]\npath = {:?}\ntarget = \"y\"\n[[method]]\nkind = \"logistic-map\"\n\
             [[posterior]]\nkind = \"beta-binomial\"\ndata = {{ path = {:?}, column = \"y\" }}\n",
            pima.display().to_string(),
            pima.display().to_string()
        ),
    )
    .unwrap();
    let r = run(&file, &dir.path().join("out"));
    assert_eq!(r["runs"].as_array().unwrap().len(), 1);
    let p = &r["posteriors"][0];
    check_entry(p);
    assert_eq!(p["id"], "beta-binomial");
    assert_eq!(
        p["n"].as_u64().unwrap(),
        r["dataset"]["rows_train"].as_u64().unwrap() + r["dataset"]["rows_test"].as_u64().unwrap()
    );
}

#[test]
fn lab_reports_overlay_every_density() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("inc");
    let exp = concat!(env!("CARGO_MANIFEST_DIR"), "/experiments/lab_incomes.toml");
    let o = crate::util::cli::bin()
        .args(["run", exp, "--quiet", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    let n = r["posteriors"].as_array().unwrap().len();
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    // one density overlay per posterior and subset, with one curve per approximation + exact
    assert_eq!(html.matches("<svg").count(), n);
    assert!(html.contains("<h2>Approximation lab</h2>"));
    assert!(
        !html.contains("<h2>Dataset</h2>"),
        "a lab-only experiment has no dataset section"
    );
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert_eq!(md.matches("](plots/density-").count(), n);
}

#[test]
fn gamma_poisson_with_a_total_count_of_1e15_completes_with_the_normal_limit() {
    // statrs' Gamma CDF and quantile took minutes at this shape and were wrong (0.9966 one
    // sd above the mean). Exact: Gamma(a = 1 + 1e15, b = 1 + 1) under the default prior;
    // its quantiles are the normal limit with the skewness term (Cornish-Fisher):
    // b x_p = a + z sqrt a + (z^2 - 1) / 3 + O(1 / sqrt a).
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("big.toml");
    std::fs::write(
        &file,
        "[[posterior]]\nkind = \"gamma-poisson\"\ncounts = [1000000000000000]\n",
    )
    .unwrap();
    let r = run(&file, &dir.path().join("out"));
    let p = &entries(&r, "gamma-poisson")[0];
    check_entry(p);
    let (a, b) = (1e15 + 1.0, 2.0);
    let exact = &p["exact"];
    assert_eq!(num(exact, "mean"), a / b);
    let q = quantiles(exact);
    for (got, z) in q
        .iter()
        .zip([-1.959_963_984_540_054, 0.0, 1.959_963_984_540_054])
    {
        let want = (a + z * a.sqrt() + (z * z - 1.0) / 3.0) / b;
        assert!((got - want).abs() <= 1.0, "{got} vs {want}");
    }
    // the normal approximation at the mode (a - 1) / b with sd sqrt(a - 1) / b is all but exact
    let normal = approx(p, "normal");
    assert!(num(normal, "tv") < 1e-6, "{normal}");
}

#[test]
fn beta_binomial_with_3e14_of_1e15_successes_completes_with_the_closed_forms() {
    // statrs' Beta CDF was 1268 at the mean of this posterior and the quantile's bisection on
    // it never finished (still running after 120 s). Exact: Beta(a = 1 + 3e14, b = 1 + 7e14)
    // under the default Beta(1, 1) prior; its quantiles are Cornish-Fisher's
    // x0 + sd (z + skew (z^2 - 1) / 6) up to O(sd / (a + b)), far below an ulp of x.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("big.toml");
    std::fs::write(
        &file,
        "[[posterior]]\nkind = \"beta-binomial\"\nsuccesses = 300000000000000\ntrials = 1000000000000000\n",
    )
    .unwrap();
    let r = run(&file, &dir.path().join("out"));
    let p = &entries(&r, "beta-binomial")[0];
    check_entry(p);
    let (a, b) = (3e14 + 1.0, 7e14 + 1.0_f64);
    let s = a + b;
    let (mean, sd) = (a / s, (a * b / (s * s * (s + 1.0))).sqrt());
    let exact = &p["exact"];
    assert!((num(exact, "mean") - mean).abs() <= 1e-15 * mean, "{exact}");
    assert!((num(exact, "sd") - sd).abs() <= 1e-6 * sd, "{exact}");
    let skew = 2.0 * (b - a) * (s + 1.0).sqrt() / ((s + 2.0) * (a * b).sqrt());
    for (got, z) in
        quantiles(exact)
            .iter()
            .zip([-1.959_963_984_540_054, 0.0, 1.959_963_984_540_054])
    {
        let want = mean + sd * (z + skew * (z * z - 1.0) / 6.0);
        assert!((got - want).abs() <= 1e-6 * sd, "{got} vs {want}");
    }
    // the normal approximation on theta is all but exact
    let normal = approx(p, "normal");
    assert!(num(normal, "tv") < 1e-5, "{normal}");
}

#[test]
fn beta_binomial_with_5_of_1e15_successes_completes_with_the_gamma_limit() {
    // Beta(6, 1e15 - 4) under the default prior: the bisection on statrs' CDF ran past 60 s.
    // Its quantiles are Gamma(6, 1)'s over b + 5 / 2 up to O((a / b)^2); those of
    // Gamma(6, 1) from mpmath: 2.2018942534908508, 5.670161188712070, 11.668332079322670.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("lopsided.toml");
    std::fs::write(
        &file,
        "[[posterior]]\nkind = \"beta-binomial\"\nsuccesses = 5\ntrials = 1000000000000000\n\
         approximations = [\"logitnormal\"]\n",
    )
    .unwrap();
    let r = run(&file, &dir.path().join("out"));
    let p = &entries(&r, "beta-binomial")[0];
    check_entry(p);
    let (a, b) = (6.0, 1e15 - 4.0_f64);
    let s = a + b;
    let exact = &p["exact"];
    assert!(
        (num(exact, "mean") - a / s).abs() <= 1e-15 * a / s,
        "{exact}"
    );
    let sd = (a * b / (s * s * (s + 1.0))).sqrt();
    assert!((num(exact, "sd") - sd).abs() <= 1e-6 * sd, "{exact}");
    let gamma = [
        2.201_894_253_490_850_8,
        5.670_161_188_712_07,
        11.668_332_079_322_67,
    ];
    for (got, y) in quantiles(exact).iter().zip(gamma) {
        let want = y / (b + 2.5);
        assert!((got / want - 1.0).abs() < 1e-9, "{got} vs {want}");
    }
}

#[test]
fn lognormal_gini_of_incomes_a_hundred_decades_apart_has_a_finite_exact_mean() {
    // log incomes -115.1, 115.1, 0: sigma is ~100, every G rounds to 1 and the exact mean
    // was written as null (NaN). 1 - E[G] <= e^{-s2 / 400} + erfc(10) < 5e-15 (moments.rs).
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("spread.toml");
    std::fs::write(
        &file,
        "[[posterior]]\nkind = \"lognormal-gini\"\nvalues = [1e-50, 1e50, 1]\n",
    )
    .unwrap();
    let r = run(&file, &dir.path().join("out"));
    let p = &entries(&r, "lognormal-gini")[0];
    let exact = &p["exact"];
    assert!((1.0 - num(exact, "mean")).abs() < 5e-15, "{exact}");
    assert!((0.0..1e-7).contains(&num(exact, "sd")), "{exact}");
    for a in p["approximations"].as_array().unwrap() {
        assert!((1.0 - num(a, "mean")).abs() < 1e-4, "{a}");
    }
}
