//! `bayeslab predict RUN_DIR DATA`: a new table scored with every run's stored posterior. The
//! run directory's results.json holds what is needed: the preparation's learned state
//! (`dataset.preparation`, `dataset.standardisation`), each run's weights and posterior (with
//! the Cholesky factor of its precision), its predictives and their settings, and the seed of
//! the Monte-Carlo streams. The predictors are rebuilt as the run's own types
//! (model/restore.rs), so the run's own test rows get back its predictions.csv exactly. A run
//! whose posterior the record does not hold in full (Gibbs, softmax, the generative kinds) is
//! fitted again from the stored experiment on the same data (run/refit.rs).

use std::fmt::Write as _;
use std::path::Path;

use serde::Deserialize;

use super::refit::Refitter;
use bayeslab_core::catalog::{MethodKind, PredictiveKind};
use bayeslab_core::error::{Error, Result};
use bayeslab_core::model::fit::Probabilities;
use bayeslab_core::model::predictive::PredictiveSettings;
use bayeslab_core::model::restore::{predictor, Stored as StoredFit};
use bayeslab_core::numeric::rng;
use bayeslab_core::record::{ColumnScaling, Preparation};

#[derive(Deserialize)]
struct Stored {
    experiment: StoredExperiment,
    dataset: StoredDataset,
    runs: Vec<StoredRun>,
    provenance: StoredProvenance,
}

#[derive(Deserialize)]
struct StoredExperiment {
    seed: u64,
    file: String,
}

#[derive(Deserialize)]
struct StoredProvenance {
    config: String,
    data_sha256: std::collections::BTreeMap<String, String>,
}

#[derive(Deserialize)]
struct StoredDataset {
    columns: Vec<String>,
    classes: Vec<String>,
    standardisation: Option<Vec<ColumnScaling>>,
    preparation: Option<Preparation>,
}

/// A name this build knows (a kind, a predictive), or one it does not: a results.json of a
/// newer bayeslab, whose runs are skipped with a note rather than refused whole.
#[derive(Deserialize)]
#[serde(untagged)]
enum Known<T> {
    Known(T),
    Unknown(String),
}

#[derive(Deserialize)]
struct StoredRun {
    id: String,
    kind: Known<MethodKind>,
    error: Option<String>,
    weights: Vec<f64>,
    posterior: Option<StoredPosterior>,
    predictives: Vec<StoredPredictive>,
    noise: Option<f64>,
    mc_samples: Option<usize>,
    quadrature_nodes: Option<usize>,
    prior_precision: Option<f64>,
}

#[derive(Deserialize)]
struct StoredPosterior {
    mean: Vec<f64>,
    cov: Option<Vec<Vec<f64>>>,
    precision_factor: Option<Vec<Vec<f64>>>,
}

#[derive(Deserialize)]
struct StoredPredictive {
    name: Known<PredictiveKind>,
}

/// One scored predictive: `<run>/<predictive>` and p(y = 1) of every row.
pub struct ScoredColumn {
    pub name: String,
    pub p: Vec<f64>,
}

/// The new table's predictions, and the runs left out with the reason.
pub struct Scored {
    pub rows: usize,
    pub columns: Vec<ScoredColumn>,
    pub skipped: Vec<String>,
}

impl Scored {
    /// `row,<run>/<predictive>,...`: row is the 0-based data row of the scored file.
    pub fn csv(&self) -> String {
        let mut out = String::from("row");
        for c in &self.columns {
            let _ = write!(out, ",{}", c.name);
        }
        out.push('\n');
        for i in 0..self.rows {
            let _ = write!(out, "{i}");
            for c in &self.columns {
                let _ = write!(out, ",{}", c.p[i]);
            }
            out.push('\n');
        }
        out
    }
}

