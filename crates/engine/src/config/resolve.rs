//! The resolved experiment: a plan written back as TOML with every default filled in, so a
//! report records exactly what ran (and can be run again as it stands).

use std::path::Path;

use super::encoding::{Unseen, DEFAULT_MAX_LEVELS};
use super::plan::{Centres, DataSource, FeatureMap, MethodPlan, Optimizer, Plan, Split};
use super::raw::{
    Label, Level, RawData, RawEvaluation, RawExperiment, RawFeatures, RawMethod, RawPrecision,
    RawPrior, RawSplit,
};

/// A method with its defaults written out: only the keys its kind uses, so the result
/// validates again.
fn raw_method(m: &MethodPlan) -> RawMethod {
    let set = |key: &str| m.kind.accepts(key);
    let mut raw = RawMethod {
        kind: m.kind.name().into(),
        id: Some(m.id.clone()),
        predictive: Some(m.predictives.iter().map(|p| p.name().to_string()).collect()),
        optimizer: set("optimizer").then(|| m.optimizer.name().into()),
        learning_rate: match m.optimizer {
            Optimizer::Gradient { learning_rate } if set("learning_rate") => Some(learning_rate),
            _ => None,
        },
        max_iter: set("max_iter").then_some(m.max_iter as u64),
        tolerance: set("tolerance").then_some(m.tolerance),
        mc_samples: set("mc_samples").then_some(m.mc_samples as u64),
        quadrature_nodes: set("quadrature_nodes").then_some(m.quadrature_nodes as u64),
        noise: None,
        damping: None,
        mean_field: None,
        reference_class: None,
        shared_covariance: None,
        class_prior: None,
        mu0: None,
        kappa0: None,
        alpha0: None,
        beta0: None,
        nu0: None,
        psi0: None,
        a: None,
        b: None,
        binarize: None,
        chains: None,
        draws: None,
        burn_in: None,
        thin: None,
    };
    super::method_options::write_raw(&m.options, m.kind, &mut raw);
    raw
}

fn raw_features(map: &FeatureMap) -> Option<RawFeatures> {
    let mut raw = RawFeatures::default();
    match map {
        FeatureMap::Identity => return None,
        FeatureMap::Poly { degree } => {
            raw.map = Some("poly".into());
            raw.degree = Some(*degree as u64);
        }
        FeatureMap::Rbf { centres, width } => {
            raw.map = Some("rbf".into());
            raw.width = Some(*width);
            match centres {
                Centres::Grid { points } => {
                    raw.centres = Some("grid".into());
                    raw.grid_points = Some(*points as u64);
                }
                Centres::Sample { k } => {
                    raw.centres = Some("sample".into());
                    raw.k = Some(*k as u64);
                }
            }
        }
    }
    Some(raw)
}

/// A path as written relative to the experiment file's folder.
fn relative(plan: &Plan, path: &Path) -> String {
    let dir = plan.file.parent().unwrap_or(Path::new(""));
    path.strip_prefix(dir).unwrap_or(path).display().to_string()
}

impl Plan {
    /// The plan as a serde mirror with no `None` left where a default exists.
    pub fn to_raw(&self) -> RawExperiment {
        let data = self.data.as_ref().map(|d| self.raw_data(d));
        RawExperiment {
            name: Some(self.name.clone()),
            description: self.description.clone(),
            seed: Some(self.seed),
            baseline: self.baseline.as_ref().map(|b| relative(self, b)),
            data,
            prior: RawPrior {
                precision: Some(if self.prior.evidence {
                    RawPrecision::Named("evidence".into())
                } else {
                    RawPrecision::Value(self.prior.precision)
                }),
            },
            evaluation: RawEvaluation {
                calibration_bins: Some(self.evaluation.calibration_bins as u64),
                calibration_binning: Some(self.evaluation.binning.name().into()),
                resamples: Some(self.evaluation.resamples as u64),
                khat_draws: self.evaluation.khat_draws.map(|k| k as u64),
                evidence_draws: self.evaluation.evidence_draws.map(|k| k as u64),
                loo_draws: self.evaluation.loo_draws.map(|k| k as u64),
                loo_refits: Some(self.evaluation.loo_refits as u64),
                export_draws: self.evaluation.export_draws.then_some(true),
                record_steps: self.evaluation.record_steps.then_some(true),
            },
            features: self
                .data
                .as_ref()
                .and_then(|d| raw_features(&d.feature_map)),
            methods: self.methods.iter().map(raw_method).collect(),
            posteriors: self
                .posteriors
                .iter()
                .map(|p| p.to_raw(&|path| relative(self, path)))
                .collect(),
        }
    }

    fn raw_data(&self, d: &super::plan::DataPlan) -> RawData {
        let e = &d.encoding;
        let (path, train, test, split) = match &d.source {
            DataSource::Single { path, split } => {
                let split = match *split {
                    Split::Every { every, offset } => RawSplit {
                        every: Some(every as u64),
                        offset: Some(offset as u64),
                        ..RawSplit::default()
                    },
                    Split::Fraction {
                        test_fraction,
                        seed,
                    } => RawSplit {
                        test_fraction: Some(test_fraction),
                        seed: Some(seed),
                        ..RawSplit::default()
                    },
                    Split::Hash {
                        test_fraction,
                        seed,
                    } => RawSplit {
                        test_fraction: Some(test_fraction),
                        seed: Some(seed),
                        draw: Some("hash".into()),
                        ..RawSplit::default()
                    },
                    Split::Folds(f) => super::folds::to_raw(f),
                };
                (Some(relative(self, path)), None, None, Some(split))
            }
            DataSource::TrainTest { train, test } => (
                None,
                Some(relative(self, train)),
                Some(relative(self, test)),
                None,
            ),
        };
        RawData {
            path,
            train,
            test,
            target: d.target.clone(),
            id: d.id.clone(),
            features: d.features.clone(),
            positive: d.positive.clone().map(Label::Text),
            standardize: Some(d.standardize),
            intercept: Some(d.intercept),
            missing: Some(d.missing.name().into()),
            split,
            streaming: d.streaming.map(|_| true),
            chunk_rows: d.streaming.map(|s| s.chunk_rows as u64),
            max_memory: d
                .streaming
                .and_then(|s| s.max_memory)
                .map(|b| format!("{b}B")),
            cache: d.streaming.and_then(|s| (!s.cache).then_some(false)),
            separator: (d.separator != b',').then(|| (d.separator as char).to_string()),
            categorical: (!e.categorical.is_empty()).then(|| e.categorical.clone()),
            reference: (!e.reference.is_empty()).then(|| {
                e.reference
                    .iter()
                    .map(|(k, v)| (k.clone(), Level::Text(v.clone())))
                    .collect()
            }),
            max_levels: (e.max_levels != DEFAULT_MAX_LEVELS).then_some(e.max_levels as u64),
            unseen_levels: (e.unseen != Unseen::Error).then(|| e.unseen.name().into()),
            missing_indicator: e.missing_indicator.then_some(true),
            standardise_indicators: e.standardise_indicators.then_some(true),
        }
    }

    /// The resolved experiment as TOML text.
    pub fn resolved_toml(&self) -> String {
        toml::to_string(&self.to_raw()).expect("a plan always serialises to TOML")
    }
}

#[cfg(test)]
#[path = "resolve_tests.rs"]
mod tests;
