//! Dense linear algebra on faer: one Cholesky factor per symmetric positive-definite
//! matrix, then triangular solves. Nothing here forms an explicit inverse.

use faer::linalg::solvers::Llt;
use faer::prelude::Solve;
use faer::{Mat, MatRef, Side};
use rand::Rng;
use rand_distr::{Distribution, StandardNormal};

use crate::error::NumericError;

/// Rows per block when a routine must materialise a transposed slice of X.
const BLOCK_ROWS: usize = 4096;

/// The Cholesky factor H = L L^T of a symmetric positive-definite matrix.
#[derive(Debug, Clone)]
pub struct Cholesky {
    llt: Llt<f64>,
}

impl Cholesky {
    /// Factor `h` (only its lower triangle is read). `what` names the matrix in the error,
    /// e.g. "Hessian of logistic-laplace".
    pub fn factor(h: MatRef<'_, f64>, what: &str) -> Result<Self, NumericError> {
        if h.nrows() > 0 && (0..h.nrows()).any(|i| !(0..=i).all(|j| h[(i, j)].is_finite())) {
            return Err(NumericError::NonFinite(format!(
                "the {what} has non-finite entries"
            )));
        }
        match h.llt(Side::Lower) {
            Ok(llt) => Ok(Cholesky { llt }),
            Err(faer::linalg::cholesky::llt::factor::LltError::NonPositivePivot { index }) => {
                Err(NumericError::NotPositiveDefinite {
                    what: what.to_string(),
                    pivot: index,
                })
            }
        }
    }

    pub fn dim(&self) -> usize {
        self.llt.L().nrows()
    }

    /// The lower-triangular factor L.
    pub fn lower(&self) -> MatRef<'_, f64> {
        self.llt.L()
    }

    /// ln det H = 2 sum_i ln L_ii.
    pub fn log_det(&self) -> f64 {
        let l = self.llt.L();
        2.0 * (0..l.nrows()).map(|i| l[(i, i)].ln()).sum::<f64>()
    }

    /// Solve H x = b.
    pub fn solve(&self, b: &[f64]) -> Vec<f64> {
        let rhs = faer::Col::<f64>::from_fn(b.len(), |i| b[i]);
        let x = self.llt.solve(&rhs);
        (0..x.nrows()).map(|i| x[i]).collect()
    }

    /// diag(H^{-1}): (H^{-1})_ii = sum_k (L^{-1})_{ki}^2, from one triangular solve with I.
    pub fn inverse_diag(&self) -> Vec<f64> {
        let n = self.dim();
        let mut linv = Mat::<f64>::identity(n, n);
        self.llt.L().solve_lower_triangular_in_place(&mut linv);
        (0..n)
            .map(|i| (0..n).map(|k| linv[(k, i)].powi(2)).sum())
            .collect()
    }

    /// The full inverse H^{-1} (for small problems and tests only).
    pub fn inverse(&self) -> Mat<f64> {
        let n = self.dim();
        self.llt.solve(Mat::<f64>::identity(n, n))
    }

    /// For every row x_n of X: x_n^T H^{-1} x_n = ||L^{-1} x_n||^2, computed in row blocks
    /// so that X H^{-1} X^T is never formed.
    pub fn inverse_quad_forms(&self, x: MatRef<'_, f64>) -> Vec<f64> {
        use faer::linalg::matmul::triangular::{matmul, BlockStructure};
        use rayon::prelude::*;
        let (n, d) = (x.nrows(), x.ncols());
        assert_eq!(
            d,
            self.dim(),
            "design matrix and factor disagree in dimension"
        );
        // L^{-1} once (d^3 / 3), then per block of rows Z = X_b L^{-T}, a product with a
        // triangular matrix, so the rows' solves run at matrix-product speed; row r of Z is
        // L^{-1} x_r. Blocks run in parallel; each row's sum is taken in column order.
        let mut linv_t = Mat::<f64>::identity(d, d);
        self.llt.L().solve_lower_triangular_in_place(&mut linv_t);
        let linv_t = linv_t.transpose().to_owned();
        let starts: Vec<usize> = (0..n).step_by(BLOCK_ROWS).collect();
        let parts: Vec<Vec<f64>> = starts
            .par_iter()
            .map(|&start| {
                let rows = BLOCK_ROWS.min(n - start);
                let mut z = Mat::<f64>::zeros(rows, d);
                matmul(
                    z.as_mut(),
                    BlockStructure::Rectangular,
                    faer::Accum::Replace,
                    x.subrows(start, rows),
                    BlockStructure::Rectangular,
                    linv_t.as_ref(),
                    BlockStructure::TriangularUpper,
                    1.0,
                    faer::Par::Seq,
                );
                let mut out = vec![0.0; rows];
                for j in 0..d {
                    for (o, &v) in out.iter_mut().zip(z.col(j).iter()) {
                        *o += v * v;
                    }
                }
                out
            })
            .collect();
        parts.concat()
    }

    /// One draw from N(mean, H^{-1}): w = mean + L^{-T} z with z ~ N(0, I), since
    /// Cov(L^{-T} z) = (L L^T)^{-1}.
    pub fn sample_inverse<R: Rng + ?Sized>(&self, mean: &[f64], rng: &mut R) -> Vec<f64> {
        let d = self.dim();
        let mut z = Mat::<f64>::from_fn(d, 1, |_, _| StandardNormal.sample(rng));
        self.llt
            .L()
            .transpose()
            .solve_upper_triangular_in_place(&mut z);
        (0..d).map(|i| mean[i] + z[(i, 0)]).collect()
    }
}

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

