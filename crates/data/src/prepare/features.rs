//! Feature maps applied after standardisation and before the intercept column (`[features]`):
//! polynomial monomials of total degree 1..=d (all interactions), or Gaussian radial basis
//! functions exp(-||x - c||^2 / (2 s^2)) around centres on a grid or at k seeded training rows.

mod centres;
mod fitted;
mod monomials;
mod width;

pub use centres::sampled_rows;
pub use fitted::{FittedMap, TrainingRows};
pub use width::{check_names, check_width, mapped_width};

use faer::{Mat, MatRef};

use crate::plan::FeatureMap;

/// The mapped train and test designs and the new column names.
pub struct Mapped {
    pub train: Mat<f64>,
    pub test: Mat<f64>,
    pub names: Vec<String>,
}

/// Apply `map` to standardised designs (no intercept). Errors name the `[features]` key to change.
pub fn apply(
    map: &FeatureMap,
    train: MatRef<'_, f64>,
    test: MatRef<'_, f64>,
    names: &[String],
    seed: u64,
) -> Result<Mapped, String> {
    let d = train.ncols();
    check_width(map, d, train.nrows().max(test.nrows()))?;
    let fitted = FittedMap::fit(map, d, names, TrainingRows::Matrix(train), seed);
    Ok(Mapped {
        train: fitted.evaluate(train),
        test: fitted.evaluate(test),
        names: fitted.names,
    })
}

#[cfg(test)]
mod tests;
