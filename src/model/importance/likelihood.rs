//! The negative log likelihood of every training row at every k-hat draw: the one expensive
//! step of a run's k-hat (S draws x N rows; 20,000 x 6,366 = 127 million terms by default).
//!
//! Only the activations a = X w_s are needed, so a block of [`DRAW_BLOCK`] draws gets them
//! for [`ROW_TILE`] rows at a time from one matrix product A = X_tile W_block (faer, on the
//! calling thread), and each column of A is summed at once by a loss-only kernel: for the
//! logistic model softplus(a) - y a = max(a, 0) - y a + ln(1 + e), e = e^{-|a|}, with e from
//! the branch-free [`exp_poly`] and the ln(1 + e) of 16 rows in each of eight lanes taken as
//! one logarithm of their product (each factor lies in (1, 2], so the product stays below
//! 2^16), the same scheme as numeric/logistic_sums.rs. The probit model sums -ln Phi((2y - 1)
//! a) with the stable scalar ln Phi. Blocks of draws run in parallel (rayon); the blocks, the
//! tiles and the order of every sum are fixed, so the totals are the same bits on any number
//! of threads. Against summing each row's `row_terms` loss in row order they agree to about
//! 1e-15 relative (tested), not to the bit.

use faer::linalg::matmul::matmul;
use faer::{Accum, Mat, MatRef, Par};
use rayon::prelude::*;

use super::Likelihood;
use crate::numeric::special::{exp_poly, log_norm_cdf, norm_cdf_poly};

/// Draws per parallel task: wide enough for an efficient product, and 157 tasks for the
/// default 20,000 draws, so two or many cores share them evenly.
pub const DRAW_BLOCK: usize = 128;

/// Rows per product: a tile of activations is ROW_TILE x DRAW_BLOCK doubles (256 KiB), which
/// stays in the second-level cache while its columns are summed.
pub const ROW_TILE: usize = 256;

const LANES: usize = 8;
/// Rows whose (1 + e) one lane multiplies before taking one logarithm.
const GROUP: usize = 16;

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

/// [`logistic_column_with`] on the widest vector instructions the CPU has.
pub fn logistic_column(a: &[f64], y: &[f64]) -> f64 {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512f") {
            // SAFETY: the CPU supports the features the function is compiled for.
            return unsafe { logistic_column_avx512(a, y) };
        }
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
        {
            // SAFETY: as above.
            return unsafe { logistic_column_avx2(a, y) };
        }
    }
    logistic_column_with::<false>(a, y)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx2,fma")]
unsafe fn logistic_column_avx512(a: &[f64], y: &[f64]) -> f64 {
    logistic_column_with::<true>(a, y)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn logistic_column_avx2(a: &[f64], y: &[f64]) -> f64 {
    logistic_column_with::<true>(a, y)
}

/// sum_n softplus(a_n) - y_n a_n, eight rows to a lane set; `FMA` selects fused
/// multiply-adds in [`exp_poly`].
#[inline(always)]
pub fn logistic_column_with<const FMA: bool>(a: &[f64], y: &[f64]) -> f64 {
    let (a8, a_rest) = a.as_chunks::<LANES>();
    let (y8, y_rest) = y.as_chunks::<LANES>();
    let (mut linear, mut logs) = ([0.0; LANES], [0.0; LANES]);
    for (ag, yg) in a8.chunks(GROUP).zip(y8.chunks(GROUP)) {
        let mut product = [1.0; LANES];
        for (a, y) in ag.iter().zip(yg) {
            for l in 0..LANES {
                let e = exp_poly::<FMA>(-a[l].abs());
                linear[l] += a[l].max(0.0) - y[l] * a[l];
                product[l] *= 1.0 + e;
            }
        }
        for l in 0..LANES {
            logs[l] += product[l].ln();
        }
    }
    let mut total = linear.iter().sum::<f64>() + logs.iter().sum::<f64>();
    for (&a, &y) in a_rest.iter().zip(y_rest) {
        total += a.max(0.0) - y * a + exp_poly::<FMA>(-a.abs()).ln_1p();
    }
    total
}

/// Below this z = (2y - 1) a, Phi(z) < 6e-16: its row is left out of the products (a factor
/// of 1) and its ln Phi taken from the continued fraction instead; above it 16 factors cannot
/// underflow.
const PROBIT_PRODUCT_FLOOR: f64 = -8.0;

/// [`probit_column_with`] on the widest vector instructions the CPU has.
pub fn probit_column(a: &[f64], y: &[f64]) -> f64 {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512f") {
            // SAFETY: the CPU supports the features the function is compiled for.
            return unsafe { probit_column_avx512(a, y) };
        }
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
        {
            // SAFETY: as above.
            return unsafe { probit_column_avx2(a, y) };
        }
    }
    probit_column_with::<false>(a, y)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx2,fma")]
unsafe fn probit_column_avx512(a: &[f64], y: &[f64]) -> f64 {
    probit_column_with::<true>(a, y)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn probit_column_avx2(a: &[f64], y: &[f64]) -> f64 {
    probit_column_with::<true>(a, y)
}

/// sum_n -ln Phi((2 y_n - 1) a_n): Phi by the branch-free [`norm_cdf_poly`], the ln of 16
/// rows per lane taken once from their product, as in [`logistic_column_with`]; the rows far
/// in the lower tail (rare: Phi below 6e-16) one by one with the stable ln Phi.
#[inline(always)]
pub fn probit_column_with<const FMA: bool>(a: &[f64], y: &[f64]) -> f64 {
    let (a8, a_rest) = a.as_chunks::<LANES>();
    let (y8, y_rest) = y.as_chunks::<LANES>();
    let mut logs = [0.0; LANES];
    for (ag, yg) in a8.chunks(GROUP).zip(y8.chunks(GROUP)) {
        let mut product = [1.0; LANES];
        for (a, y) in ag.iter().zip(yg) {
            for l in 0..LANES {
                let z = (2.0 * y[l] - 1.0) * a[l];
                let phi = norm_cdf_poly::<FMA>(z);
                product[l] *= if z >= PROBIT_PRODUCT_FLOOR { phi } else { 1.0 };
            }
        }
        for l in 0..LANES {
            logs[l] += product[l].ln();
        }
    }
    let mut total = -logs.iter().sum::<f64>();
    for (&a, &y) in a_rest.iter().zip(y_rest) {
        total -= log_norm_cdf((2.0 * y - 1.0) * a);
    }
    let full = a.len() - a_rest.len();
    for (&a, &y) in a[..full].iter().zip(&y[..full]) {
        let z = (2.0 * y - 1.0) * a;
        if z < PROBIT_PRODUCT_FLOOR {
            total -= log_norm_cdf(z);
        }
    }
    total
}

#[cfg(test)]
mod tests;
