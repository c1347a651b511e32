//! The paired comparison of two runs on the same test rows (comparison.json, and results.json
//! `comparison` when an experiment names a `baseline`); `compare/` computes it.

use serde::Serialize;

/// Whether B's difference from A is outside the bootstrap noise, and in which direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    Improved,
    Worse,
    WithinNoise,
    /// The interval rests on too few resamples for either verdict (compare/ refuses such
    /// counts; the verdict itself never claims one).
    TooFewResamples,
}

impl Verdict {
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Improved => "improved",
            Verdict::Worse => "worse",
            Verdict::WithinNoise => "within-noise",
            Verdict::TooFewResamples => "too-few-resamples",
        }
    }
}

/// One line of comparison.json. Lower is better for all three metrics, so a negative `diff`
/// is an improvement of B over A.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Comparison {
    pub run: String,
    pub predictive: String,
    pub metric: String,
    pub a: f64,
    pub b: f64,
    pub diff: f64,
    pub ci_low: f64,
    pub ci_high: f64,
    pub verdict: Verdict,
    /// B's `<run>/<predictive>` when it is not A's (`compare --pair`); `run` and `predictive`
    /// are A's. Absent otherwise, so that a comparison of namesakes reads as before.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub b_column: Option<String>,
    /// What the reader must know to read this line: that B's ECE was rescored on A's bins
    /// because the two runs used different `calibration_bins` or binning (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// Where a predictive stands against the best one of the same experiment on one metric.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Standing {
    /// The best value, and every other is worse beyond the bootstrap noise.
    Best,
    /// The best value or within noise of it: the interval of the difference includes zero.
    Tied,
    /// Worse than the best beyond noise.
    Behind,
}

/// results.json `versus_best`: one predictive (`<run>/<predictive>`) against the best one on
/// `metric` (lower is better), by the paired bootstrap over the test rows that `compare` uses.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct VersusBest {
    pub run: String,
    pub predictive: String,
    pub metric: String,
    /// The `<run>/<predictive>` with the best value of `metric`.
    pub best: String,
    /// This value minus the best one (zero for the best itself).
    pub diff: f64,
    /// The 95 % percentile interval of the difference over resamples of the test rows.
    pub ci_low: f64,
    pub ci_high: f64,
    pub standing: Standing,
}
