//! What the pictures of the posterior need from a run that the moments do not give: the exact
//! posterior's 2-D marginal densities on a grid (from a quadrature run), drawn as contours in
//! weight space beside each Gaussian approximation's ellipses (docs/maths.md §15), or, without a
//! quadrature run, from a gold-standard run's draws or a slice through the mode (§19).

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
    /// Where the density came from (the figure and the workbench say it).
    pub source: ExactSource,
    /// From draws only: the density levels whose superlevel sets hold 50 %, 90 % and 99 % of
    /// the draws (each draw's leave-one-out density, its 50th, 10th and 1st percentile); the
    /// other sources find their levels from the grid's mass.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub levels: Option<Vec<f64>>,
    /// From draws only: the Gaussian kernel's standard deviation along x and y (Scott's rule,
    /// n^(-1/6) times the draws' standard deviation; the kernel has the draws' correlation).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bandwidth: Option<[f64; 2]>,
    /// From draws only: how many draws the density estimate used.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draws: Option<usize>,
}

/// Where the exact contours of the weight-space picture come from, best first (docs/maths.md
/// §15 and §19).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ExactSource {
    /// The exact 2-D marginal by quadrature (a quadrature run, at most three weights).
    Quadrature,
    /// The 2-D marginal of a gold-standard (Gibbs) run's draws, by a Gaussian kernel density
    /// estimate; its contours hold 50/90/99 % of the draws.
    Draws,
    /// The posterior's conditional density of the pair with every other weight at the mode:
    /// a slice through the mode, not a marginal.
    Slice,
}

impl ExactSource {
    /// How the figure and the workbench name the contours.
    pub fn label(self) -> &'static str {
        match self {
            ExactSource::Quadrature => "exact 2-D marginal (quadrature)",
            ExactSource::Draws => "2-D marginal of the gold run's draws (kernel density)",
            ExactSource::Slice => "slice through the mode, not a marginal",
        }
    }

    /// A short form for narrow screens.
    pub fn short(self) -> &'static str {
        match self {
            ExactSource::Quadrature => "exact marginal",
            ExactSource::Draws => "marginal of draws",
            ExactSource::Slice => "slice through the mode, not a marginal",
        }
    }
}

/// results.json `exact_contours`: without a quadrature run, the weight-space picture's exact
/// contours from a gold-standard run's draws or, without one, from a slice through the mode;
/// for at most [`ExactContours::MAX_PAIRS`] pairs (those of largest |correlation|).
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ExactContours {
    pub source: ExactSource,
    /// The gold run whose draws were used, or the run whose mode the slice goes through.
    pub run: String,
    /// The point the slice goes through (design units; slices only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<Vec<f64>>,
    pub pairs: Vec<PairDensity>,
}

impl ExactContours {
    pub const MAX_PAIRS: usize = 28;
    /// The probability levels every contour of the picture is drawn at.
    pub const LEVELS: [f64; 3] = [0.5, 0.9, 0.99];
}

impl PairDensity {
    /// A grid of `density` values with mass 1 and none of the draws' fields.
    pub fn new(
        pair: [usize; 2],
        (x, y): ([f64; 2], [f64; 2]),
        points: usize,
        density: Vec<f64>,
        source: ExactSource,
    ) -> PairDensity {
        PairDensity {
            pair,
            x,
            y,
            points,
            density,
            mass: 1.0,
            source,
            levels: None,
            bandwidth: None,
            draws: None,
        }
    }

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
