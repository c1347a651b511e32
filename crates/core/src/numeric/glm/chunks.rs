//! How the rows are cut: blocks that stay in cache inside chunks whose boundaries depend only
//! on the number of rows, and the lower-triangle sums that add the chunks in order.

use faer::Mat;

/// Rows per block inside a chunk: a 2,048 x 50 block of X is 800 KiB.
pub(super) const BLOCK_ROWS: usize = 2048;

/// The number of chunks is at most this, so the per-chunk Hessians cost at most 64 D^2.
pub const MAX_CHUNKS: usize = 64;

pub(super) fn add_lower(h: &mut Mat<f64>, o: &Mat<f64>) {
    let d = h.nrows();
    for j in 0..d {
        for i in j..d {
            h[(i, j)] += o[(i, j)];
        }
    }
}

pub(super) fn mirror_lower(h: &mut Mat<f64>) {
    let d = h.nrows();
    for j in 0..d {
        for i in j + 1..d {
            h[(j, i)] = h[(i, j)];
        }
    }
}

/// Rows per chunk for `n` rows: a multiple of the block size giving at most [`MAX_CHUNKS`].
pub fn chunk_rows(n: usize) -> usize {
    let per = n.div_ceil(MAX_CHUNKS).max(1);
    per.div_ceil(BLOCK_ROWS) * BLOCK_ROWS
}
