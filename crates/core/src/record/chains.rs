//! A sampler's chains as its views draw them (results.json `runs[].chains`): for a few
//! weights, every chain's trace over every sweep (burn-in included) and the rank plot's
//! histograms of its kept draws.

use serde::Serialize;

/// results.json `runs[].chains`: the trace and rank plot of a Gibbs run's worst-mixing weights.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ChainsRecord {
    /// Chains run, each from its own over-dispersed start.
    pub chains: usize,
    /// Sweeps discarded at the start of every chain.
    pub burn_in: usize,
    /// Kept draws per chain (one every `thin` sweeps after the burn-in).
    pub draws: usize,
    pub thin: usize,
    /// The weights shown: those with the largest split-R-hat (at most [`ChainsRecord::SHOWN`]),
    /// in design-column order.
    pub weights: Vec<ChainWeight>,
}

impl ChainsRecord {
    /// How many weights a run's trace and rank plots show.
    pub const SHOWN: usize = 4;
    /// Points per chain of a trace (every sweep when there are fewer).
    pub const TRACE_POINTS: usize = 400;
    /// Bins of a rank histogram (ArviZ's `plot_rank` uses about 20 for a thousand draws).
    pub const RANK_BINS: usize = 20;

    /// Sweeps per chain, burn-in included.
    pub fn sweeps(&self) -> usize {
        self.burn_in + self.draws * self.thin
    }
}

/// One weight's chains.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ChainWeight {
    /// The design column.
    pub column: String,
    /// Its split-R-hat over the kept draws (as `weight_diagnostics.rhat`).
    pub rhat: f64,
    /// The sweeps (from 1) the trace holds, evenly spaced, shared by every chain.
    pub sweeps: Vec<usize>,
    /// Per chain, the weight after each sweep of `sweeps`.
    pub trace: Vec<Vec<f64>>,
    /// Per chain, how many of its kept draws have their rank among every chain's kept draws
    /// in each of `RANK_BINS` equal bins (lowest ranks first): flat when the chains have mixed.
    pub ranks: Vec<Vec<usize>>,
}
