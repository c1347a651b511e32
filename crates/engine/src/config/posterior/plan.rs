//! A validated `[[posterior]]`: the exact posterior to approximate, its data, the
//! approximations and the data subsets; and the same written back for the resolved experiment.

use std::path::{Path, PathBuf};

use super::raw::{RawColumn, RawPosterior, RawSubset};
use bayeslab_core::record::ApproxKind;

pub const DEFAULT_SHAPE: f64 = 1.0;
pub const DEFAULT_RATE: f64 = 1.0;
pub const DEFAULT_BETA: f64 = 1.0;
pub const DEFAULT_T_DF: f64 = 4.0;
pub const DEFAULT_DRAWS: usize = 10_000;
pub const DEFAULT_SCALE: f64 = 1.0;
pub const DEFAULT_PRIOR_MEAN: f64 = 0.0;
pub const DEFAULT_PRIOR_SD: f64 = 10.0;
pub const DEFAULT_STARTS: usize = 20;

#[derive(Debug, Clone, PartialEq)]
pub struct PosteriorPlan {
    pub id: String,
    pub kind: PosteriorKind,
    pub source: PosteriorSource,
    pub approximations: Vec<ApproxKind>,
    /// Data-size sweep: the first n data points in file order, or all of them.
    pub subsets: Vec<Subset>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum PosteriorKind {
    /// Poisson counts, Gamma(shape, rate) prior.
    GammaPoisson { shape: f64, rate: f64, t_df: f64 },
    /// Binomial successes, Beta(a, b) prior.
    BetaBinomial { a: f64, b: f64, t_df: f64 },
    /// LogNormal(mu, sigma²) data, p(mu, sigma²) ∝ 1/sigma²; `draws` simulations of the Gini.
    LognormalGini { draws: usize },
    /// Cauchy(theta, scale) data, N(prior_mean, prior_sd²) prior on theta; `starts` seeded
    /// Newton starts.
    MixtureLaplace {
        scale: f64,
        prior_mean: f64,
        prior_sd: f64,
        starts: usize,
    },
}

impl PosteriorKind {
    pub const NAMES: [&'static str; 4] = [
        "gamma-poisson",
        "beta-binomial",
        "lognormal-gini",
        "mixture-laplace",
    ];

    pub fn name(&self) -> &'static str {
        match self {
            PosteriorKind::GammaPoisson { .. } => Self::NAMES[0],
            PosteriorKind::BetaBinomial { .. } => Self::NAMES[1],
            PosteriorKind::LognormalGini { .. } => Self::NAMES[2],
            PosteriorKind::MixtureLaplace { .. } => Self::NAMES[3],
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum PosteriorSource {
    /// One numeric column of a CSV or Parquet file.
    Column { path: PathBuf, column: String },
    /// Inline `counts` or `values`.
    Values(Vec<f64>),
    /// Inline `successes` and `trials`.
    Binomial { successes: u64, trials: u64 },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Subset {
    First(usize),
    All,
}

impl Subset {
    pub fn label(self) -> String {
        match self {
            Subset::First(n) => n.to_string(),
            Subset::All => "all".into(),
        }
    }
}

impl PosteriorPlan {
    /// The serde mirror with every default filled in (the resolved experiment); `relative`
    /// writes a data path relative to the experiment file's folder.
    pub fn to_raw(&self, relative: &dyn Fn(&Path) -> String) -> RawPosterior {
        let mut r = RawPosterior {
            kind: self.kind.name().into(),
            id: Some(self.id.clone()),
            data: None,
            counts: None,
            successes: None,
            trials: None,
            values: None,
            shape: None,
            rate: None,
            a: None,
            b: None,
            approximations: Some(
                self.approximations
                    .iter()
                    .map(|a| a.name().into())
                    .collect(),
            ),
            t_df: None,
            subset: Some(
                self.subsets
                    .iter()
                    .map(|s| match s {
                        Subset::First(n) => RawSubset::Size(*n as i64),
                        Subset::All => RawSubset::Word("all".into()),
                    })
                    .collect(),
            ),
            draws: None,
            scale: None,
            prior_mean: None,
            prior_sd: None,
            starts: None,
        };
        match &self.source {
            PosteriorSource::Column { path, column } => {
                r.data = Some(RawColumn {
                    path: relative(path),
                    column: column.clone(),
                })
            }
            PosteriorSource::Values(v) => match self.kind {
                PosteriorKind::GammaPoisson { .. } => {
                    r.counts = Some(v.iter().map(|&c| c as i64).collect())
                }
                _ => r.values = Some(v.clone()),
            },
            PosteriorSource::Binomial { successes, trials } => {
                r.successes = Some(*successes as i64);
                r.trials = Some(*trials as i64);
                // Inline successes/trials have no subsets.
                r.subset = None;
            }
        }
        match self.kind {
            PosteriorKind::GammaPoisson { shape, rate, t_df } => {
                (r.shape, r.rate, r.t_df) = (Some(shape), Some(rate), Some(t_df))
            }
            PosteriorKind::BetaBinomial { a, b, t_df } => {
                (r.a, r.b, r.t_df) = (Some(a), Some(b), Some(t_df))
            }
            PosteriorKind::LognormalGini { draws } => r.draws = Some(draws as u64),
            PosteriorKind::MixtureLaplace {
                scale,
                prior_mean,
                prior_sd,
                starts,
            } => {
                r.scale = Some(scale);
                r.prior_mean = Some(prior_mean);
                r.prior_sd = Some(prior_sd);
                r.starts = Some(starts as u64);
            }
        }
        r
    }
}
