//! Whether a design column adds a new direction: a pivoted Cholesky of the column-normalised
//! Gram matrix, before a fit would meet a singular Hessian.

use faer::{Mat, MatRef};

use super::products::weighted_gram;

/// The pivot below which [`dependent_column`] calls a column a combination of the ones before
/// it, relative to the column's squared norm.
pub const COLLINEAR_TOL: f64 = 1e-10;

/// The first column of X that is (numerically) a linear combination of the columns before it,
/// by a Cholesky factorisation of the column-normalised Gram matrix with a relative pivot
/// threshold: a pivot below `tol` means the column adds no new direction.
pub fn dependent_column(x: MatRef<'_, f64>, tol: f64) -> Option<usize> {
    gram_dependent_column(weighted_gram(x, &vec![1.0; x.nrows()]).as_ref(), tol)
}

/// [`dependent_column`] from the Gram matrix X^T X, or any positive multiple of it (such as the
/// logistic Hessian at w = 0, X^T X / 4, which a streamed fit has without holding X).
pub fn gram_dependent_column(gram: MatRef<'_, f64>, tol: f64) -> Option<usize> {
    let d = gram.ncols();
    let norms: Vec<f64> = (0..d).map(|j| gram[(j, j)].max(0.0).sqrt()).collect();
    let mut g = gram.to_owned();
    for i in 0..d {
        for j in 0..d {
            let s = norms[i] * norms[j];
            g[(i, j)] = if s > 0.0 { g[(i, j)] / s } else { 0.0 };
        }
    }
    let mut l = Mat::<f64>::zeros(d, d);
    for j in 0..d {
        let pivot = g[(j, j)] - (0..j).map(|k| l[(j, k)].powi(2)).sum::<f64>();
        if pivot <= tol {
            return Some(j);
        }
        l[(j, j)] = pivot.sqrt();
        for i in j + 1..d {
            l[(i, j)] =
                (g[(i, j)] - (0..j).map(|k| l[(i, k)] * l[(j, k)]).sum::<f64>()) / l[(j, j)];
        }
    }
    None
}
