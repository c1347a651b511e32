//! Plug-in Gaussian classifiers: maximum-likelihood class means and covariances (divided by
//! n), one pooled covariance for `lda` (a linear boundary) or one per class for `qda` (a
//! quadratic one). No prior: a class with fewer rows than features has a singular covariance,
//! which is reported rather than patched.

use faer::{Mat, MatRef};

use super::{rows_by_class, ClassDensity};
use crate::error::NumericError;
use crate::numeric::linalg::{gram_dependent_column, Cholesky, COLLINEAR_TOL};
use crate::numeric::special::LN_SQRT_2PI;

pub struct PluginGaussians {
    means: Vec<Vec<f64>>,
    covs: Vec<Cholesky>,
}

pub fn fit(
    x: MatRef<'_, f64>,
    y: &[f64],
    k: usize,
    pooled: bool,
    names: &[String],
    run: &str,
) -> Result<PluginGaussians, NumericError> {
    let d = x.ncols();
    let groups = rows_by_class(y, k);
    let means: Vec<Vec<f64>> = groups
        .iter()
        .map(|rows| {
            (0..d)
                .map(|j| rows.iter().map(|&i| x[(i, j)]).sum::<f64>() / rows.len().max(1) as f64)
                .collect()
        })
        .collect();
    let scatter = |c: usize| {
        Mat::<f64>::from_fn(d, d, |a, b| {
            groups[c]
                .iter()
                .map(|&i| (x[(i, a)] - means[c][a]) * (x[(i, b)] - means[c][b]))
                .sum::<f64>()
        })
    };
    let singular = |c: String| {
        move |e: NumericError| {
            match e {
            NumericError::NotPositiveDefinite { pivot, .. } => NumericError::NonFinite(format!(
                "{run}: the maximum-likelihood covariance {c} is singular (pivot {pivot}): fewer rows than features \
                 or a constant feature; use kind = \"gaussian-generative\", whose prior keeps it positive definite"
            )),
            other => other,
        }
        }
    };
    let covs = if pooled {
        let n = y.len() as f64;
        let mut s = Mat::<f64>::zeros(d, d);
        for c in 0..k {
            s += scatter(c);
        }
        let s = Mat::<f64>::from_fn(d, d, |a, b| s[(a, b)] / n);
        full_rank(s.as_ref(), names, run, "pooled over the classes")?;
        let chol = Cholesky::factor(s.as_ref(), "pooled covariance")
            .map_err(singular("pooled over the classes".into()))?;
        vec![chol; k]
    } else {
        (0..k)
            .map(|c| {
                let n = groups[c].len().max(1) as f64;
                let s = scatter(c);
                let s = Mat::<f64>::from_fn(d, d, |a, b| s[(a, b)] / n);
                let rows = groups[c].len();
                let which = match rows <= d {
                    true => format!("of class {c} (only {rows} training rows for {d} features)"),
                    false => format!("of class {c}"),
                };
                full_rank(s.as_ref(), names, run, &which)?;
                Cholesky::factor(s.as_ref(), "class covariance")
                    .map_err(singular(format!("of class {c}")))
            })
            .collect::<Result<Vec<_>, _>>()?
    };
    Ok(PluginGaussians { means, covs })
}

/// Refuse a covariance `s` of rank below its size. A Cholesky factorisation succeeds on an
/// exactly singular matrix whenever rounding leaves its last pivot a hair above zero, and the
/// classifier then divides by that rounding: so the rank is judged as the design's collinearity
/// is, by pivots relative to each feature's variance ([`gram_dependent_column`] at
/// [`COLLINEAR_TOL`]). `which` says which covariance ("pooled over the classes", "of class 1").
fn full_rank(
    s: MatRef<'_, f64>,
    names: &[String],
    run: &str,
    which: &str,
) -> Result<(), NumericError> {
    let Some(j) = gram_dependent_column(s, COLLINEAR_TOL) else {
        return Ok(());
    };
    let name = |j: usize| {
        names
            .get(j)
            .map_or_else(|| format!("#{}", j + 1), |n| format!("\"{n}\""))
    };
    let scale = (0..s.ncols()).map(|i| s[(i, i)].abs()).fold(0.0, f64::max);
    let why = if s[(j, j)] <= COLLINEAR_TOL * scale {
        format!("feature {} is constant within the classes", name(j))
    } else {
        let before: Vec<String> = (0..j).map(name).collect();
        format!(
            "feature {} is, within the classes, a linear combination of {} (relative pivot below {COLLINEAR_TOL:e})",
            name(j),
            before.join(", ")
        )
    };
    Err(NumericError::NonFinite(format!(
        "{run}: the maximum-likelihood covariance {which} is singular: {why}, so the class densities \
         are degenerate and every prediction would be 0 or 1. Drop feature {} from [data] features, or use \
         kind = \"gaussian-generative\", whose prior keeps the covariance positive definite",
        name(j)
    )))
}

impl ClassDensity for PluginGaussians {
    /// ln N(x | m_c, S_c) = -D ln sqrt(2 pi) - ln det S_c / 2 - (x - m_c)^T S_c^{-1} (x - m_c) / 2.
    fn log_densities(&self, x: MatRef<'_, f64>) -> Vec<Vec<f64>> {
        let d = x.ncols() as f64;
        let per_class: Vec<Vec<f64>> = self
            .means
            .iter()
            .zip(&self.covs)
            .map(|(m, s)| {
                let centred = Mat::<f64>::from_fn(x.nrows(), x.ncols(), |i, j| x[(i, j)] - m[j]);
                let c = -d * LN_SQRT_2PI - 0.5 * s.log_det();
                s.inverse_quad_forms(centred.as_ref())
                    .iter()
                    .map(|q| c - 0.5 * q)
                    .collect()
            })
            .collect();
        (0..x.nrows())
            .map(|n| per_class.iter().map(|c| c[n]).collect())
            .collect()
    }
}
