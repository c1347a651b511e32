//! A feature map fitted on the training rows, ready to map any block of rows.

use faer::{Mat, MatRef};

use super::centres::{centre_points, grid_centres};
use super::monomials::{monomial_name, monomials};
use crate::plan::{Centres, FeatureMap};

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
