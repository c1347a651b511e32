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

mod chunks;
mod gradient;
mod gram;
mod single;
#[cfg(test)]
mod tests;

use faer::{Mat, MatRef};
use rayon::prelude::*;

pub use chunks::{chunk_rows, MAX_CHUNKS};
pub use gram::{weighted_gram, weighted_gram_sequential};

use chunks::{add_lower, mirror_lower, BLOCK_ROWS};
use gradient::{activations, add_transposed};
use gram::gram_into;
use single::gram_into_single;

/// Which Hessian a pass computes beside E and g.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hessian {
    None,
    /// In double precision: for the Laplace covariance, and every Newton step of full Newton.
    Exact,
    /// Summed in single precision (numeric/glm/single.rs): for chord Newton's steps only.
    Single,
}

impl Hessian {
    /// [`Hessian::Exact`] when `hessian`, else [`Hessian::None`].
    pub fn exact_if(hessian: bool) -> Hessian {
        if hessian {
            Hessian::Exact
        } else {
            Hessian::None
        }
    }
}

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

/// The loss terms of every row of `x` (labels `y`) at `w`, with the exact Hessian when
/// `hessian`.
pub fn accumulate<L: RowLoss + ?Sized>(
    x: MatRef<'_, f64>,
    y: &[f64],
    w: &[f64],
    hessian: bool,
    loss: &L,
) -> Terms {
    accumulate_with(x, y, w, Hessian::exact_if(hessian), loss)
}

/// The loss terms of every row of `x` (labels `y`) at `w`, with the Hessian `hessian` says.
pub fn accumulate_with<L: RowLoss + ?Sized>(
    x: MatRef<'_, f64>,
    y: &[f64],
    w: &[f64],
    hessian: Hessian,
    loss: &L,
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
    let mut total = Terms::zero(d, hessian != Hessian::None);
    for c in &chunks {
        total.add(c);
    }
    total.mirror();
    total
}

/// The terms of one chunk, block by block, on the calling thread. The Hessian is left as a
/// lower triangle.
pub fn chunk<L: RowLoss + ?Sized>(
    x: MatRef<'_, f64>,
    y: &[f64],
    w: &[f64],
    hessian: Hessian,
    loss: &L,
) -> Terms {
    let (n, d) = (x.nrows(), x.ncols());
    let mut out = Terms::zero(d, hessian != Hessian::None);
    let mut a = vec![0.0; BLOCK_ROWS.min(n)];
    let mut r = vec![0.0; BLOCK_ROWS.min(n)];
    let mut curvature = vec![0.0; BLOCK_ROWS.min(n)];
    let mut start = 0;
    while start < n {
        let rows = BLOCK_ROWS.min(n - start);
        let xb = x.subrows(start, rows);
        let (a, r) = (&mut a[..rows], &mut r[..rows]);
        activations(xb, w, a);
        let s = &mut curvature[..rows];
        let yb = &y[start..start + rows];
        for (((a, &y), r), s) in a.iter().zip(yb).zip(r.iter_mut()).zip(s.iter_mut()) {
            let (l, g, h) = loss.terms(*a, y);
            out.value += l;
            *r = g;
            *s = h;
        }
        add_transposed(xb, r, &mut out.gradient);
        if let Some(h) = out.hessian.as_mut() {
            match hessian {
                Hessian::Single => gram_into_single(h.as_mut(), xb, s),
                _ => gram_into(h.as_mut(), xb, s),
            }
        }
        start += rows;
    }
    out
}
