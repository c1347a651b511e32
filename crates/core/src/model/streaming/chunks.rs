//! Training rows that arrive in chunks: the interface every streamed fit reads them through,
//! and rows held in memory as its one chunk.

use faer::MatRef;

use crate::error::Result;

/// A consumer of one chunk's design rows and class indices.
pub type ChunkFn<'a> = dyn FnMut(MatRef<'_, f64>, &[f64]) -> Result<()> + 'a;

/// The training rows, replayed once per call: each chunk's design rows and class indices.
pub trait Chunks {
    fn each(&self, f: &mut ChunkFn<'_>) -> Result<()>;

    /// Whether the next pass of a GLM fit computes the Hessian (O(N D^2)) or only E and g
    /// (O(N D)): a source that records its passes labels them by it.
    fn hessian_next(&self, _hessian: bool) {}
}

/// Rows held in memory: one chunk.
pub struct InMemory<'a> {
    pub x: MatRef<'a, f64>,
    pub y: &'a [f64],
}

impl Chunks for InMemory<'_> {
    fn each(&self, f: &mut ChunkFn<'_>) -> Result<()> {
        f(self.x, self.y)
    }
}
