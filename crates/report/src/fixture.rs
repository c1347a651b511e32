//! Small hand-made run records for the unit tests of the reports: the tables and figures are
//! functions of the record, so a record with known numbers pins what they must show.

use bayeslab_core::catalog::{MethodKind, PredictiveKind};
use bayeslab_core::metrics::{Bin, Metrics};
use bayeslab_core::optim::Termination;
use bayeslab_core::record::{
    DatasetInfo, ExperimentInfo, ExperimentRecord, PosteriorRecord, PredictiveRecord, Provenance,
    RunRecord,
};

/// An experiment over `columns` with classes `classes` and the given runs (no trace).
pub fn record(columns: &[&str], classes: &[&str], runs: Vec<RunRecord>) -> ExperimentRecord {
    ExperimentRecord {
        schema_version: bayeslab_core::record::SCHEMA_VERSION,
        experiment: ExperimentInfo {
            name: "fixture".into(),
            seed: 1,
            description: None,
            file: "fixture.toml".into(),
            prior_precision: 1.0,
            prior_evidence: false,
            calibration_bins: 2,
            calibration_binning: Default::default(),
        },
        dataset: DatasetInfo {
            files: vec!["fixture.csv".into()],
            target: "y".into(),
            classes: classes.iter().map(|c| c.to_string()).collect(),
            columns: columns.iter().map(|c| c.to_string()).collect(),
            ..Default::default()
        },
        runs,
        provenance: Provenance {
            version: "0".into(),
            seed: 1,
            config: String::new(),
            data_sha256: Default::default(),
            created: "2026-01-01T00:00:00Z".into(),
            cores: 1,
        },
        comparison: None,
        versus_best: Vec::new(),
        approximation_error: Vec::new(),
        evidence: Vec::new(),
        loo_comparison: Vec::new(),
        posteriors: Vec::new(),
        predictions: Default::default(),
        trace: Vec::new(),
        streaming: None,
        input_space: None,
        input_space_pairs: Vec::new(),
        exact_contours: None,
    }
}

/// A converged run with point estimate `weights` and, given `sd`, the Gaussian posterior
/// N(weights, sd²) with k-hat `khat`; one plug-in predictive.
pub fn run(id: &str, weights: &[f64], sd: Option<f64>, khat: Option<f64>) -> RunRecord {
    let mut run = RunRecord::failed(id, MethodKind::LogisticLaplace, 0.1, String::new());
    run.error = None;
    run.converged = true;
    run.termination = Some(Termination::Converged);
    run.iterations = 5;
    run.objective = Some(10.0);
    run.weights = weights.to_vec();
    run.posterior = sd.map(|sd| PosteriorRecord {
        mean: weights.to_vec(),
        cov_diag: vec![sd * sd; weights.len()],
        cov: Some(
            (0..weights.len())
                .map(|i| {
                    (0..weights.len())
                        .map(|j| if i == j { sd * sd } else { 0.0 })
                        .collect()
                })
                .collect(),
        ),
        precision_factor: None,
        log_evidence: Some(-12.0),
    });
    run.khat = khat;
    run.prior_precision = Some(1.0);
    run.predictives = vec![PredictiveRecord {
        name: PredictiveKind::Plugin,
        metrics: Metrics {
            log_loss: 0.5,
            brier: 0.2,
            accuracy: 0.75,
            auc: Some(0.8),
            ece: 0.05,
            mce: 0.1,
        },
        calibration: vec![
            Bin {
                lower: 0.0,
                upper: 0.5,
                count: 2,
                mean_predicted: Some(0.3),
                observed_frequency: Some(0.5),
            },
            Bin {
                lower: 0.5,
                upper: 1.0,
                count: 2,
                mean_predicted: Some(0.7),
                observed_frequency: Some(1.0),
            },
        ],
        ece_ci: None,
        ece_debiased: None,
    }];
    run
}

/// Trace rows of `run` for iterations 0..=n, the gradient norm falling tenfold a step.
pub fn trace(run: &str, n: usize) -> Vec<bayeslab_core::record::TraceRow> {
    (0..=n)
        .map(|i| bayeslab_core::record::TraceRow {
            run: run.into(),
            iterate: bayeslab_core::optim::Iterate {
                iteration: i,
                objective: 10.0 + 1.0 / (i as f64 + 1.0),
                grad_norm: 10f64.powi(-(i as i32)),
                step: 1.0,
                elapsed_s: 0.0,
            },
        })
        .collect()
}

