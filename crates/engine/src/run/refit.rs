//! `bayeslab predict` for the runs whose posterior results.json does not hold in full (a
//! sampler's draws, softmax's class blocks, a generative model's class posteriors): the run is
//! fitted again from the experiment its record stores (`provenance.config`, every default
//! filled in), on the same data (checked by the SHA-256 the record keeps) and with the same
//! seed, so the predictor is the run's own and its test rows get back its predictions.csv.

use std::collections::BTreeMap;
use std::path::Path;

use crate::config::Plan;
use bayeslab_core::error::{Error, Result};
use bayeslab_core::model::fit::{FitInput, Predictor};
use bayeslab_core::model::method::fit_matrix;
use bayeslab_data::Dataset;

/// The stored experiment and its training data, loaded once for every run refitted.
pub struct Refitter {
    plan: Plan,
    dataset: Dataset,
}

impl Refitter {
    /// The experiment `config` (its file `file`, to which its paths are relative), refused when
    /// a data file's digest is no longer `digests`' (the file changed since the run).
    pub fn new(
        config: &str,
        file: &Path,
        digests: &BTreeMap<String, String>,
        results: &Path,
    ) -> Result<Refitter> {
        for (path, digest) in digests {
            let now = super::provenance::sha256_file(Path::new(path)).map_err(|_| {
                Error::data(
                    results,
                    format!("the run's data file {path} cannot be read, so its sampler or class posterior cannot be fitted again to score new rows; run predict from the directory the experiment was run in (the record's paths are relative to it), or restore the file"),
                )
            })?;
            if &now != digest {
                return Err(Error::data(
                    results,
                    format!("the run's data file {path} has changed since the run (its SHA-256 differs), so fitting the run again would not give its posterior; restore the file or run the experiment again"),
                ));
            }
        }
        let plan = crate::config::parse(config, file)?;
        let data = plan
            .data
            .as_ref()
            .ok_or_else(|| Error::data(results, "the stored experiment has no [data] to fit on"))?;
        let dataset = bayeslab_data::load(data)?;
        Ok(Refitter { plan, dataset })
    }

    /// Run `id` fitted again at prior precision `precision` (the run's own, when it chose one).
    pub fn predictor(&self, id: &str, precision: Option<f64>) -> Result<Box<dyn Predictor>> {
        let method = self
            .plan
            .methods
            .iter()
            .find(|m| m.id == id)
            .ok_or_else(|| {
                Error::data(
                    &self.plan.file,
                    format!("the stored experiment has no method \"{id}\""),
                )
            })?;
        let train = &self.dataset.train;
        let fitted = fit_matrix(
            &FitInput {
                file: &self.plan.file,
                method,
                precision: precision.unwrap_or(self.plan.prior.precision),
                seed: self.plan.seed,
                x: train.x.as_ref(),
                y: &train.y,
                classes: self.dataset.classes.len(),
                intercept: self.dataset.columns.first().map(String::as_str)
                    == Some(bayeslab_data::INTERCEPT),
                columns: &self.dataset.columns,
                cancel: None,
                record_steps: false,
            },
            &mut super::Silent,
        )?;
        Ok(fitted.predictor)
    }
}
