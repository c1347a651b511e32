//! The lab's data: an inline list or one column of a file, checked against what the model
//! needs (counts >= 0 and whole, 0/1 outcomes, positive incomes), then cut to a subset.

use std::path::Path;

use crate::config::{PosteriorKind, PosteriorPlan, PosteriorSource, Subset};
use bayeslab_core::error::{Error, Result};

/// The observations of one posterior.
#[derive(Debug, Clone, PartialEq)]
pub enum Observations {
    /// Counts, 0/1 outcomes, incomes or locations, in file order.
    Values(Vec<f64>),
    Binomial {
        successes: u64,
        trials: u64,
    },
}

impl Observations {
    pub fn len(&self) -> usize {
        match self {
            Observations::Values(v) => v.len(),
            Observations::Binomial { trials, .. } => *trials as usize,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Load and check the data of `plan` (inline data was checked with the configuration).
pub fn load(plan: &PosteriorPlan) -> Result<Observations> {
    match &plan.source {
        PosteriorSource::Values(v) => Ok(Observations::Values(v.clone())),
        PosteriorSource::Binomial { successes, trials } => Ok(Observations::Binomial {
            successes: *successes,
            trials: *trials,
        }),
        PosteriorSource::Column { path, column } => {
            let values = bayeslab_data::read_column(path, column)?;
            check(path, column, &plan.kind, &values)?;
            for s in &plan.subsets {
                if let Subset::First(n) = s {
                    if *n > values.len() {
                        return Err(Error::data(
                            path,
                            format!(
                                "[[posterior]] id \"{}\": subset entry {n} exceeds the {} values of column \"{column}\"; \
                                 use a smaller size or \"all\"",
                                plan.id,
                                values.len()
                            ),
                        ));
                    }
                }
            }
            Ok(Observations::Values(values))
        }
    }
}

fn check(path: &Path, column: &str, kind: &PosteriorKind, values: &[f64]) -> Result<()> {
    let (ok, need): (fn(f64) -> bool, &str) = match kind {
        PosteriorKind::GammaPoisson { .. } => (
            |v| v >= 0.0 && v.fract() == 0.0,
            "Poisson counts must be whole numbers >= 0",
        ),
        PosteriorKind::BetaBinomial { .. } => (
            |v| v == 0.0 || v == 1.0,
            "beta-binomial outcomes must be 0 or 1",
        ),
        PosteriorKind::LognormalGini { .. } => (|v| v > 0.0, "log-normal incomes must be > 0"),
        PosteriorKind::MixtureLaplace { .. } => (|v| v.is_finite(), "values must be finite"),
    };
    if let Some((i, v)) = values.iter().enumerate().find(|(_, v)| !ok(**v)) {
        return Err(Error::data(
            path,
            format!(
                "column \"{column}\", data row {i} (line {}): {v} — {need}; fix the value or choose another column",
                i + 2
            ),
        ));
    }
    Ok(())
}

/// The first `n` observations (all of them for [`Subset::All`]).
pub fn subset(obs: &Observations, s: Subset) -> Observations {
    match (obs, s) {
        (Observations::Values(v), Subset::First(n)) => {
            Observations::Values(v[..n.min(v.len())].to_vec())
        }
        _ => obs.clone(),
    }
}
