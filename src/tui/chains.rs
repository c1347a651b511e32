//! A sampler's chains as the Live screen shows them: per chain, the trace of a few weights
//! over every sweep, and their kept draws, from which the split-R-hat of each traced weight
//! (model/diagnostics.rs) is recomputed as draws arrive. Both buffers halve their resolution
//! when full, so memory stays bounded however long the run.

use crate::data::INTERCEPT;
use crate::model::diagnostics::split_rhat;
use crate::optim::{DrawBatch, Schedule};

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

/// A sequence offered value by value (indices 0, 1, 2, ...) that holds only the values at
/// indices 0, s, 2s, ... for a stride s that doubles — dropping every other held value —
/// whenever more than `cap` would be held. The held values stay evenly spaced over
/// everything seen, in at most `cap` slots.
#[derive(Debug, Clone, PartialEq)]
pub struct Decimated<T> {
    cap: usize,
    stride: usize,
    seen: usize,
    values: Vec<T>,
}

impl<T> Decimated<T> {
    pub fn new(cap: usize) -> Self {
        Decimated {
            cap: cap.max(2),
            stride: 1,
            seen: 0,
            values: Vec::new(),
        }
    }

    pub fn push(&mut self, value: T) {
        if self.seen.is_multiple_of(self.stride) {
            self.values.push(value);
            if self.values.len() > self.cap {
                let mut position = 0;
                self.values.retain(|_| {
                    position += 1;
                    position % 2 == 1
                });
                self.stride *= 2;
            }
        }
        self.seen += 1;
    }

    /// How many values were offered.
    pub fn seen(&self) -> usize {
        self.seen
    }

    pub fn stride(&self) -> usize {
        self.stride
    }

