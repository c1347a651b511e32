//! How wide a feature map makes the design, and the refusals before it is made: too many
//! columns for the memory budget, or a mapped name that clashes with a feature.

use super::monomials::{monomial_name, monomials};
use crate::plan::{Centres, FeatureMap};
use crate::INTERCEPT;

/// The largest matrix a feature map may make the methods form, in bytes: the design
/// (rows x columns) and the columns x columns Hessian / covariance of a Gaussian posterior.
pub const MEMORY_BUDGET_BYTES: usize = crate::plan::MEMORY_BUDGET_BYTES as usize;

/// The number of columns the map produces, or None when it exceeds `limit`.
fn width_within(map: &FeatureMap, d: usize, limit: usize) -> Option<usize> {
    match map {
        FeatureMap::Identity => Some(d),
        FeatureMap::Poly { degree } => monomials(d, *degree, limit).map(|m| m.len()),
        FeatureMap::Rbf { centres, .. } => match centres {
            Centres::Sample { k } => Some(*k).filter(|k| *k <= limit),
            Centres::Grid { points } => {
                let mut n: usize = 1;
                for _ in 0..d {
                    n = n.checked_mul(*points).filter(|n| *n <= limit)?;
                }
                Some(n)
            }
        },
    }
}

/// The width check of [`apply`]: the message naming the key to lower when `map` on `d`
/// features would make a design of `rows` rows (or a columns x columns covariance) larger than
/// [`MEMORY_BUDGET_BYTES`].
pub fn check_width(map: &FeatureMap, d: usize, rows: usize) -> Result<(), String> {
    if let FeatureMap::Identity = map {
        return check_design_width(d);
    }
    let rows = rows.max(1);
    let limit = (MEMORY_BUDGET_BYTES / 8 / rows).min(MAX_DESIGN_COLUMNS);
    if width_within(map, d, limit).is_some() {
        return Ok(());
    }
    let key = match map {
        FeatureMap::Poly { .. } => "lower [features] degree",
        FeatureMap::Rbf {
            centres: Centres::Grid { .. },
            ..
        } => "lower [features] grid_points or use centres = \"sample\" with k",
        _ => "lower [features] k",
    };
    Err(format!(
        "[features] map = \"{}\" on {d} features would make more than {limit} columns: the design ({rows} rows) \
         or the columns x columns posterior covariance would exceed the memory budget of {} MiB; {key}, or select fewer [data] features",
        map.name(),
        MEMORY_BUDGET_BYTES >> 20
    ))
}

/// The widest design (config's bound, which the count keys are checked against).
pub const MAX_DESIGN_COLUMNS: usize = crate::plan::MAX_DESIGN_COLUMNS as usize;

/// Refuse a design of `d` columns (before any map: raw numeric columns and categorical
/// indicators) wider than [`MAX_DESIGN_COLUMNS`], before any matrix of that width is made.
fn check_design_width(d: usize) -> Result<(), String> {
    if d <= MAX_DESIGN_COLUMNS {
        return Ok(());
    }
    Err(format!(
        "the design would have {d} columns, more than the {MAX_DESIGN_COLUMNS} whose columns x columns Hessian and \
         posterior covariance fit the memory budget of {} MiB (a fit holds several at once); list fewer columns in \
         [data] features, or lower [data] max_levels so that a categorical column with many levels is refused \
         rather than expanded",
        MEMORY_BUDGET_BYTES >> 20
    ))
}

/// Refuse a design with two columns of one name, which the methods would fit as two weights
/// that results.json and the reports cannot tell apart: a data column named "intercept" beside
/// the intercept column, or (`map = "poly"`) a data column named like a product or power of
/// the others ("a*b", "a^2"). RBF columns are named rbf0, rbf1, ... and replace the features.
pub fn check_names(map: &FeatureMap, names: &[String], intercept: bool) -> Result<(), String> {
    let mapped: Vec<String> = match map {
        FeatureMap::Identity => names.to_vec(),
        // wider maps are refused by check_width
        FeatureMap::Poly { degree } => match monomials(names.len(), *degree, 1 << 20) {
            Some(m) => m.iter().map(|m| monomial_name(m, names)).collect(),
            None => return Ok(()),
        },
        FeatureMap::Rbf { .. } => return Ok(()),
    };
    if intercept && names.iter().any(|n| n == INTERCEPT) {
        return Err(format!(
            "data column \"{INTERCEPT}\" would be a second design column named \"{INTERCEPT}\" beside the one \
             [data] intercept = true adds: rename the column in the data file, leave it out of [data] features, \
             or (if it is a column of ones) set [data] intercept = false"
        ));
    }
    let mut seen = std::collections::HashSet::new();
    let mut seen_raw = std::collections::HashSet::new();
    if let Some(n) = names.iter().find(|n| !seen_raw.insert(n.as_str())) {
        // Before any map: a categorical level and an indicator (or a data column) share a name.
        return Err(format!(
            "two design columns would be named \"{n}\": a categorical column's level indicator \
             (column=level), a missing-value indicator (column=missing) or a data column of that name \
             meet; rename the level or the column in the data file, or set [data] missing_indicator = false"
        ));
    }
    match mapped.iter().find(|n| !seen.insert(n.as_str())) {
        Some(n) => Err(format!(
            "two design columns would be named \"{n}\": [features] map = \"{}\" names a product or power of the \
             features that way, and a feature column has that name; rename the column \"{n}\" in the data file \
             or leave it out of [data] features",
            map.name()
        )),
        None => Ok(()),
    }
}

/// The number of columns `map` makes from `d` features (after [`check_width`] has passed).
pub fn mapped_width(map: &FeatureMap, d: usize) -> usize {
    width_within(map, d, usize::MAX).unwrap_or(usize::MAX)
}
