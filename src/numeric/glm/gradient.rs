//! The E and g half of the fused pass on one row block: the activations a = X_b w and the
//! gradient's share X_b^T r, written so that they run near memory speed.
//!
//! A plain `col.iter().zip(r).map(..).sum()` is one chain of dependent additions (each waits
//! for the last: no SIMD, one add per add-latency), which made a gradient pass cost about half
//! a Hessian pass at D = 50. Here every dot product keeps [`LANES`] independent partial sums
//! that the compiler keeps in vector registers, and the activations take four columns per
//! sweep over a. The order of the additions is fixed by the block's length alone (lanes by
//! position, then a fixed tree), never by the data's address, so the bits are the same on any
//! number of threads and for the same rows in memory or streamed.

use faer::MatRef;

/// Independent partial sums per dot product: enough to hide the add latency (4 cycles) at
/// two vector adds per cycle.
const LANES: usize = 8;

/// `a` = X_b w for the rows of `x` (one entry per row).
pub(super) fn activations(x: MatRef<'_, f64>, w: &[f64], a: &mut [f64]) {
    a.fill(0.0);
    let d = w.len();
    let mut j = 0;
    // Four columns per sweep: a is loaded and stored once for four products.
    while j + 4 <= d {
        let (c0, c1, c2, c3) = (
            column(x, j),
            column(x, j + 1),
            column(x, j + 2),
            column(x, j + 3),
        );
        let (w0, w1, w2, w3) = (w[j], w[j + 1], w[j + 2], w[j + 3]);
        for ((((a, x0), x1), x2), x3) in a.iter_mut().zip(c0).zip(c1).zip(c2).zip(c3) {
            *a += (x0 * w0 + x1 * w1) + (x2 * w2 + x3 * w3);
        }
        j += 4;
    }
    for (c, &wj) in (j..d).map(|j| column(x, j)).zip(&w[j..]) {
        for (a, x) in a.iter_mut().zip(c) {
            *a += x * wj;
        }
    }
}

/// g += X_b^T r.
pub(super) fn add_transposed(x: MatRef<'_, f64>, r: &[f64], g: &mut [f64]) {
    for (j, g) in g.iter_mut().enumerate() {
        *g += dot(column(x, j), r);
    }
}

/// Column j of a matrix whose columns are contiguous (faer's column-major layout, and every
/// row range of it).
fn column<'a>(x: MatRef<'a, f64>, j: usize) -> &'a [f64] {
    x.col(j)
        .try_as_col_major()
        .expect("the design's columns are contiguous")
        .as_slice()
}

/// sum_i x_i r_i with [`LANES`] partial sums, added in a fixed tree.
pub(super) fn dot(x: &[f64], r: &[f64]) -> f64 {
    debug_assert_eq!(x.len(), r.len());
    let mut acc = [0.0; LANES];
    let (xs, rs) = (x.chunks_exact(LANES), r.chunks_exact(LANES));
    let tail: f64 = xs
        .remainder()
        .iter()
        .zip(rs.remainder())
        .map(|(x, r)| x * r)
        .sum();
    for (xs, rs) in xs.zip(rs) {
        for k in 0..LANES {
            acc[k] += xs[k] * rs[k];
        }
    }
    ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7])) + tail
}
