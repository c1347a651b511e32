//! The working scales u = log θ and u = logit θ. Densities with a singular or skewed edge
//! at 0 or 1 are smooth there, so distances are integrated and quantiles bisected on them.

use bayeslab_core::numeric::special::{sigmoid, softplus};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Map {
    Log,
    Logit,
}

impl Map {
    pub fn name(self) -> &'static str {
        match self {
            Map::Log => "log theta",
            Map::Logit => "logit theta",
        }
    }

    /// x = T⁻¹(u) and log |dx/du|.
    pub(super) fn inverse(self, u: f64) -> (f64, f64) {
        match self {
            Map::Log => (u.exp(), u),
            Map::Logit => (sigmoid(u), -(softplus(u) + softplus(-u))),
        }
    }

    pub(super) fn forward(self, x: f64) -> f64 {
        match self {
            Map::Log => x.ln(),
            Map::Logit => x.ln() - (-x).ln_1p(),
        }
    }
}