/// X^T diag(s) X for non-negative weights s (the Gauss-Newton/Fisher form of a GLM Hessian),
/// in row blocks without copying X (numeric/glm.rs).
pub fn weighted_gram(x: MatRef<'_, f64>, s: &[f64]) -> Mat<f64> {
    debug_assert!(s.iter().all(|v| *v >= 0.0));
    super::glm::weighted_gram(x, s)
}

/// X w as a vector.
pub fn mat_vec(x: MatRef<'_, f64>, w: &[f64]) -> Vec<f64> {
    let wc = faer::Col::<f64>::from_fn(w.len(), |i| w[i]);
    let a = x * &wc;
    (0..a.nrows()).map(|i| a[i]).collect()
}

/// X w into `a` on the calling thread, 128 rows at a time (faer's product would use the global
/// pool), for callers that are themselves the parallel unit, such as a Gibbs chain.
pub fn mat_vec_sequential(x: &Mat<f64>, w: &[f64], a: &mut [f64]) {
    assert_eq!(x.nrows(), a.len(), "one activation per row");
    assert_eq!(x.ncols(), w.len(), "one weight per column");
    let mut start = 0;
    while start < a.len() {
        let rows = 128.min(a.len() - start);
        block_mat_vec(x, w, start, &mut a[start..start + rows]);
        start += rows;
    }
}

/// a = X[start .. start + a.len(), :] w, column by column (contiguous in faer's layout).
pub(crate) fn block_mat_vec(x: &Mat<f64>, w: &[f64], start: usize, a: &mut [f64]) {
    a.fill(0.0);
    for (j, &wj) in w.iter().enumerate() {
        let col = &x.col_as_slice(j)[start..start + a.len()];
        for (ai, &xij) in a.iter_mut().zip(col) {
            *ai += xij * wj;
        }
    }
}

/// X^T r as a vector.
pub fn mat_t_vec(x: MatRef<'_, f64>, r: &[f64]) -> Vec<f64> {
    let rc = faer::Col::<f64>::from_fn(r.len(), |i| r[i]);
    let g = x.transpose() * &rc;
    (0..g.nrows()).map(|i| g[i]).collect()
}

pub fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

pub fn norm2(a: &[f64]) -> f64 {
    dot(a, a).sqrt()
}

#[cfg(test)]
mod tests;
