//! The method catalogue end to end on shipped datasets, through the library API (the gold
//! standard and its comparisons are in tests/it/gold.rs).

use crate::util::method::plan;
use bayeslab_core::metrics::ece_bootstrap;
use bayeslab_core::metrics::multiclass::top_hit;
use bayeslab_core::numeric::rng::stream;
use bayeslab_core::record::Scores;
use bayeslab_engine::run::{run, Silent};

fn column<'a>(rec: &'a bayeslab_core::record::ExperimentRecord, run: &str, p: &str) -> &'a [f64] {
    let r = rec.runs.iter().find(|r| r.id == run).unwrap();
    assert!(r.error.is_none(), "{run}: {:?}", r.error);
    assert!(r.predictives.iter().any(|x| x.name.name() == p));
    match &rec.predictions.column(run, p).unwrap().scores {
        Scores::Binary(p) => p,
        Scores::Classes(_) => panic!("{run}/{p}: expected one column"),
    }
}

fn classes<'a>(
    rec: &'a bayeslab_core::record::ExperimentRecord,
    run: &str,
    p: &str,
) -> &'a [Vec<f64>] {
    match &rec.predictions.column(run, p).unwrap().scores {
        Scores::Classes(rows) => rows,
        Scores::Binary(_) => panic!("{run}/{p}: expected one column per class"),
    }
}

#[test]
fn ep_predictive_is_within_a_hundredth_of_laplace_on_pima() {
    // Pima: 399 training rows, 7 standardised features and a unit-precision prior, so the
    // probit posterior is close to Gaussian and both approximations must nearly agree.
    let p = plan(
        r#"
        [data]
        path = "../datasets/pima.csv"
        target = "y"
        split = { every = 4, offset = 0 }
        [[method]]
        id = "laplace"
        kind = "probit-laplace"
        [[method]]
        id = "ep"
        kind = "ep-probit"
        "#,
    );
    let rec = run(&p, &mut Silent, None).unwrap();
    let (ep, la) = (
        column(&rec, "ep", "exact"),
        column(&rec, "laplace", "exact"),
    );
    let worst = ep
        .iter()
        .zip(la)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    assert!(worst < 0.01, "largest |EP - Laplace| = {worst}");
    let ep_run = rec.runs.iter().find(|r| r.id == "ep").unwrap();
    assert!(ep_run.converged);
    assert!(ep_run.posterior.as_ref().unwrap().log_evidence.is_some());
}

#[test]
fn multiclass_runs_report_one_probability_per_class() {
    let p = plan(
        r#"
        [data]
        path = "../datasets/iris.csv"
        target = "y"
        split = { every = 3, offset = 1 }
        [[method]]
        id = "softmax"
        kind = "softmax-laplace"
        predictive = ["plugin"]
        [[method]]
        id = "niw"
        kind = "gaussian-generative"
        [[method]]
        id = "lda"
        kind = "lda"
        "#,
    );
    let rec = run(&p, &mut Silent, None).unwrap();
    assert_eq!(rec.dataset.classes, vec!["0", "1", "2"]);
    for r in &rec.runs {
        assert!(r.error.is_none(), "{}: {:?}", r.id, r.error);
        let pr = &r.predictives[0];
        let rows = classes(&rec, &r.id, pr.name.name());
        assert_eq!(rows.len(), rec.predictions.y.len());
        for row in rows {
            assert_eq!(row.len(), 3);
            assert!((row.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        }
        assert!(
            pr.metrics.accuracy > 0.9,
            "{}: {}",
            r.id,
            pr.metrics.accuracy
        );
        assert_eq!(pr.metrics.auc, None);
        // The top-label ECE's interval: the binary bootstrap over each row's
        // (max_k p_k, top class right), drawn from the run's own ECE stream.
        let [lo, hi] = pr.ece_ci.expect("a multiclass ECE interval");
        assert!(0.0 <= lo && lo < hi && hi <= 1.0, "{}: [{lo}, {hi}]", r.id);
        let (top, hit): (Vec<f64>, Vec<f64>) = rows
            .iter()
            .zip(&rec.predictions.y)
            .map(|(row, &y)| top_hit(row, y))
            .unzip();
        let e = &p.evaluation;
        let mut s = stream(p.seed, &format!("{}/{}/ece", r.id, pr.name));
        let again = ece_bootstrap(
            &top,
            &hit,
            e.calibration_bins,
            e.binning,
            e.resamples,
            &mut s,
        )
        .interval;
        assert_eq!(again, [lo, hi], "{}", r.id);
    }
    // predictions.csv: one column per class, rows summing to one
    let files = bayeslab_report::render(&rec);
    let csv = files.iter().find(|a| a.name == "predictions.csv").unwrap();
    let text = String::from_utf8(csv.bytes.clone()).unwrap();
    let mut lines = text.lines();
    let header = lines.next().unwrap();
    assert!(
        header.starts_with(
            "row,y,data_row,softmax/plugin/p0,softmax/plugin/p1,softmax/plugin/p2,niw/exact/p0"
        ),
        "{header}"
    );
    assert!(header.ends_with("lda/plugin/p2"), "{header}");
    for line in lines {
        let v: Vec<f64> = line.split(',').map(|c| c.parse().unwrap()).collect();
        assert_eq!(v.len(), 3 + 9);
        assert!((v[3] + v[4] + v[5] - 1.0).abs() < 1e-12);
    }
}

#[test]
fn adf_is_one_pass_in_an_order_seeded_by_the_experiment() {
    let text = |seed: u64| {
        format!(
            r#"
            seed = {seed}
            [data]
            path = "../datasets/pima.csv"
            target = "y"
            split = {{ every = 4, offset = 0 }}
            [[method]]
            id = "adf"
            kind = "adf-probit"
            "#
        )
    };
    let mean = |seed: u64| {
        let rec = run(&plan(&text(seed)), &mut Silent, None).unwrap();
        let r = &rec.runs[0];
        assert!(r.converged);
        assert_eq!(r.iterations, 1);
        r.posterior.as_ref().unwrap().mean.clone()
    };
    let (a, b, c) = (mean(1), mean(1), mean(2));
    assert_eq!(a, b);
    assert_ne!(a, c);
}
