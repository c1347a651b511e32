//! One pass over the design for a generalised linear model's Newton step: the negative log
//! likelihood, its gradient X^T r and its Hessian X^T S X, fused so that each row block of X
//! is read once while it is in cache, and X is never copied whole (memory O(block x D + D^2)
//! beyond X itself).
//!
//! The rows are cut into at most [`MAX_CHUNKS`] chunks whose boundaries depend only on the
//! number of rows; chunks run in parallel on rayon's pool, each sums its own rows in order, and
//! the chunk totals are added in chunk order. So the result is the same bit for bit whatever
//! the number of threads (one thread included), and a caller that streams a file chunk by
//! chunk gets the in-memory result by adding the chunk totals in the same order.

use faer::linalg::matmul::triangular::{matmul, BlockStructure};
use faer::{Accum, Mat, MatRef, Par};
use rayon::prelude::*;

/// Rows per block inside a chunk: a 2,048 x 50 block of X is 800 KiB.
const BLOCK_ROWS: usize = 2048;

/// The number of chunks is at most this, so the per-chunk Hessians cost at most 64 D^2.
pub const MAX_CHUNKS: usize = 64;

/// Per row, from its activation a and label y: (loss, d loss / d a, d^2 loss / d a^2).
pub trait RowLoss: Sync {
    fn terms(&self, a: f64, y: f64) -> (f64, f64, f64);
}

impl<F: Fn(f64, f64) -> (f64, f64, f64) + Sync> RowLoss for F {
    fn terms(&self, a: f64, y: f64) -> (f64, f64, f64) {
        self(a, y)
    }
}

/// The summed loss, its gradient in w, and (when asked for) the lower triangle of its Hessian
/// in w with the upper triangle mirrored. No prior term: the caller adds it.
#[derive(Debug, Clone)]
pub struct Terms {
    pub value: f64,
    pub gradient: Vec<f64>,
    pub hessian: Option<Mat<f64>>,
}

impl Terms {
    pub fn zero(d: usize, hessian: bool) -> Self {
        Terms {
            value: 0.0,
            gradient: vec![0.0; d],
            hessian: hessian.then(|| Mat::zeros(d, d)),
        }
    }

    /// Add `other` (the next rows) to these totals.
    pub fn add(&mut self, other: &Terms) {
        self.value += other.value;
        for (g, o) in self.gradient.iter_mut().zip(&other.gradient) {
            *g += o;
        }
        if let (Some(h), Some(o)) = (self.hessian.as_mut(), other.hessian.as_ref()) {
            add_lower(h, o);
        }
    }

    /// E = these terms + lambda/2 ||w||^2 under the prior w ~ N(0, lambda^{-1} I): the value,
    /// gradient + lambda w and Hessian + lambda I.
    pub fn with_prior(self, w: &[f64], precision: f64) -> (f64, Vec<f64>, Option<Mat<f64>>) {
        let mut g = self.gradient;
        for (g, w) in g.iter_mut().zip(w) {
            *g += precision * w;
        }
        let h = self.hessian.map(|mut h| {
            for i in 0..h.nrows() {
                h[(i, i)] += precision;
            }
            h
        });
        let penalty = 0.5 * precision * w.iter().map(|v| v * v).sum::<f64>();
        (self.value + penalty, g, h)
    }

    /// Copy the summed lower triangle of the Hessian to the upper one (after the last add).
    pub fn mirror(&mut self) {
        if let Some(h) = self.hessian.as_mut() {
            mirror_lower(h);
        }
    }
}

fn add_lower(h: &mut Mat<f64>, o: &Mat<f64>) {
    let d = h.nrows();
    for j in 0..d {
        for i in j..d {
            h[(i, j)] += o[(i, j)];
        }
    }
}

fn mirror_lower(h: &mut Mat<f64>) {
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

/// The loss terms of every row of `x` (labels `y`) at `w`.
pub fn accumulate(
    x: MatRef<'_, f64>,
    y: &[f64],
    w: &[f64],
    hessian: bool,
    loss: &dyn RowLoss,
) -> Terms {
    let (n, d) = (x.nrows(), x.ncols());
    assert_eq!(n, y.len(), "one label per row");
    assert_eq!(d, w.len(), "one weight per column");
    let per = chunk_rows(n);
    let starts: Vec<usize> = (0..n).step_by(per).collect();
    let chunks: Vec<Terms> = starts
        .par_iter()
        .map(|&start| {
            let rows = per.min(n - start);
            chunk(
                x.subrows(start, rows),
                &y[start..start + rows],
                w,
                hessian,
                loss,
            )
        })
        .collect();
    let mut total = Terms::zero(d, hessian);
    for c in &chunks {
        total.add(c);
    }
    total.mirror();
    total
}

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
fn gram_into(mut h: faer::MatMut<'_, f64>, x: MatRef<'_, f64>, s: &[f64]) {
    let (n, d) = (x.nrows(), x.ncols());
    let mut scaled = Mat::<f64>::zeros(BLOCK_ROWS.min(n), d);
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

/// The terms of one chunk, block by block, on the calling thread. The Hessian is left as a
/// lower triangle.
pub fn chunk(x: MatRef<'_, f64>, y: &[f64], w: &[f64], hessian: bool, loss: &dyn RowLoss) -> Terms {
    let (n, d) = (x.nrows(), x.ncols());
    let mut out = Terms::zero(d, hessian);
    let mut a = vec![0.0; BLOCK_ROWS.min(n)];
    let mut r = vec![0.0; BLOCK_ROWS.min(n)];
    let mut curvature = vec![0.0; BLOCK_ROWS.min(n)];
    let mut start = 0;
    while start < n {
        let rows = BLOCK_ROWS.min(n - start);
        let xb = x.subrows(start, rows);
        let (a, r) = (&mut a[..rows], &mut r[..rows]);
        // a = X_b w, column by column (contiguous in faer's column-major layout).
        a.fill(0.0);
        for (j, &wj) in w.iter().enumerate() {
            let col = xb.col(j);
            for (ai, &xij) in a.iter_mut().zip(col.iter()) {
                *ai += xij * wj;
            }
        }
        let s = &mut curvature[..rows];
        for i in 0..rows {
            let (l, g, h) = loss.terms(a[i], y[start + i]);
            out.value += l;
            r[i] = g;
            s[i] = h;
        }
        for (j, gj) in out.gradient.iter_mut().enumerate() {
            let col = xb.col(j);
            *gj += col.iter().zip(r.iter()).map(|(x, r)| x * r).sum::<f64>();
        }
        if let Some(h) = out.hessian.as_mut() {
            gram_into(h.as_mut(), xb, s);
        }
        start += rows;
    }
    out
}

#[cfg(test)]
mod tests;