    pub fn len(&self) -> usize {
        self.values.len()
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// (index, value) of every held value.
    pub fn iter(&self) -> impl Iterator<Item = (usize, &T)> {
        let stride = self.stride;
        self.values
            .iter()
            .enumerate()
            .map(move |(i, v)| (i * stride, v))
    }
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
        let stride = self
            .chains
            .iter()
            .map(|c| c.kept.stride())
            .max()
            .unwrap_or(1);
        let held: Vec<Vec<&Vec<f64>>> = self
            .chains
            .iter()
            .map(|c| {
                c.kept
                    .iter()
                    .filter(|&(k, _)| k < n && k.is_multiple_of(stride))
                    .map(|(_, w)| w)
                    .collect()
            })
            .collect();
        self.rhat_draws = n;
        for j in 0..self.names.len() {
            self.rhat[j] = match held.first().map_or(0, Vec::len) {
                0..4 => f64::NAN,
                _ => split_rhat(
                    &held
                        .iter()
                        .map(|c| c.iter().map(|w| w[j]).collect())
                        .collect::<Vec<Vec<f64>>>(),
                ),
            };
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numeric::rng::stream;
    use crate::record::Diagnostics;
    use rand_distr::{Distribution, StandardNormal};

    fn schedule(chains: usize, draws: usize, burn_in: usize, thin: usize) -> Schedule {
        Schedule {
            chains,
            draws,
            burn_in,
            thin,
        }
    }

    /// Feed `draws[c]` (one value per sweep and traced weight) as batches of `size` sweeps,
    /// chains taking turns.
    fn feed(t: &mut ChainTraces, draws: &[Vec<Vec<f64>>], size: usize) {
        let longest = draws.iter().map(Vec::len).max().unwrap_or(0);
        for start in (0..longest).step_by(size) {
            for (c, d) in draws.iter().enumerate() {
                let w: Vec<Vec<f64>> = d.iter().skip(start).take(size).cloned().collect();
                if !w.is_empty() {
                    t.push(&DrawBatch {
                        chain: c,
                        schedule: t.schedule,
                        first_sweep: start + 1,
                        w,
                    });
                }
            }
        }
    }

    fn noise(seed: &str, n: usize) -> Vec<f64> {
        let mut rng = stream(3, seed);
        (0..n)
            .map(|_| StandardNormal.sample(&mut rng))
            .collect::<Vec<f64>>()
    }

    fn column(d: &[Vec<f64>], j: usize) -> Vec<f64> {
        d.iter().map(|w| w[j]).collect()
    }

    /// The stride at which a buffer of RHAT_DRAWS slots holds n values: it doubles each
    /// time one more value than it has room for arrives.
    fn stride_for(n: usize) -> usize {
        let mut stride = 1;
        while n > RHAT_DRAWS * stride {
            stride *= 2;
        }
        stride
    }

    #[test]
    fn the_features_are_traced_before_the_intercept() {
        let cols = |names: &[&str]| names.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            traced_weights(&cols(&["intercept", "a", "b", "c", "d"])),
            [1, 2, 3]
        );
        assert_eq!(traced_weights(&cols(&["intercept", "a"])), [1, 0]);
        assert_eq!(traced_weights(&cols(&["a", "b"])), [0, 1]);
        assert!(traced_weights(&[]).is_empty());
    }

    #[test]
    fn decimation_keeps_evenly_spaced_values_in_bounded_memory() {
        let mut d = Decimated::new(100);
        for i in 0..100_000usize {
            d.push(i);
            assert!(d.len() <= 100);
        }
        assert_eq!(d.seen(), 100_000);
        let s = d.stride();
        assert!(s.is_power_of_two());
        // Every held value sits at its index, the indices are 0, s, 2s, ... and they reach
        // the end of what was seen.
        assert!(d.iter().all(|(i, &v)| i == v));
        let held: Vec<usize> = d.iter().map(|(i, _)| i).collect();
        assert_eq!(held, (0..d.len()).map(|k| k * s).collect::<Vec<_>>());
        assert!(held.last().unwrap() + s >= 100_000);
        assert!(d.len() > 50, "at least half the slots stay in use");
    }

    #[test]
    fn identical_chains_have_rhat_one() {
        let x = noise("same", 1000);
        let chain: Vec<Vec<f64>> = x.iter().map(|&v| vec![v]).collect();
        let mut t = ChainTraces::new(schedule(4, 1000, 0, 1), vec!["a".into()]);
        feed(&mut t, &vec![chain; 4], 37);
        t.update_rhat();
        assert_eq!(t.kept(), 1000);
        assert!((t.rhat[0] - 1.0).abs() < 0.01, "{}", t.rhat[0]);
    }

    #[test]
    fn chains_with_different_means_have_a_large_rhat_and_only_kept_draws_count() {
        // Four chains around 0, 1, 2, 3 with 100 burn-in sweeps at 50 + c, thinned by 2:
        // the live R-hat is split_rhat of the kept draws alone (sweeps 101, 103, ...).
        let s = schedule(4, 400, 100, 2);
        let draws: Vec<Vec<Vec<f64>>> = (0..4)
            .map(|c| {
                let x = noise(&format!("c{c}"), s.sweeps());
                (0..s.sweeps())
                    .map(|i| match i < 100 {
                        true => vec![50.0 + c as f64, 0.0],
                        false => vec![x[i] + c as f64, x[i]],
                    })
                    .collect()
            })
            .collect();
        let mut t = ChainTraces::new(s, vec!["apart".into(), "together".into()]);
        feed(&mut t, &draws, 64);
        t.update_rhat();
        let kept: Vec<Vec<Vec<f64>>> = draws
            .iter()
            .map(|d| (100..s.sweeps()).step_by(2).map(|i| d[i].clone()).collect())
            .collect();
        assert_eq!(t.kept(), 400);
        for j in 0..2 {
            let want = split_rhat(&kept.iter().map(|d| column(d, j)).collect::<Vec<_>>());
            assert_eq!(t.rhat[j], want, "weight {j}");
        }
        assert!(t.rhat[0] > 1.5, "{}", t.rhat[0]);
        // The second weight: every chain's own noise around the same mean, so mixed.
        assert!(t.rhat[1] < 1.02, "{}", t.rhat[1]);
        assert_eq!(t.rhat_max(), Some(t.rhat[0]));
    }

    #[test]
    fn two_separated_chains_match_the_rhat_worked_by_hand() {
        // Chains 1, 2, 3, 4 and 5, 6, 7, 8: ranks r = 1..8 become z_r = Phi^-1((r - 3/8) /
        // 8.25); the split chains are (z1, z2), (z3, z4), (z5, z6), (z7, z8), n = 2.
        // W = mean of (a - b)^2 / 2, var+ = (n - 1)/n W + var(means), R-hat = sqrt(var+ / W):
        // about 3.00 (z = -1.434, -0.853, -0.473, -0.153 and their mirror images).
        use statrs::distribution::{ContinuousCDF, Normal};
        let normal = Normal::new(0.0, 1.0).unwrap();
        let z: Vec<f64> = (1..=8)
            .map(|r| normal.inverse_cdf((r as f64 - 0.375) / 8.25))
            .collect();
        let w = z
            .chunks(2)
            .map(|p| (p[0] - p[1]).powi(2) / 2.0)
            .sum::<f64>()
            / 4.0;
        let means: Vec<f64> = z.chunks(2).map(|p| (p[0] + p[1]) / 2.0).collect();
        let grand = means.iter().sum::<f64>() / 4.0;
        let var_means = means.iter().map(|m| (m - grand).powi(2)).sum::<f64>() / 3.0;
        let want = ((0.5 * w + var_means) / w).sqrt();
        assert!((want - 3.0).abs() < 0.01, "{want}");
        let mut t = ChainTraces::new(schedule(2, 4, 0, 1), vec!["w".into()]);
        let chain = |from: usize| (from..from + 4).map(|v| vec![v as f64]).collect();
        feed(&mut t, &[chain(1), chain(5)], 4);
        assert!((t.rhat[0] - want).abs() < 1e-12, "{} vs {want}", t.rhat[0]);
        assert!(t.rhat_max().is_some_and(|r| r > Diagnostics::RHAT_LIMIT));
    }

    #[test]
    fn rhat_uses_the_draws_every_chain_has_at_a_common_stride() {
        // 5000 kept draws per chain exceed RHAT_DRAWS: the buffers thin them; chain 3 lags
        // at 3000 draws, so R-hat covers draws 0, s, 2s, ... < 3000 of every chain, s the
        // coarsest stride (that of the 5000-draw chains).
        let s = schedule(4, 5000, 0, 1);
        let draws: Vec<Vec<Vec<f64>>> = (0..4)
            .map(|c| {
                let n = if c == 3 { 3000 } else { 5000 };
                noise(&format!("l{c}"), n)
                    .iter()
                    .enumerate()
                    .map(|(i, &v)| vec![v + (i as f64 / 2000.0) * c as f64])
                    .collect()
            })
            .collect();
        let mut t = ChainTraces::new(s, vec!["w".into()]);
        feed(&mut t, &draws, 250);
        t.update_rhat();
        assert_eq!(t.kept(), 3000);
        assert!(t.chains.iter().all(|c| c.kept.len() <= RHAT_DRAWS));
        assert!(t.chains.iter().all(|c| c.trace.len() <= TRACE_POINTS));
        let stride = t.chains.iter().map(|c| c.kept.stride()).max().unwrap();
        assert_eq!(stride, stride_for(5000));
        assert!(
            stride > stride_for(3000),
            "the chains hold different strides"
        );
        let sub: Vec<Vec<f64>> = draws
            .iter()
            .map(|d| (0..3000).step_by(stride).map(|i| d[i][0]).collect())
            .collect();
        assert_eq!(t.rhat[0], split_rhat(&sub));
    }

    #[test]
    fn rhat_is_recomputed_as_draws_arrive_and_falls_as_chains_meet() {
        // Chains started 3 sd apart whose offsets decay as 0.99^t: the early R-hat flags
        // them, later ones settle towards 1; updates come every RHAT_EVERY draws or 10 %.
        let s = schedule(4, 3000, 0, 1);
        let draws: Vec<Vec<Vec<f64>>> = (0..4)
            .map(|c| {
                noise(&format!("m{c}"), 3000)
                    .iter()
                    .enumerate()
                    .map(|(i, &v)| vec![v + 3.0 * c as f64 * 0.99f64.powi(i as i32)])
                    .collect()
            })
            .collect();
        let mut t = ChainTraces::new(s, vec!["w".into()]);
        assert!(t.rhat[0].is_nan());
        let mut seen: Vec<(usize, f64)> = Vec::new();
        for start in (0..3000).step_by(10) {
            for (c, d) in draws.iter().enumerate() {
                t.push(&DrawBatch {
                    chain: c,
                    schedule: s,
                    first_sweep: start + 1,
                    w: d[start..start + 10].to_vec(),
                });
            }
            if seen.last().is_none_or(|l| l.0 != t.rhat_draws) {
                seen.push((t.rhat_draws, t.rhat[0]));
            }
        }
        let updates: Vec<usize> = seen.iter().map(|s| s.0).collect();
        assert_eq!(&updates[..4], [10, 40, 70, 100]);
        assert!(updates
            .windows(2)
            .all(|w| w[1] - w[0] >= (w[0] / 10).max(RHAT_EVERY)));
        assert!(updates.len() < 60, "{} updates", updates.len());
        // Each value is split_rhat of the first n draws of every chain (thinned once more
        // than RHAT_DRAWS have arrived).
        for &(n, r) in &seen {
            let stride = stride_for(n);
            let firsts: Vec<Vec<f64>> = draws
                .iter()
                .map(|d| column(&d[..n], 0).into_iter().step_by(stride).collect())
                .collect();
            assert_eq!(r, split_rhat(&firsts), "after {n} draws");
        }
        let (early, late) = (seen[0].1, seen.last().unwrap().1);
        assert!(
            early > 1.5 && late < 1.05 && late < early,
            "{early} -> {late}"
        );
    }
}
