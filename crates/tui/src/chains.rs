//! A sampler's chains as the Live screen shows them: per chain, the trace of a few weights
//! over every sweep, and their kept draws, from which the split-R-hat of each traced weight
//! (model/diagnostics.rs) is recomputed as draws arrive. Both buffers halve their resolution
//! when full, so memory stays bounded however long the run.

mod decimated;
#[cfg(test)]
mod tests;

pub use decimated::Decimated;

use bayeslab_core::model::diagnostics::{rank_counts, split_rhat};
use bayeslab_core::optim::{DrawBatch, Schedule};
use bayeslab_data::INTERCEPT;

/// How many weights are traced per sampler.
pub const TRACED: usize = 3;
/// Points per chain and weight kept for the trace plot (a wide chart is ~240 Braille dots).
pub const TRACE_POINTS: usize = 512;
/// Kept draws per chain and weight held for the live R-hat: plenty for its accuracy, and a
/// recomputation stays below ~10 ms on the UI thread in the debug build.
pub const RHAT_DRAWS: usize = 1024;
/// The live R-hat is first computed once every chain has 4 kept draws, then again whenever
/// every chain has this many new ones (or 10 % more than at the last update, whichever is
/// larger): a few dozen updates per run, not one per draw.
pub const RHAT_EVERY: usize = 25;

/// The weights to trace, as design-column indices: the first [`TRACED`] features, then the
/// intercept if there are fewer features than that. The intercept mostly mixes well and
/// says little about the features.
pub fn traced_weights(columns: &[String]) -> Vec<usize> {
    let (intercept, features): (Vec<usize>, Vec<usize>) =
        (0..columns.len()).partition(|&j| columns[j] == INTERCEPT);
    features.into_iter().chain(intercept).take(TRACED).collect()
}

/// One chain's traced weights.
#[derive(Debug, Clone, PartialEq)]
pub struct Chain {
    /// After every sweep (index = sweep - 1), burn-in included.
    pub trace: Decimated<Vec<f64>>,
    /// The kept draws (index = number of kept draws before it).
    pub kept: Decimated<Vec<f64>>,
}

impl Chain {
    fn new() -> Self {
        Chain {
            trace: Decimated::new(TRACE_POINTS),
            kept: Decimated::new(RHAT_DRAWS),
        }
    }
}

/// Every chain of one sampler run, fed by [`DrawBatch`]es holding only the traced weights.
#[derive(Debug, Clone, PartialEq)]
pub struct ChainTraces {
    pub schedule: Schedule,
    /// The traced weights' names (design columns), in the order of a batch's values.
    pub names: Vec<String>,
    pub chains: Vec<Chain>,
    /// Split-R-hat per traced weight at the last update; NaN before every chain has four
    /// kept draws.
    pub rhat: Vec<f64>,
    /// Kept draws per chain at the last R-hat update.
    pub rhat_draws: usize,
}

impl ChainTraces {
    pub fn new(schedule: Schedule, names: Vec<String>) -> Self {
        ChainTraces {
            schedule,
            rhat: vec![f64::NAN; names.len()],
            names,
            chains: (0..schedule.chains).map(|_| Chain::new()).collect(),
            rhat_draws: 0,
        }
    }

    /// Take one batch; recompute R-hat when enough new draws have arrived.
    pub fn push(&mut self, batch: &DrawBatch) {
        if batch.chain >= self.chains.len() {
            self.chains.resize_with(batch.chain + 1, Chain::new);
        }
        let chain = &mut self.chains[batch.chain];
        for (_, w, kept) in batch.sweeps() {
            chain.trace.push(w.to_vec());
            if kept {
                chain.kept.push(w.to_vec());
            }
        }
        let n = self.kept();
        let due = match self.rhat_draws {
            0 => n >= 4,
            last => n >= last + (last / 10).max(RHAT_EVERY),
        };
        if due {
            self.update_rhat();
        }
    }

    /// Sweeps done by the slowest chain.
    pub fn sweeps(&self) -> usize {
        self.chains
            .iter()
            .map(|c| c.trace.seen())
            .min()
            .unwrap_or(0)
    }

    /// Kept draws of the slowest chain.
    pub fn kept(&self) -> usize {
        self.chains.iter().map(|c| c.kept.seen()).min().unwrap_or(0)
    }

    /// Split-R-hat of each traced weight over the first n kept draws of every chain, n the
    /// slowest chain's count, at the coarsest stride any chain holds (strides are powers of
    /// two, so every chain holds those draws): equal-length chains covering the same sweeps.
    pub fn update_rhat(&mut self) {
        let n = self.kept();
        let held = self.held(n);
        let rhat: Vec<f64> = (0..self.names.len())
            .map(|j| match held.first().map_or(0, Vec::len) {
                0..4 => f64::NAN,
                _ => split_rhat(
                    &held
                        .iter()
                        .map(|c| c.iter().map(|w| w[j]).collect())
                        .collect::<Vec<Vec<f64>>>(),
                ),
            })
            .collect();
        self.rhat = rhat;
        self.rhat_draws = n;
    }

    /// The first `n` kept draws of every chain at the coarsest stride any chain holds.
    fn held(&self, n: usize) -> Vec<Vec<&Vec<f64>>> {
        let stride = self
            .chains
            .iter()
            .map(|c| c.kept.stride())
            .max()
            .unwrap_or(1);
        self.chains
            .iter()
            .map(|c| {
                c.kept
                    .iter()
                    .filter(|&(k, _)| k < n && k.is_multiple_of(stride))
                    .map(|(_, w)| w)
                    .collect()
            })
            .collect()
    }

    /// The rank plot of traced weight `j` over the draws R-hat was last computed on: per
    /// chain, its draws' ranks among every chain's in `bins` equal bins (model/diagnostics.rs).
    pub fn ranks(&self, j: usize, bins: usize) -> Vec<Vec<usize>> {
        let held = self.held(self.rhat_draws);
        let chains: Vec<Vec<f64>> = held
            .iter()
            .map(|c| c.iter().map(|w| w[j]).collect())
            .collect();
        match chains.first().map_or(0, Vec::len) {
            0 => Vec::new(),
            n => rank_counts(&chains, bins.min(n)),
        }
    }

    /// The largest finite R-hat of the traced weights.
    pub fn rhat_max(&self) -> Option<f64> {
        self.rhat
            .iter()
            .copied()
            .filter(|r| r.is_finite())
            .reduce(f64::max)
    }
}
