//! The input-space picture's numbers (docs/maths.md §17), computed by the engine at run time:
//! for two input features, the training points, each predictive of the main Gaussian run (and
//! the exact run's exact predictive) on a grid of those features with the others at their
//! training means, and decision boundaries drawn from the posterior.

use serde::Serialize;

/// results.json `input_space`: absent for an experiment without two features in memory;
/// `unavailable` says why it could not be drawn (a feature map, more than two classes).
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct InputSpace {
    /// Why there is no picture; the other fields are then empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unavailable: Option<String>,
    /// The two design columns drawn (x, then y), in original units.
    pub features: Vec<String>,
    /// The other design columns, held at their training means (design units).
    pub others_at_mean: Vec<String>,
    /// The grid's first and last x and y, in original units, and its points per axis.
    pub x: [f64; 2],
    pub y: [f64; 2],
    pub points: usize,
    /// Training rows as (x, y, class index); at most 1000, evenly spaced, when more.
    pub rows: Vec<[f64; 3]>,
    pub rows_total: usize,
    /// p(y = 1) on the grid, `p[iy * points + ix]` (4 decimals), per run and predictive.
    pub surfaces: Vec<Surface>,
    /// The run whose Gaussian posterior the boundaries were drawn from, and each boundary as
    /// (c0, cx, cy) with c0 + cx x + cy y = 0 in original units.
    pub boundary_run: String,
    pub boundaries: Vec<[f64; 3]>,
}

#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Surface {
    pub run: String,
    pub predictive: String,
    pub p: Vec<f64>,
}

impl InputSpace {
    /// A record that says why there is no picture.
    pub fn unavailable(why: String) -> InputSpace {
        InputSpace {
            unavailable: Some(why),
            features: Vec::new(),
            others_at_mean: Vec::new(),
            x: [0.0; 2],
            y: [0.0; 2],
            points: 0,
            rows: Vec::new(),
            rows_total: 0,
            surfaces: Vec::new(),
            boundary_run: String::new(),
            boundaries: Vec::new(),
        }
    }
}
