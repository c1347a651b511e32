//! The variational and EP-logistic kinds end to end on shipped datasets, through the library:
//! the guarded KL fixed point converges with a monotone ELBO where the plain fixed point
//! diverges (digits 1 vs 8 under both links, breast cancer under the probit), the
//! Jaakkola-Jordan bound rises monotonically, and JJ bound <= ELBO of vi-logistic.

use std::path::Path;

use bayeslab_core::record::ExperimentRecord;
use bayeslab_engine::run::{run, Silent};

fn record(data: &str, precision: f64, methods: &str) -> ExperimentRecord {
    let text = format!(
        "[data]\npath = \"../datasets/{data}.csv\"\ntarget = \"y\"\nsplit = {{ every = 5, offset = 0 }}\n\
         [prior]\nprecision = {precision}\n{methods}"
    );
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/_test.toml");
    let plan = bayeslab_engine::config::parse(&text, &file).unwrap();
    run(&plan, &mut Silent, None).unwrap()
}

/// The bound (-objective) of every iterate of `run`, after checking the run converged.
fn bounds(rec: &ExperimentRecord, id: &str) -> Vec<f64> {
    let r = rec.runs.iter().find(|r| r.id == id).unwrap();
    assert!(r.error.is_none(), "{id}: {:?}", r.error);
    assert!(
        r.converged,
        "{id}: {:?} after {}",
        r.termination, r.iterations
    );
    let b: Vec<f64> = rec
        .trace
        .iter()
        .filter(|t| t.run == id)
        .map(|t| -t.iterate.objective)
        .collect();
    assert!(b.len() > 2, "{id}: {} iterates", b.len());
    for (k, w) in b.windows(2).enumerate() {
        assert!(
            w[1] >= w[0] - 1e-10 * w[0].abs(),
            "{id}: fell at iteration {}: {w:?}",
            k + 1
        );
    }
    let evidence = r.posterior.as_ref().unwrap().log_evidence.unwrap();
    assert_eq!(
        evidence,
        *b.last().unwrap(),
        "{id}: log_evidence is the last bound"
    );
    assert!(
        r.khat.is_some(),
        "{id}: a Gaussian posterior gets its k-hat"
    );
    b
}

#[test]
fn the_guarded_fixed_point_converges_monotonically_where_the_plain_one_diverges() {
    let digits = record(
        "digits_1v8",
        1.0,
        "[[method]]\nkind = \"vi-logistic\"\n[[method]]\nkind = \"vi-probit\"\n\
         [[method]]\nkind = \"vb-logistic\"",
    );
    let elbo = *bounds(&digits, "vi-logistic").last().unwrap();
    bounds(&digits, "vi-probit");
    let jj = *bounds(&digits, "vb-logistic").last().unwrap();
    // Measured: JJ -77.4, ELBO -45.4: the bound is loose on nearly separable digits.
    assert!(jj < elbo, "JJ {jj} vs ELBO {elbo}");
    // the guard had to act: some step was shortened below 1
    let shortened = digits
        .trace
        .iter()
        .any(|t| t.run == "vi-probit" && t.iterate.iteration > 0 && t.iterate.step < 1.0);
    assert!(shortened, "vi-probit on digits took only full steps");
    let cancer = record("breast_cancer", 1.0, "[[method]]\nkind = \"vi-probit\"");
    bounds(&cancer, "vi-probit");
}

#[test]
fn the_shipped_experiment_orders_the_bounds_and_puts_ep_and_kl_nearest_the_gold_posterior() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/laplace_vb_ep_exact.toml");
    let plan = bayeslab_engine::config::load(&file).unwrap();
    let rec = run(&plan, &mut Silent, None).unwrap();
    let jj = *bounds(&rec, "jj").last().unwrap();
    let kl = *bounds(&rec, "kl").last().unwrap();
    let mf = *bounds(&rec, "kl-mf").last().unwrap();
    let probit_kl = *bounds(&rec, "probit-kl").last().unwrap();
    let probit_mf = *bounds(&rec, "probit-kl-mf").last().unwrap();
    assert!(jj <= mf && mf <= kl, "JJ {jj}, mean field {mf}, full {kl}");
    assert!(
        probit_mf <= probit_kl,
        "probit: mean field {probit_mf}, full {probit_kl}"
    );
    let evidence = |id: &str| {
        let r = rec.runs.iter().find(|r| r.id == id).unwrap();
        assert!(r.converged && r.khat.is_some(), "{id}");
        r.posterior.as_ref().unwrap().log_evidence.unwrap()
    };
    // EP's evidence estimates ln p(y|X), which the ELBO bounds from below; on Pima they differ
    // by 0.0015 nat (logistic, measured), so EP lies above the ELBO.
    assert!(evidence("ep") > kl, "EP {} vs ELBO {kl}", evidence("ep"));
    // Against the Gibbs posteriors (measured, logistic): EP's and KL's means within 0.025 gold
    // sd where Laplace's are 0.21 sd off; mean field's sds are 0.76 of the gold ones, the full
    // covariance's 0.97. The bounds leave room for the Monte-Carlo error of 4 x 1000 draws.
    let error = |id: &str| {
        let e = rec
            .approximation_error
            .iter()
            .find(|e| e.run == id && e.predictive == bayeslab_core::catalog::PredictiveKind::Exact)
            .unwrap_or_else(|| panic!("{id} has no approximation error"));
        (e.mean_err_sd_units.unwrap(), e.sd_ratio_max.unwrap())
    };
    let (laplace, _) = error("laplace");
    for id in ["ep", "kl"] {
        let (mean, sd) = error(id);
        assert!(
            mean < 0.1 && mean < laplace,
            "{id}: mean error {mean} sd (Laplace {laplace})"
        );
        assert!((sd - 1.0).abs() < 0.08, "{id}: sd ratio {sd}");
    }
    let (_, sd) = error("kl-mf");
    assert!(sd < 0.9, "mean field underestimates some sd: ratio {sd}");
    for id in ["jj", "kl", "kl-mf", "ep"] {
        let r = rec.runs.iter().find(|r| r.id == id).unwrap();
        let names: Vec<&str> = r.predictives.iter().map(|p| p.name.name()).collect();
        assert_eq!(names, ["plugin", "mc", "probit", "mackay", "exact"], "{id}");
    }
    // Every new kind in every view of the record (issue 18 item 5): the approximation-error
    // and calibration tables of report.md, and the evidence table with its own label.
    let md = bayeslab_report::markdown::report(&rec, &[]);
    for id in ["ep", "jj", "kl", "kl-mf", "probit-kl", "probit-kl-mf"] {
        assert!(
            md.contains(&format!("| {id} | exact | gibbs")),
            "{id}: approximation error"
        );
        assert!(
            // one reliability diagram per run, its predictives overlaid (issue 28)
            md.contains(&format!("### {id}\n")),
            "{id}: calibration"
        );
    }
    for row in [
        "| jj | logistic | JJ bound |",
        "| kl-mf | logistic | ELBO mean-field |",
        "| probit-kl-mf | probit | ELBO mean-field |",
        "| probit-ep | probit | EP ln Z |",
    ] {
        assert!(md.contains(row), "{row}: evidence table");
    }
}
