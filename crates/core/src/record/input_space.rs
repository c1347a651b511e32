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
    /// Why these two (the default pair, when there was a choice: more than two candidate
    /// columns); absent for the further pairs and when two columns were all there was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chosen: Option<PairChoice>,
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

/// How the default pair of features was chosen (docs/maths.md §17). Constant columns are never
/// candidates; near-constant ones (one value in at least 90 % of the training rows) only when
/// too few others are left.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum PairChoice {
    /// The two columns of largest |posterior mean weight| of `run` on the standardised scale
    /// (|w_j| times the column's training sd), `weights` those two values.
    LargestWeights {
        run: String,
        weights: [f64; 2],
        near_constant: usize,
    },
    /// No run has weights over the design columns: the first two candidate columns.
    FirstColumns { near_constant: usize },
}

impl PairChoice {
    /// What the figure and the workbench say about the pair, in one short line.
    pub fn describe(&self) -> String {
        match self {
            PairChoice::LargestWeights { run, weights, .. } => format!(
                "pair: the two largest |weights| ({run}, standardised scale: {:.2}, {:.2})",
                weights[0], weights[1]
            ),
            PairChoice::FirstColumns { .. } => {
                "pair: the first two features (no run has weights to rank them)".into()
            }
        }
    }

    /// The near-constant features the choice left out, said when there were any.
    pub fn left_out(&self) -> Option<String> {
        let (PairChoice::LargestWeights { near_constant, .. }
        | PairChoice::FirstColumns { near_constant }) = self;
        match near_constant {
            0 => None,
            1 => Some("1 near-constant feature left out".into()),
            n => Some(format!("{n} near-constant features left out")),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Surface {
    pub run: String,
    pub predictive: crate::catalog::PredictiveKind,
    pub p: Vec<f64>,
}

impl InputSpace {
    /// A record that says why there is no picture.
    pub fn unavailable(why: String) -> InputSpace {
        InputSpace {
            unavailable: Some(why),
            features: Vec::new(),
            chosen: None,
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
