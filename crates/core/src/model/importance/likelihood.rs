//! The negative log likelihood of every training row at every k-hat draw: the one expensive
//! step of a run's k-hat (S draws x N rows; 20,000 x 6,366 = 127 million terms by default).
//!
//! Only the activations a = X w_s are needed, so a block of [`DRAW_BLOCK`] draws gets them
//! for [`ROW_TILE`] rows at a time from one matrix product A = X_tile W_block (faer, on the
//! calling thread), and each column of A is summed at once by a loss-only kernel: for the
//! logistic model softplus(a) - y a = max(a, 0) - y a + ln(1 + e), e = e^{-|a|}, with e from
//! the branch-free [`exp_poly`] and the ln(1 + e) of 16 rows in each of eight lanes taken as
//! one logarithm of their product (each factor lies in (1, 2], so the product stays below
//! 2^16), the same scheme as numeric/logistic_sums.rs. The probit model's -ln Phi((2y - 1) a)
//! is summed the same way, Phi from the branch-free [`norm_cdf_poly`] (16 factors of at least
//! 6e-16 cannot underflow; the rare rows below take the stable scalar ln Phi). Blocks of draws run in parallel (rayon); the blocks, the
//! tiles and the order of every sum are fixed, so the totals are the same bits on any number
//! of threads. Against summing each row's `row_terms` loss in row order they agree to about
//! 1e-15 relative (tested), not to the bit.

use faer::linalg::matmul::matmul;
use faer::{Accum, Mat, MatRef, Par};
use rayon::prelude::*;

use super::Likelihood;
#[cfg(doc)]
use crate::numeric::special::{exp_poly, norm_cdf_poly};

mod columns;
pub use columns::{logistic_column, logistic_column_with, probit_column, probit_column_with};

/// Draws per parallel task: wide enough for an efficient product, and 157 tasks for the
/// default 20,000 draws, so two or many cores share them evenly.
pub const DRAW_BLOCK: usize = 128;

/// Rows per product: a tile of activations is ROW_TILE x DRAW_BLOCK doubles (256 KiB), which
/// stays in the second-level cache while its columns are summed.
pub const ROW_TILE: usize = 256;

/// Add sum_n loss(x_n^T w_s, y_n) to `nll[s]` for every draw s (the columns of `w`, D x S),
/// over the rows of `x` (N x D) with labels `y`. For the probit model `w` must already be
/// divided by its noise beta.
pub fn add_draw_nll(
    likelihood: Likelihood,
    x: MatRef<'_, f64>,
    y: &[f64],
    w: MatRef<'_, f64>,
    nll: &mut [f64],
) {
    assert_eq!(x.nrows(), y.len(), "one label per row");
    assert_eq!(w.ncols(), nll.len(), "one total per draw");
    let n = x.nrows();
    nll.par_chunks_mut(DRAW_BLOCK)
        .enumerate()
        .for_each(|(b, totals)| {
            let wb = w.subcols(b * DRAW_BLOCK, totals.len());
            let mut a = Mat::<f64>::zeros(ROW_TILE.min(n), totals.len());
            let mut start = 0;
            while start < n {
                let rows = ROW_TILE.min(n - start);
                let mut tile = a.as_mut().subrows_mut(0, rows);
                let xt = x.subrows(start, rows);
                matmul(tile.as_mut(), Accum::Replace, xt, wb, 1.0, Par::Seq);
                let yt = &y[start..start + rows];
                for (k, total) in totals.iter_mut().enumerate() {
                    let col = &a.col_as_slice(k)[..rows];
                    *total += column_nll(likelihood, col, yt);
                }
                start += rows;
            }
        });
}

/// sum_n loss(a_n, y_n) over one column of activations.
fn column_nll(likelihood: Likelihood, a: &[f64], y: &[f64]) -> f64 {
    match likelihood {
        Likelihood::Logistic => logistic_column(a, y),
        Likelihood::Probit { .. } => probit_column(a, y),
    }
}

#[cfg(test)]
mod tests;
