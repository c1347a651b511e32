//! Dense linear algebra on faer: one Cholesky factor per symmetric positive-definite
//! matrix, then triangular solves. Nothing here forms an explicit inverse.

use faer::{Mat, MatRef, Side};
use rand::Rng;
use rand_distr::{Distribution, StandardNormal};

use crate::error::NumericError;

mod collinearity;
mod products;
#[cfg(test)]
mod tests;

pub use collinearity::{dependent_column, gram_dependent_column, COLLINEAR_TOL};
pub(crate) use products::block_mat_vec;
pub use products::{dot, mat_t_vec, mat_vec, mat_vec_sequential, norm2, weighted_gram};

/// A `rows` x `cols` matrix with entry (i, j) = `f(i, j)`, for callers outside the numeric
/// layers (faer stays behind its doors: tests/it/layers.rs).
pub fn matrix(rows: usize, cols: usize, f: impl FnMut(usize, usize) -> f64) -> Mat<f64> {
    Mat::from_fn(rows, cols, f)
}

/// Rows per block when a routine must materialise a transposed slice of X.
const BLOCK_ROWS: usize = 4096;

/// The Cholesky factor H = L L^T of a symmetric positive-definite matrix, kept as L alone so
/// that a stored factor (results.json's `precision_factor`) rebuilds the very same posterior.
#[derive(Debug, Clone)]
pub struct Cholesky {
    l: Mat<f64>,
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
            Ok(llt) => Ok(Cholesky {
                l: llt.L().to_owned(),
            }),
            Err(faer::linalg::cholesky::llt::factor::LltError::NonPositivePivot { index }) => {
                Err(NumericError::NotPositiveDefinite {
                    what: what.to_string(),
                    pivot: index,
                })
            }
        }
    }

    /// The factor of a lower-triangular `l` with a positive diagonal (a stored L); only its
    /// lower triangle is read.
    pub fn from_lower(l: MatRef<'_, f64>) -> Result<Self, NumericError> {
        let n = l.nrows();
        if l.ncols() != n
            || (0..n).any(|i| !(l[(i, i)] > 0.0) || !(0..=i).all(|j| l[(i, j)].is_finite()))
        {
            return Err(NumericError::NonFinite(
                "a Cholesky factor needs a square lower triangle with a positive diagonal".into(),
            ));
        }
        Ok(Cholesky {
            l: Mat::from_fn(n, n, |i, j| if j <= i { l[(i, j)] } else { 0.0 }),
        })
    }

    pub fn dim(&self) -> usize {
        self.l.nrows()
    }

    /// The lower-triangular factor L.
    pub fn lower(&self) -> MatRef<'_, f64> {
        self.l.as_ref()
    }

    /// ln det H = 2 sum_i ln L_ii.
    pub fn log_det(&self) -> f64 {
        let l = self.l.as_ref();
        2.0 * (0..l.nrows()).map(|i| l[(i, i)].ln()).sum::<f64>()
    }

    /// Solve H x = b.
    pub fn solve(&self, b: &[f64]) -> Vec<f64> {
        let mut x = Mat::<f64>::from_fn(b.len(), 1, |i, _| b[i]);
        self.solve_in_place(&mut x);
        (0..x.nrows()).map(|i| x[(i, 0)]).collect()
    }

    /// diag(H^{-1}): (H^{-1})_ii = sum_k (L^{-1})_{ki}^2, from one triangular solve with I.
    pub fn inverse_diag(&self) -> Vec<f64> {
        let n = self.dim();
        let mut linv = Mat::<f64>::identity(n, n);
        self.l.solve_lower_triangular_in_place(&mut linv);
        (0..n)
            .map(|i| (0..n).map(|k| linv[(k, i)].powi(2)).sum())
            .collect()
    }

    /// The full inverse H^{-1} (for small problems and tests only).
    pub fn inverse(&self) -> Mat<f64> {
        let n = self.dim();
        let mut x = Mat::<f64>::identity(n, n);
        self.solve_in_place(&mut x);
        x
    }

    /// H X = B for every column of `b`, in place: L Y = B, then L^T X = Y.
    fn solve_in_place(&self, b: &mut Mat<f64>) {
        self.l.solve_lower_triangular_in_place(b.as_mut());
        self.l
            .transpose()
            .solve_upper_triangular_in_place(b.as_mut());
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
        self.l.solve_lower_triangular_in_place(&mut linv_t);
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
        self.l.transpose().solve_upper_triangular_in_place(&mut z);
        (0..d).map(|i| mean[i] + z[(i, 0)]).collect()
    }
}

/// A read-only view of a matrix of f64, for code outside the numeric core that only passes one
/// on (run/exact_pairs.rs).
pub type View<'a> = faer::MatRef<'a, f64>;

pub use crate::unchecked::{huge_pages, SharedColumns};
