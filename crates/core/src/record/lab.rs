//! The approximation lab's part of the run record (results.json `posteriors`): for each
//! posterior and subset size, the exact posterior's summary and, per approximation, its summary,
//! the distances to the exact density and the mass outside its support. Field names are the
//! output contract of issue 5; the lab (`lab/`) computes them.

use serde::Serialize;

/// An approximation the lab can put beside an exact one-parameter posterior
/// (`[[posterior]] approximations = [...]`), serialised as its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ApproxKind {
    Normal,
    LogNormal,
    LogitNormal,
    T,
    Mixture,
}

impl ApproxKind {
    pub const ALL: [ApproxKind; 5] = [
        ApproxKind::Normal,
        ApproxKind::LogNormal,
        ApproxKind::LogitNormal,
        ApproxKind::T,
        ApproxKind::Mixture,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ApproxKind::Normal => "normal",
            ApproxKind::LogNormal => "lognormal",
            ApproxKind::LogitNormal => "logitnormal",
            ApproxKind::T => "t",
            ApproxKind::Mixture => "mixture",
        }
    }
}

impl std::fmt::Display for ApproxKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct PosteriorResult {
    pub id: String,
    pub kind: String,
    /// The subset size label ("5", "all"); each sweep entry is one result.
    pub subset: String,
    /// Data points used.
    pub n: usize,
    /// What the scalar parameter is ("theta", "gini", ...).
    pub parameter: String,
    /// The exact posterior's family, e.g. "Gamma(shape = 12, rate = 6)".
    pub exact_form: String,
    pub exact: Summary,
    pub approximations: Vec<ApproxResult>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gini: Option<GiniResult>,
    /// The Laplace components of a mixture-laplace posterior.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub modes: Vec<ModeRecord>,
    /// Densities on a common grid, for plots (not in results.json).
    #[serde(skip)]
    pub curves: Curves,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Summary {
    pub mean: f64,
    pub sd: f64,
    /// [2.5 %, 50 %, 97.5 %].
    pub quantiles: [f64; 3],
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct ApproxResult {
    pub name: ApproxKind,
    /// The fitted approximation, e.g. "theta ~ N(1.83, 0.55^2)".
    pub form: String,
    pub mean: f64,
    pub sd: f64,
    pub quantiles: [f64; 3],
    pub kl: f64,
    pub tv: f64,
    pub hellinger: f64,
    pub mass_outside_support: f64,
    /// The distances' grid: final interval count and the last halving's change.
    pub integration: Integration,
    /// The scale the distances were integrated on (they are invariant under the change).
    pub distance_scale: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct GiniSummary {
    pub mean: f64,
    pub q025: f64,
    pub q975: f64,
    /// Monte-Carlo standard error of the mean: sd / sqrt(draws) (independent draws).
    pub mcse: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct GiniResult {
    pub draws: usize,
    pub approx: GiniSummary,
    pub exact: GiniSummary,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ModeRecord {
    pub location: f64,
    pub sd: f64,
    pub weight: f64,
    pub ln_evidence: f64,
}

/// Exact and approximate densities on `x` (approximations in the order of the results).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Curves {
    pub x: Vec<f64>,
    pub exact: Vec<f64>,
    pub approximations: Vec<(ApproxKind, Vec<f64>)>,
}

/// How an integral was computed: the final number of grid intervals and the largest change
/// of any figure at the last halving of the spacing (below the tolerance when converged).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Integration {
    pub intervals: usize,
    pub last_change: f64,
    pub converged: bool,
}
