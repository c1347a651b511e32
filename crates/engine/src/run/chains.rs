//! A sampler's draws on their way through the recorder, kept as its views need them: every
//! chain's trace at evenly spaced sweeps and its kept draws, turned after the fit into the
//! run's [`ChainsRecord`] (the trace and rank plot of its worst-mixing weights).

use bayeslab_core::model::diagnostics::rank_counts;
use bayeslab_core::optim::{DrawBatch, Schedule};
use bayeslab_core::record::{ChainWeight, ChainsRecord};

/// One chain: every weight at the traced sweeps, and every kept draw.
#[derive(Debug, Default)]
struct Chain {
    sweeps: Vec<usize>,
    trace: Vec<Vec<f64>>,
    kept: Vec<Vec<f64>>,
}

/// Every chain of one sampler run, as its batches arrive.
#[derive(Debug)]
pub(crate) struct ChainDraws {
    schedule: Schedule,
    /// Every `stride`-th sweep is traced (and the last), at most about TRACE_POINTS per chain.
    stride: usize,
    chains: Vec<Chain>,
}

impl ChainDraws {
    pub(crate) fn new(schedule: Schedule) -> Self {
        ChainDraws {
            schedule,
            stride: schedule
                .sweeps()
                .div_ceil(ChainsRecord::TRACE_POINTS)
                .max(1),
            chains: Vec::new(),
        }
    }

    pub(crate) fn push(&mut self, batch: &DrawBatch) {
        if batch.chain >= self.chains.len() {
            self.chains.resize_with(batch.chain + 1, Chain::default);
        }
        let last = self.schedule.sweeps();
        let chain = &mut self.chains[batch.chain];
        for (sweep, w, kept) in batch.sweeps() {
            if (sweep - 1).is_multiple_of(self.stride) || sweep == last {
                chain.sweeps.push(sweep);
                chain.trace.push(w.to_vec());
            }
            if kept {
                chain.kept.push(w.to_vec());
            }
        }
    }

    /// The record of the [`ChainsRecord::SHOWN`] weights with the largest split-R-hat `rhat`
    /// (one per design column of `columns`); `None` without two complete chains.
    pub(crate) fn finish(self, columns: &[String], rhat: &[f64]) -> Option<ChainsRecord> {
        let n = self.chains.iter().map(|c| c.kept.len()).min()?;
        if self.chains.len() < 2 || n == 0 || rhat.len() != columns.len() {
            return None;
        }
        let mut order: Vec<usize> = (0..columns.len()).collect();
        // the largest R-hat first; a NaN (draws that do not vary) last
        let key = |j: &usize| -rhat[*j].max(f64::MIN);
        order.sort_by(|a, b| key(a).total_cmp(&key(b)));
        order.truncate(ChainsRecord::SHOWN);
        order.sort_unstable();
        let bins = ChainsRecord::RANK_BINS.min(n);
        let weights = order
            .into_iter()
            .map(|j| {
                let kept: Vec<Vec<f64>> = self
                    .chains
                    .iter()
                    .map(|c| c.kept[..n].iter().map(|w| w[j]).collect())
                    .collect();
                ChainWeight {
                    column: columns[j].clone(),
                    rhat: rhat[j],
                    sweeps: self.chains[0].sweeps.clone(),
                    trace: self
                        .chains
                        .iter()
                        .map(|c| c.trace.iter().map(|w| w[j]).collect())
                        .collect(),
                    ranks: rank_counts(&kept, bins),
                }
            })
            .collect();
        Some(ChainsRecord {
            chains: self.chains.len(),
            burn_in: self.schedule.burn_in,
            draws: n,
            thin: self.schedule.thin,
            weights,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_record_traces_evenly_spaced_sweeps_and_ranks_the_kept_draws() {
        let schedule = Schedule {
            chains: 2,
            draws: 4,
            burn_in: 2,
            thin: 1,
        };
        let mut d = ChainDraws::new(schedule);
        // chain c's weights after sweep s: (s, 10 c + s, 7)
        for c in 0..2 {
            let w = (1..=6)
                .map(|s| vec![s as f64, (10 * c + s) as f64, 7.0])
                .collect();
            d.push(&DrawBatch {
                chain: c,
                schedule,
                first_sweep: 1,
                w,
            });
        }
        let columns = ["a".to_string(), "b".into(), "c".into()];
        let r = d
            .finish(&columns, &[1.0, 1.5, f64::NAN])
            .expect("two chains");
        assert_eq!((r.chains, r.burn_in, r.draws, r.sweeps()), (2, 2, 4, 6));
        let names: Vec<&str> = r.weights.iter().map(|w| w.column.as_str()).collect();
        assert_eq!(names, ["a", "b", "c"]);
        let b = &r.weights[1];
        assert_eq!(b.sweeps, [1, 2, 3, 4, 5, 6]);
        assert_eq!(b.trace[1], [11.0, 12.0, 13.0, 14.0, 15.0, 16.0]);
        // kept sweeps 3..=6: chain 0 holds 3..6, chain 1 13..16, the top half of the ranks
        assert_eq!(b.ranks, [[2, 2, 0, 0], [0, 0, 2, 2]]);
    }
}