/// The SVG's text elements as (x, y, text), and its circles as (cx, cy).
pub fn svg_texts(svg: &str) -> Vec<(f64, f64, String)> {
    let doc = roxmltree::Document::parse(svg).expect("well-formed SVG");
    let num = |n: roxmltree::Node, a: &str| n.attribute(a).map_or(0.0, |v| v.parse().unwrap());
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| {
            (
                num(n, "x"),
                num(n, "y"),
                n.text().unwrap_or("").trim().to_string(),
            )
        })
        .collect()
}

pub fn svg_circles(svg: &str) -> Vec<(f64, f64)> {
    let doc = roxmltree::Document::parse(svg).expect("well-formed SVG");
    let num = |n: roxmltree::Node, a: &str| n.attribute(a).map_or(0.0, |v| v.parse().unwrap());
    doc.descendants()
        .filter(|n| n.has_tag_name("circle"))
        .map(|n| (num(n, "cx"), num(n, "cy")))
        .collect()
}

/// The encodings of a penguins-like table (synthetic counts over 250 training and 83 test
/// rows): three text columns and a coded year expanded with treatment coding, and one numeric
/// column's gaps filled by its training mean with an indicator column.
pub fn encoding() -> bayeslab_core::record::EncodingInfo {
    use bayeslab_core::record::{CategoricalInfo, EncodingInfo, ImputedInfo, LevelCount};
    let categorical =
        |column: &str, reference: &str, levels: &[(&str, usize, usize)]| CategoricalInfo {
            column: column.into(),
            levels: levels
                .iter()
                .map(|&(level, train, test)| LevelCount {
                    level: level.into(),
                    train,
                    test,
                })
                .collect(),
            reference: reference.into(),
            design_columns: levels
                .iter()
                .filter(|l| l.0 != reference)
                .map(|l| format!("{column}={}", l.0))
                .collect(),
        };
    EncodingInfo {
        categorical: vec![
            categorical(
                "species",
                "Gentoo",
                &[
                    ("Adelie", 110, 36),
                    ("Chinstrap", 51, 17),
                    ("Gentoo", 89, 30),
                ],
            ),
            categorical(
                "island",
                "Biscoe",
                &[
                    ("Biscoe", 122, 41),
                    ("Dream", 91, 32),
                    ("Torgersen", 37, 10),
                ],
            ),
            categorical(
                "clutch_completion",
                "No",
                &[("No", 26, 8), ("Yes", 224, 75)],
            ),
            categorical(
                "year",
                "2007",
                &[("2007", 80, 23), ("2008", 84, 30), ("2009", 86, 30)],
            ),
        ],
        imputed: vec![ImputedInfo {
            column: "delta_15n".into(),
            strategy: "mean".into(),
            value: "8.7399".into(),
            filled_train: 7,
            filled_test: 2,
            indicator: Some("delta_15n=missing".into()),
        }],
    }
}

/// The design columns of [`encoding`]'s table, in weight order.
pub const ENCODED_COLUMNS: [&str; 13] = [
    "intercept",
    "species=Adelie",
    "species=Chinstrap",
    "island=Dream",
    "island=Torgersen",
    "bill_length_mm",
    "flipper_length_mm",
    "body_mass_g",
    "clutch_completion=Yes",
    "delta_15n",
    "delta_15n=missing",
    "year=2008",
    "year=2009",
];

/// A converged run of `kind` at λ = `lambda` whose own ln p(y | X) is
/// `log_evidence`, for the evidence table.
pub fn evidence_run(id: &str, kind: MethodKind, lambda: f64, log_evidence: f64) -> RunRecord {
    let mut r = run(id, &[0.1, 0.2], Some(0.1), Some(0.2));
    r.kind = kind;
    r.prior_precision = Some(lambda);
    r.posterior.as_mut().expect("a posterior").log_evidence = Some(log_evidence);
    r
}

/// An importance-sampling estimate of ln p(y | X) under `model` around the run `proposal`.
pub fn estimate(
    model: bayeslab_core::catalog::Link,
    lambda: f64,
    log_evidence: f64,
    mcse: f64,
    khat: f64,
    proposal: &str,
) -> bayeslab_core::record::EvidenceEstimate {
    bayeslab_core::record::EvidenceEstimate {
        model,
        prior_precision: lambda,
        log_evidence,
        mcse,
        khat: Some(khat),
        reliable: khat <= bayeslab_core::model::importance::KHAT_LIMIT,
        draws: 20_000,
        proposal: proposal.into(),
        seconds: 1.0,
    }
}
