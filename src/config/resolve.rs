//! The resolved experiment: a plan written back as TOML with every default filled in, so a
//! report records exactly what ran (and can be run again as it stands).

use std::path::Path;

use super::plan::{DataSource, Missing, Optimizer, Plan, Split};
use super::raw::{Label, RawData, RawEvaluation, RawExperiment, RawMethod, RawPrior, RawSplit};

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
                precision: Some(self.prior.precision),
            },
            evaluation: RawEvaluation {
                calibration_bins: Some(self.evaluation.calibration_bins as u64),
                calibration_binning: Some(self.evaluation.binning.name().into()),
                resamples: Some(self.evaluation.resamples as u64),
            },
            methods: self
                .methods
                .iter()
                .map(|m| RawMethod {
                    kind: m.kind.name().into(),
                    id: Some(m.id.clone()),
                    predictive: Some(m.predictives.iter().map(|p| p.name().to_string()).collect()),
                    optimizer: Some(m.optimizer.name().into()),
                    learning_rate: match m.optimizer {
                        Optimizer::Gradient { learning_rate } => Some(learning_rate),
                        Optimizer::Newton => None,
                    },
                    max_iter: Some(m.max_iter as u64),
                    tolerance: Some(m.tolerance),
                    mc_samples: Some(m.mc_samples as u64),
                    quadrature_nodes: Some(m.quadrature_nodes as u64),
                })
                .collect(),
            posteriors: self
                .posteriors
                .iter()
                .map(|p| p.to_raw(&|path| relative(self, path)))
                .collect(),
        }
    }

    fn raw_data(&self, d: &super::plan::DataPlan) -> RawData {
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
            features: d.features.clone(),
            positive: d.positive.clone().map(Label::Text),
            standardize: Some(d.standardize),
            intercept: Some(d.intercept),
            missing: Some(match d.missing {
                Missing::Error => "error".into(),
                Missing::Drop => "drop".into(),
            }),
            split,
        }
    }

    /// The resolved experiment as TOML text.
    pub fn resolved_toml(&self) -> String {
        toml::to_string(&self.to_raw()).expect("a plan always serialises to TOML")
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    #[test]
    fn the_resolved_toml_parses_back_to_the_same_plan() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        for name in [
            "quickstart",
            "breast_cancer",
            "spector",
            "lab_counts",
            "lab_incomes",
        ] {
            let file = root.join("experiments").join(format!("{name}.toml"));
            let plan = crate::config::load(&file).unwrap();
            let text = plan.resolved_toml();
            let again = crate::config::parse(&text, &file).unwrap();
            assert_eq!(plan, again, "{name}:\n{text}");
            assert!(
                text.contains("calibration_bins = 10") || text.contains("calibration_bins = 20")
            );
            assert_eq!(
                text.contains("[[posterior]]"),
                name.starts_with("lab_"),
                "{text}"
            );
        }
    }
}
