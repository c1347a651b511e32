//! What the pictures of the posterior need from a run that the moments do not give: the exact
//! posterior's 2-D marginal densities on a grid (from a quadrature run), drawn as contours in
//! weight space beside each Gaussian approximation's ellipses (docs/maths.md §15).

use serde::Serialize;

/// results.json `runs[].pair_densities[]`: the exact posterior's marginal density of the
/// weights `pair` on a regular `points` x `points` grid over `x` (weight `pair[0]`) by `y`
/// (weight `pair[1]`), in design-column units; the third weight, if any, integrated out.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct PairDensity {
    /// Design-column indices of the two weights, the first below the second.
    pub pair: [usize; 2],
    /// The grid's first and last value of weight `pair[0]` and of weight `pair[1]`.
    pub x: [f64; 2],
    pub y: [f64; 2],
    /// Grid points along each axis.
    pub points: usize,
    /// The density at every grid point, row by row: `density[iy * points + ix]` at
    /// x = x0 + ix dx, y = y0 + iy dy (6 significant digits).
    pub density: Vec<f64>,
    /// The posterior mass inside the grid's box by the trapezoidal rule (close to 1).
    pub mass: f64,
}

impl PairDensity {
    /// The grid spacing along x and along y.
    pub fn spacing(&self) -> (f64, f64) {
        let n = self.points.saturating_sub(1).max(1) as f64;
        ((self.x[1] - self.x[0]) / n, (self.y[1] - self.y[0]) / n)
    }

    /// The grid's x (ix) and y (iy) values.
    pub fn at(&self, ix: usize, iy: usize) -> (f64, f64) {
        let (dx, dy) = self.spacing();
        (self.x[0] + ix as f64 * dx, self.y[0] + iy as f64 * dy)
    }

    pub fn value(&self, ix: usize, iy: usize) -> f64 {
        self.density[iy * self.points + ix]
    }
}
