//! Matrix-vector products, the weighted Gram matrix and the dot product: the plain
//! arithmetic around the factorisations.

use faer::{Mat, MatRef};

/// X^T diag(s) X for non-negative weights s (the Gauss-Newton/Fisher form of a GLM Hessian),
/// in row blocks without copying X (numeric/glm.rs).
pub fn weighted_gram(x: MatRef<'_, f64>, s: &[f64]) -> Mat<f64> {
    debug_assert!(s.iter().all(|v| *v >= 0.0));
    crate::numeric::glm::weighted_gram(x, s)
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
