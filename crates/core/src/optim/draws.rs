//! What a sampler tells observers besides its iterates: the draws of every chain as they
//! arrive, in batches, with the schedule that says which of them are kept.

/// How every chain of a sampler runs: `burn_in` sweeps discarded, then `draws` kept draws,
/// one every `thin` sweeps (the `chains`, `draws`, `burn_in` and `thin` keys of a Gibbs
/// method).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Schedule {
    pub chains: usize,
    pub draws: usize,
    pub burn_in: usize,
    pub thin: usize,
}

impl Schedule {
    /// Sweeps per chain: burn_in + draws * thin.
    pub fn sweeps(&self) -> usize {
        self.burn_in + self.draws * self.thin
    }

    /// Whether sweep `sweep` (counted from 1, like iterations) gives a kept draw: sweeps
    /// burn_in + 1, burn_in + 1 + thin, ..., the last at burn_in + 1 + (draws - 1) * thin.
    pub fn keeps(&self, sweep: usize) -> bool {
        sweep > self.burn_in && (sweep - self.burn_in - 1).is_multiple_of(self.thin.max(1))
    }
}

/// The states of one chain after consecutive sweeps. Batches of one chain arrive in order;
/// batches of different chains interleave.
#[derive(Debug, Clone, PartialEq)]
pub struct DrawBatch {
    pub chain: usize,
    pub schedule: Schedule,
    /// The sweep (from 1) that produced `w[0]`.
    pub first_sweep: usize,
    /// One weight vector per sweep.
    pub w: Vec<Vec<f64>>,
}

impl DrawBatch {
    /// (sweep, weights, kept) for every sweep of the batch.
    pub fn sweeps(&self) -> impl Iterator<Item = (usize, &[f64], bool)> {
        self.w.iter().enumerate().map(|(i, w)| {
            let sweep = self.first_sweep + i;
            (sweep, w.as_slice(), self.schedule.keeps(sweep))
        })
    }

    /// The kept draws of the batch, in order.
    pub fn kept(&self) -> impl Iterator<Item = &[f64]> {
        self.sweeps().filter(|s| s.2).map(|s| s.1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_schedule_keeps_draws_sweeps_spaced_by_thin_after_the_burn_in() {
        let s = Schedule {
            chains: 2,
            draws: 4,
            burn_in: 3,
            thin: 2,
        };
        let kept: Vec<usize> = (1..=s.sweeps()).filter(|&n| s.keeps(n)).collect();
        assert_eq!(s.sweeps(), 11);
        assert_eq!(kept, [4, 6, 8, 10]);
        let batch = DrawBatch {
            chain: 1,
            schedule: s,
            first_sweep: 5,
            w: (5..=8).map(|n| vec![n as f64]).collect(),
        };
        let got: Vec<f64> = batch.kept().map(|w| w[0]).collect();
        assert_eq!(got, [6.0, 8.0]);
    }
}
