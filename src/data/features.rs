//! Feature maps applied after standardisation and before the intercept column (`[features]`):
//! polynomial monomials of total degree 1..=d (all interactions), or Gaussian radial basis
//! functions exp(-||x - c||^2 / (2 s^2)) around centres on a grid or at k seeded training rows.

use faer::{Mat, MatRef};
use rand::seq::index::sample;

use super::INTERCEPT;
use crate::config::{Centres, FeatureMap};
use crate::numeric::rng;

/// The largest matrix a feature map may make the methods form, in bytes: the design
/// (rows x columns) and the columns x columns Hessian / covariance of a Gaussian posterior.
pub const MEMORY_BUDGET_BYTES: usize = 512 << 20;

/// The mapped train and test designs and the new column names.
pub struct Mapped {
    pub train: Mat<f64>,
    pub test: Mat<f64>,
    pub names: Vec<String>,
}

/// Monomials of total degree 1..=degree over `d` variables, each as its exponent list.
fn monomials(d: usize, degree: usize, limit: usize) -> Option<Vec<Vec<usize>>> {
    let mut out: Vec<Vec<usize>> = Vec::new();
    // Each monomial is a non-decreasing list of variable indices.
    let mut frontier: Vec<Vec<usize>> = (0..d).map(|j| vec![j]).collect();
    for _ in 0..degree {
        out.extend(frontier.iter().cloned());
        if out.len() > limit {
            return None;
        }
        let mut next = Vec::new();
        for m in &frontier {
            let last = *m.last().unwrap_or(&0);
            for j in last..d {
                let mut n = m.clone();
                n.push(j);
                next.push(n);
                if out.len() + next.len() > limit {
                    return None;
                }
            }
        }
        frontier = next;
    }
    Some(out)
}

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
    let rows = rows.max(1);
    let limit =
        (MEMORY_BUDGET_BYTES / 8 / rows).min(((MEMORY_BUDGET_BYTES / 8) as f64).sqrt() as usize);
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

/// A feature map with everything it learnt from the training rows (the RBF centres), ready
/// to map any block of rows: the in-memory loader maps the whole design, streaming each chunk.
#[derive(Debug, Clone)]
pub struct FittedMap {
    kind: Fitted,
    /// The mapped columns' names.
    pub names: Vec<String>,
}

#[derive(Debug, Clone)]
enum Fitted {
    Identity,
    Poly(Vec<Vec<usize>>),
    Rbf { centres: Vec<Vec<f64>>, width: f64 },
}

/// Where RBF centres come from: the standardised training design itself, or (streaming) each
/// feature's training range and the training rows at [`sampled_rows`].
pub enum TrainingRows<'a> {
    Matrix(MatRef<'a, f64>),
    Summary {
        ranges: &'a [(f64, f64)],
        sampled: Vec<Vec<f64>>,
    },
}

impl FittedMap {
    /// Fit `map` on `d` features named `names`.
    pub fn fit(
        map: &FeatureMap,
        d: usize,
        names: &[String],
        train: TrainingRows<'_>,
        seed: u64,
    ) -> Self {
        match map {
            FeatureMap::Identity => FittedMap {
                kind: Fitted::Identity,
                names: names.to_vec(),
            },
            FeatureMap::Poly { degree } => {
                let mons = monomials(d, *degree, usize::MAX).unwrap_or_default();
                FittedMap {
                    names: mons.iter().map(|m| monomial_name(m, names)).collect(),
                    kind: Fitted::Poly(mons),
                }
            }
            FeatureMap::Rbf { centres, width } => {
                let c = match (centres, train) {
                    (_, TrainingRows::Matrix(x)) => centre_points(centres, x, seed),
                    (Centres::Grid { points }, TrainingRows::Summary { ranges, .. }) => {
                        grid_centres(ranges, *points)
                    }
                    (Centres::Sample { .. }, TrainingRows::Summary { sampled, .. }) => sampled,
                };
                FittedMap {
                    names: (0..c.len()).map(|k| format!("rbf{k}")).collect(),
                    kind: Fitted::Rbf {
                        centres: c,
                        width: *width,
                    },
                }
            }
        }
    }