/// Score every row of `data` with every run of the run directory `run_dir`.
pub fn score(run_dir: &Path, data: &Path) -> Result<Scored> {
    let results = run_dir.join("results.json");
    let text = std::fs::read_to_string(&results).map_err(|e| {
        Error::data(
            &results,
            format!("cannot read it ({e}): RUN_DIR must be a directory written by `bayeslab run`"),
        )
    })?;
    let stored: Stored = serde_json::from_str(&text).map_err(|e| {
        Error::data(
            &results,
            format!("is not a run's results.json ({e}); a sweep's point or a lab has no runs to score: pass one run directory written by `bayeslab run`"),
        )
    })?;
    let d = &stored.dataset;
    let (Some(prep), Some(scaling)) = (&d.preparation, &d.standardisation) else {
        return Err(Error::data(
            &results,
            "the run's record has no stored preparation: it used a feature map (not stored), or was written by an older bayeslab; run the experiment again with this version",
        ));
    };
    let x = bayeslab_data::prepare_new(data, prep, scaling, &d.columns)?;
    let mut out = Scored {
        rows: x.nrows(),
        columns: Vec::new(),
        skipped: Vec::new(),
    };
    // Made once, when the first run needs fitting again; its error skips every such run.
    let mut refitter: Option<std::result::Result<Refitter, String>> = None;
    for run in &stored.runs {
        if let Some(e) = &run.error {
            out.skipped
                .push(format!("run \"{}\" failed in the experiment ({e})", run.id));
            continue;
        }
        let kind = match &run.kind {
            Known::Known(kind) => *kind,
            Known::Unknown(name) => {
                out.skipped
                    .push(format!("run \"{}\": unknown kind \"{name}\"", run.id));
                continue;
            }
        };
        let fit = StoredFit {
            kind,
            noise: run.noise.unwrap_or(1.0),
            weights: &run.weights,
            mean: run.posterior.as_ref().map(|p| &p.mean[..]),
            precision_factor: run
                .posterior
                .as_ref()
                .and_then(|p| p.precision_factor.as_deref()),
            cov: run.posterior.as_ref().and_then(|p| p.cov.as_deref()),
        };
        let predictor = match predictor(&fit) {
            Ok(p) => p,
            Err(_) => {
                let r = refitter.get_or_insert_with(|| {
                    let file = Path::new(&stored.experiment.file);
                    let p = &stored.provenance;
                    Refitter::new(&p.config, file, &p.data_sha256, &results)
                        .map_err(|e| e.to_string())
                });
                let fitted = r.as_ref().map_err(String::clone).and_then(|r| {
                    r.predictor(&run.id, run.prior_precision)
                        .map_err(|e| e.to_string())
                });
                match fitted {
                    Ok(p) => p,
                    Err(e) => {
                        out.skipped
                            .push(format!("run \"{}\" ({kind}): {e}", run.id));
                        continue;
                    }
                }
            }
        };
        for p in &run.predictives {
            let &Known::Known(kind) = &p.name else {
                continue;
            };
            let settings = PredictiveSettings {
                mc_samples: run.mc_samples.unwrap_or(0),
                quadrature_nodes: run.quadrature_nodes.unwrap_or(0),
                first_row: 0,
            };
            // The run's own stream for this predictive (run/predict.rs).
            let mut stream = rng::stream(stored.experiment.seed, &format!("{}/{}", run.id, kind));
            let name = format!("{}/{}", run.id, kind);
            match predictor.predict(kind, x.as_ref(), settings, &mut stream) {
                Probabilities::Binary(p) => out.columns.push(ScoredColumn { name, p }),
                Probabilities::Classes(rows) => {
                    out.columns.extend(class_columns(&name, &rows, &d.classes))
                }
            }
        }
    }
    if out.columns.is_empty() {
        return Err(Error::data(
            &results,
            format!(
                "no run of this directory can be scored: {}",
                out.skipped.join("; ")
            ),
        ));
    }
    Ok(out)
}

/// A predictive's class probabilities as columns: p(y = 1) under `name` for two classes (as
/// predictions.csv has it), else one column per class, `name[class]`.
fn class_columns(name: &str, rows: &[Vec<f64>], classes: &[String]) -> Vec<ScoredColumn> {
    if classes.len() <= 2 {
        return vec![ScoredColumn {
            name: name.to_string(),
            p: rows.iter().map(|r| r[1]).collect(),
        }];
    }
    classes
        .iter()
        .enumerate()
        .map(|(k, class)| ScoredColumn {
            name: format!("{name}[{class}]"),
            p: rows.iter().map(|r| r[k]).collect(),
        })
        .collect()
}
