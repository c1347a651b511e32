//! The predictive formulas' curves (docs/maths.md §16), computed once for every view that
//! draws them (the reports' two figures in `plots/formulas.rs`, the workbench's panel `f` on
//! the Posterior screen): the logistic sigmoid σ(a) beside the probit curve Φ(√(π/8)·a) that
//! stands in for it, and the moderated predictive E[σ(a)], a ~ N(μ_a, s²), against the
//! activation variance s² at a fixed μ_a, each approximation (probit, MacKay, Monte Carlo)
//! beside the exact integral (1-D quadrature). Pure maths and the experiment's seed: no run's
//! numbers enter.

use rand_distr::{Distribution, StandardNormal};

use bayeslab_core::model::predictive::{logistic_normal, mackay, probit_approx};
use bayeslab_core::numeric::quadrature::GaussHermite;
use bayeslab_core::numeric::special::{norm_cdf, sigmoid};

/// The fixed mean activation of the moderated predictive, the variances it spans, and the
/// draws of each Monte-Carlo estimate (few, so that its noise shows).
pub const MU_A: f64 = 2.0;
pub const MAX_VAR: f64 = 16.0;
pub const MC_DRAWS: usize = 200;
/// The link curves span a ∈ [−LINK_RANGE, LINK_RANGE].
pub const LINK_RANGE: f64 = 6.0;
/// √(π/8): the probit curve's slope factor, matching σ'(0) = 1/4.
pub const SLOPE: f64 = 0.626_657_068_657_750_1;

/// Each curve of the two pictures, named once for the figures and the workbench.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Curve {
    /// σ(a), the logistic sigmoid.
    Sigmoid,
    /// Φ(√(π/8)·a).
    ProbitLink,
    /// Φ(μ/√(8/π + s²)): E[Φ(√(π/8)·a)] exactly.
    Probit,
    /// σ(μ/√(1 + πs²/8)).
    MacKay,
    /// The Monte-Carlo estimate of E[σ(a)] with ± 2 MCSE.
    MonteCarlo,
    /// σ(μ_a), which ignores s².
    PlugIn,
    /// E[σ(a)] by quadrature: the truth.
    Exact,
}

impl Curve {
    pub fn label(self) -> String {
        match self {
            Curve::Sigmoid => "σ(a), the logistic sigmoid".into(),
            Curve::ProbitLink => "Φ(√(π/8)·a), the probit curve".into(),
            Curve::Probit => "probit: Φ(μ/√(8/π + s²))".into(),
            Curve::MacKay => "MacKay: σ(μ/√(1 + πs²/8))".into(),
            Curve::MonteCarlo => format!("Monte Carlo, {MC_DRAWS} draws (± 2 MCSE)"),
            Curve::PlugIn => "plug-in σ(μ)".into(),
            Curve::Exact => "exact E[σ(a)] (quadrature; the truth)".into(),
        }
    }
}

/// One curve's points (x, p(y = 1)).
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    pub curve: Curve,
    pub points: Vec<(f64, f64)>,
}

/// A Monte-Carlo estimate of E[σ(a)] at one variance, with its standard error.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct McPoint {
    pub var: f64,
    pub mean: f64,
    pub se: f64,
}

/// The first picture: σ(a) and Φ(√(π/8)·a) over a ∈ [−6, 6], and their largest gap.
#[derive(Debug, Clone, PartialEq)]
pub struct Link {
    pub sigmoid: Series,
    pub probit: Series,
    pub gap: f64,
}

/// The second picture at μ_a = [`MU_A`]: the closed-form approximations (probit, MacKay), the
/// Monte-Carlo estimates at s² = 0, 1, …, 16, the plug-in σ(μ_a) and the exact integral.
#[derive(Debug, Clone, PartialEq)]
pub struct Moderated {
    pub mu_a: f64,
    pub approximations: Vec<Series>,
    pub mc: Vec<McPoint>,
    pub plug_in: f64,
    pub exact: Series,
}

pub fn link() -> Link {
    // step 0.02 over [-LINK_RANGE, LINK_RANGE]
    let xs: Vec<f64> = (-300..=300).map(|k| f64::from(k) / 50.0).collect();
    let series = |curve, f: fn(f64) -> f64| Series {
        curve,
        points: xs.iter().map(|&a| (a, f(a))).collect(),
    };
    Link {
        sigmoid: series(Curve::Sigmoid, sigmoid),
        probit: series(Curve::ProbitLink, |a| norm_cdf(SLOPE * a)),
        gap: link_gap(),
    }
}

/// The largest |σ(a) − Φ(√(π/8)·a)| over a grid of step 0.01 on [−12, 12] (about 0.018).
pub fn link_gap() -> f64 {
    (-1200..=1200)
        .map(|k| f64::from(k) / 100.0)
        .map(|a| (sigmoid(a) - norm_cdf(SLOPE * a)).abs())
        .fold(0.0, f64::max)
}

pub fn moderated(seed: u64) -> Moderated {
    let gh = GaussHermite::new(64);
    let vars: Vec<f64> = (0..=160).map(|k| f64::from(k) * MAX_VAR / 160.0).collect();
    let series = |curve, f: &dyn Fn(f64) -> f64| Series {
        curve,
        points: vars.iter().map(|&v| (v, f(v))).collect(),
    };
    let coarse: Vec<f64> = (0..=16).map(|k| f64::from(k) * MAX_VAR / 16.0).collect();
    Moderated {
        mu_a: MU_A,
        approximations: vec![
            series(Curve::Probit, &|v| probit_approx(MU_A, v)),
            series(Curve::MacKay, &|v| mackay(MU_A, v)),
        ],
        mc: monte_carlo(seed, &coarse),
        plug_in: sigmoid(MU_A),
        exact: series(Curve::Exact, &|v| logistic_normal(MU_A, v, &gh)),
    }
}

/// The Monte-Carlo estimate at each variance, [`MC_DRAWS`] draws each from the stream
/// "predictive-formulas/mc" of the seed.
pub fn monte_carlo(seed: u64, vars: &[f64]) -> Vec<McPoint> {
    let mut rng = bayeslab_core::numeric::rng::stream(seed, "predictive-formulas/mc");
    vars.iter()
        .map(|&v| {
            let p: Vec<f64> = (0..MC_DRAWS)
                .map(|_| {
                    let z: f64 = StandardNormal.sample(&mut rng);
                    sigmoid(MU_A + v.sqrt() * z)
                })
                .collect();
            let mean = p.iter().sum::<f64>() / MC_DRAWS as f64;
            let var = p.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (MC_DRAWS - 1) as f64;
            McPoint {
                var: v,
                mean,
                se: (var / MC_DRAWS as f64).sqrt(),
            }
        })
        .collect()
}