    pub fn is_identity(&self) -> bool {
        matches!(self.kind, Fitted::Identity)
    }

    /// [`FittedMap::evaluate`] of an owned design: the identity map hands it back uncopied.
    pub fn apply_owned(&self, x: Mat<f64>) -> Mat<f64> {
        match self.kind {
            Fitted::Identity => x,
            _ => self.evaluate(x.as_ref()),
        }
    }

    /// The mapped design of the rows of `x` (standardised features, no intercept).
    pub fn evaluate(&self, x: MatRef<'_, f64>) -> Mat<f64> {
        match &self.kind {
            Fitted::Identity => x.to_owned(),
            Fitted::Poly(mons) => Mat::from_fn(x.nrows(), mons.len(), |i, c| {
                mons[c].iter().map(|&j| x[(i, j)]).product()
            }),
            Fitted::Rbf { centres, width } => {
                let d = x.ncols();
                Mat::from_fn(x.nrows(), centres.len(), |i, k| {
                    let r2: f64 = (0..d).map(|j| (x[(i, j)] - centres[k][j]).powi(2)).sum();
                    (-r2 / (2.0 * width * width)).exp()
                })
            }
        }
    }
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

/// `x1*x2`, `x1^2*x3`, ...
fn monomial_name(m: &[usize], names: &[String]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < m.len() {
        let j = m[i];
        let power = m[i..].iter().take_while(|&&v| v == j).count();
        parts.push(if power == 1 {
            names[j].clone()
        } else {
            format!("{}^{power}", names[j])
        });
        i += power;
    }
    parts.join("*")
}

/// The training rows (0-based among the training rows) whose features become the RBF centres
/// under `centres = "sample"`: k distinct rows drawn from the experiment's seed, in draw order.
pub fn sampled_rows(n: usize, k: usize, seed: u64) -> Vec<usize> {
    sample(&mut rng::stream(seed, "features/rbf"), n, k.min(n)).into_vec()
}

/// Grid centres span each feature's training range with `points` values; sampled centres are
/// k distinct training rows drawn from the experiment's seed.
fn centre_points(centres: &Centres, train: MatRef<'_, f64>, seed: u64) -> Vec<Vec<f64>> {
    let d = train.ncols();
    match centres {
        Centres::Sample { k } => sampled_rows(train.nrows(), *k, seed)
            .into_iter()
            .map(|i| (0..d).map(|j| train[(i, j)]).collect())
            .collect(),
        Centres::Grid { points } => {
            let ranges: Vec<(f64, f64)> = (0..d)
                .map(|j| {
                    let col = (0..train.nrows()).map(|i| train[(i, j)]);
                    let lo = col.clone().fold(f64::INFINITY, f64::min);
                    let hi = col.fold(f64::NEG_INFINITY, f64::max);
                    (lo, hi)
                })
                .collect();
            grid_centres(&ranges, *points)
        }
    }
}

/// Every combination of `points` evenly spaced values over each feature's (min, max).
fn grid_centres(ranges: &[(f64, f64)], points: usize) -> Vec<Vec<f64>> {
    let d = ranges.len();
    let axes: Vec<Vec<f64>> = ranges
        .iter()
        .map(|&(lo, hi)| {
            (0..points)
                .map(|p| {
                    if points == 1 {
                        0.5 * (lo + hi)
                    } else {
                        lo + (hi - lo) * p as f64 / (points - 1) as f64
                    }
                })
                .collect()
        })
        .collect();
    let total = points.pow(d as u32);
    (0..total)
        .map(|mut idx| {
            (0..d)
                .map(|j| {
                    let v = axes[j][idx % points];
                    idx /= points;
                    v
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests;
