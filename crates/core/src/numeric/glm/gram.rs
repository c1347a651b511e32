//! X^T diag(s) X on its own, chunked and reduced as the GLM pass reduces its Hessian, for
//! the samplers and bounds that need the weighted Gram matrix without a loss.

use faer::linalg::matmul::triangular::{matmul, BlockStructure};
use faer::{Accum, Mat, MatRef, Par};
use rayon::prelude::*;

use super::chunks::{add_lower, chunk_rows, mirror_lower, BLOCK_ROWS};

/// X^T diag(s) X for non-negative `s`, chunked and reduced like [`accumulate`] (same bits on
/// any number of threads; X is never copied whole).
pub fn weighted_gram(x: MatRef<'_, f64>, s: &[f64]) -> Mat<f64> {
    gram(x, s, true)
}

/// [`weighted_gram`] on the calling thread only (the same bits): for callers that are
/// themselves one of several parallel workers, such as a Gibbs chain.
pub fn weighted_gram_sequential(x: MatRef<'_, f64>, s: &[f64]) -> Mat<f64> {
    gram(x, s, false)
}

fn gram(x: MatRef<'_, f64>, s: &[f64], parallel: bool) -> Mat<f64> {
    let (n, d) = (x.nrows(), x.ncols());
    assert_eq!(n, s.len(), "one weight per row");
    let per = chunk_rows(n);
    let starts: Vec<usize> = (0..n).step_by(per).collect();
    let one = |&start: &usize| {
        let rows = per.min(n - start);
        let mut h = Mat::<f64>::zeros(d, d);
        gram_into(h.as_mut(), x.subrows(start, rows), &s[start..start + rows]);
        h
    };
    let chunks: Vec<Mat<f64>> = if parallel {
        starts.par_iter().map(one).collect()
    } else {
        starts.iter().map(one).collect()
    };
    let mut total = Mat::<f64>::zeros(d, d);
    for h in &chunks {
        add_lower(&mut total, h);
    }
    mirror_lower(&mut total);
    total
}

/// Add the lower triangle of X^T diag(s) X to `h`, block by block on the calling thread.
pub(super) fn gram_into(h: faer::MatMut<'_, f64>, x: MatRef<'_, f64>, s: &[f64]) {
    let (n, d) = (x.nrows(), x.ncols());
    SCALED.with_borrow_mut(|scaled| {
        // The same shape as a fresh Mat::zeros(BLOCK_ROWS.min(n), d), so the same bits; every
        // entry a block uses is written before it is read, so a kept one needs no zeroing.
        if scaled.nrows() != BLOCK_ROWS.min(n) || scaled.ncols() != d {
            *scaled = Mat::zeros(BLOCK_ROWS.min(n), d);
        }
        gram_blocks(h, x, s, scaled);
    });
}

thread_local! {
    /// Each thread's scaled block diag(s) X_b, kept from chunk to chunk: at 500 columns a fresh
    /// 2,048-row block is 8 MB that glibc maps, zeroes (page faults) and unmaps once per chunk,
    /// which cost about a tenth of a 100,000 x 500 fit.
    static SCALED: std::cell::RefCell<Mat<f64>> = const { std::cell::RefCell::new(Mat::new()) };
}

fn gram_blocks(mut h: faer::MatMut<'_, f64>, x: MatRef<'_, f64>, s: &[f64], scaled: &mut Mat<f64>) {
    let (n, d) = (x.nrows(), x.ncols());
    let mut start = 0;
    while start < n {
        let rows = BLOCK_ROWS.min(n - start);
        let xb = x.subrows(start, rows);
        let mut sb = scaled.as_mut().subrows_mut(0, rows);
        for j in 0..d {
            let dst = sb.as_mut().col_mut(j);
            for ((dst, &x), &s) in dst.iter_mut().zip(xb.col(j).iter()).zip(&s[start..]) {
                *dst = x * s;
            }
        }
        matmul(
            h.as_mut(),
            BlockStructure::TriangularLower,
            Accum::Add,
            xb.transpose(),
            BlockStructure::Rectangular,
            sb.as_ref(),
            BlockStructure::Rectangular,
            1.0,
            Par::Seq,
        );
        start += rows;
    }
}
