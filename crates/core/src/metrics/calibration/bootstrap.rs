//! The bootstrap of the binned ECE over rows (docs/maths.md §12.1): its bias-corrected value and
//! 95 % interval, from resamples whose ECEs are those of the rows gathered and binned (to
//! rounding: a tallied resample sums its rows in (bin, label) order), without gathering them.

use rand::{Rng, RngExt};

use super::{equal_width_bin, equal_width_edges, reliability, BinSums, Binning};

/// The binned ECE corrected for its bias, and an interval around it, from a bootstrap over
/// rows (docs/maths.md §12.1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EceBootstrap {
    /// 2 ECE − mean of the resampled ECEs, at least 0: the binned ECE minus its bootstrap
    /// estimate of bias (a binned ECE is biased upward: noise in a bin's frequency only adds).
    pub debiased: f64,
    /// The 95 % basic bootstrap interval [2 ECE − q97.5, 2 ECE − q2.5], at least 0: it
    /// corrects the same bias, so it brackets `debiased` where the percentile interval of the
    /// resampled ECEs would sit above the estimate.
    pub interval: [f64; 2],
}

/// [`EceBootstrap`] of predictions `p` for labels `y` over rows resampled with replacement,
/// `resamples` times. One number is drawn from `rng`; resample b draws its rows from its own
/// stream under it ([`crate::numeric::rng::substream`]), so the resamples run on every thread
/// and the result does not depend on how many there are (issue 32: drawn from one stream, the
/// rows of a large test set were a floor of two thirds of a second on one core). With labels
/// of 0 and 1 and equal-width bins, each draw is a position in (bin, label) order and a
/// resample is tallied by row ([`ByCell`]); otherwise each draw is a row.
pub fn ece_bootstrap<R: Rng + ?Sized>(
    p: &[f64],
    y: &[f64],
    bins: usize,
    binning: Binning,
    resamples: usize,
    rng: &mut R,
) -> EceBootstrap {
    use rayon::prelude::*;
    let ece = reliability(p, y, bins, binning).ece;
    let resampler = Resampler::new(p, y, bins, binning);
    // Built here, not with every resampler: the paired bootstrap's resamplers never tally.
    let by_cell = (!resampler.packed.is_empty()).then(|| ByCell::new(&resampler.packed, 2 * bins));
    let base = rng.next_u64();
    let mut eces: Vec<f64> = (0..resamples)
        .into_par_iter()
        .map_init(Scratch::default, |scratch, b| {
            let mut rows = crate::numeric::rng::substream(base, b as u64);
            match &by_cell {
                Some(by_cell) => by_cell.resample_ece(bins, &mut rows, scratch),
                None => {
                    resampler.ece_in((0..p.len()).map(|_| rows.random_range(0..p.len())), scratch)
                }
            }
        })
        .collect();
    eces.sort_by(f64::total_cmp);
    let mean = eces.iter().sum::<f64>() / eces.len().max(1) as f64;
    let reflect = |q: f64| (2.0 * ece - percentile(&eces, q)).max(0.0);
    EceBootstrap {
        debiased: (2.0 * ece - mean).max(0.0),
        interval: [reflect(0.975), reflect(0.025)],
    }
}

/// The ECE of resamples of one set of rows: `reliability(..).ece` of the rows gathered in the
/// order given, bit for bit, without gathering them when the bins are of equal width (each
/// row's bin is found once, and the sums are added in the same order).
pub struct Resampler<'a> {
    p: &'a [f64],
    y: &'a [f64],
    bins: usize,
    binning: Binning,
    /// Each row's equal-width bin; empty for equal-mass bins, which depend on the resample.
    bin_of: Vec<u32>,
    /// Equal-width bins and labels 0 or 1 (binary labels, top-label hits): each row's
    /// prediction, bin and label side by side, so that a resampled row is one memory read.
    packed: Vec<Packed>,
    /// What [`Self::ece`] works in.
    scratch: Scratch,
}

/// The rows ordered by their (bin, label) code, each code's rows in row order: a resample is
/// tallied as how many times each of these rows was drawn, and each code's sums run over its
/// own stretch of rows. A resample's rows were gathered from a table of the test rows at random
/// (200,000 rows of 16 bytes: beyond the core's cache, and most of the bootstrap's time);
/// counting the draws touches a quarter of the bytes, and the sums then read in order.
struct ByCell {
    /// Predictions in code order.
    p: Vec<f64>,
    /// Code c's rows are `starts[c]..starts[c + 1]` of `p`.
    starts: Vec<usize>,
}

impl ByCell {
    fn new(packed: &[Packed], codes: usize) -> Self {
        let mut starts = vec![0; codes + 1];
        for r in packed {
            starts[r.code as usize + 1] += 1;
        }
        for c in 0..codes {
            starts[c + 1] += starts[c];
        }
        let mut next = starts.clone();
        let mut p = vec![0.0; packed.len()];
        for r in packed {
            p[next[r.code as usize]] = r.p;
            next[r.code as usize] += 1;
        }
        ByCell { p, starts }
    }

    /// The ECE of one resample of all rows: `n` positions in code order drawn from `rng` as
    /// `random_range(0..n)` draws them.
    fn resample_ece<R: Rng + ?Sized>(
        &self,
        bins: usize,
        rng: &mut R,
        scratch: &mut Scratch,
    ) -> f64 {
        let n = self.p.len();
        let times = &mut scratch.times;
        times.clear();
        times.resize(n, 0);
        let drawn = &mut scratch.drawn;
        drawn.resize(GATHER.min(n), 0);
        let mut left = n;
        while left > 0 {
            let block = &mut drawn[..left.min(GATHER)];
            // Packed rows number at most u32::MAX.
            crate::numeric::rng::fill_below(rng, n as u32, block);
            block.iter().for_each(|&j| times[j as usize] += 1);
            left -= block.len();
        }
        let mut sums = BinSums::new(bins);
        for (code, w) in self.starts.windows(2).enumerate() {
            let (t, p) = (&times[w[0]..w[1]], &self.p[w[0]..w[1]]);
            let count: usize = t.iter().map(|&k| k as usize).sum();
            let bin = code >> 1;
            sums.count[bin] += count;
            sums.sum_p[bin] += weighted_sum(t, p);
            if code & 1 == 1 {
                sums.sum_y[bin] += count as f64;
            }
        }
        sums.finish(equal_width_edges(bins), n).ece
    }
}

/// Σ times[i] · p[i], in four running sums (the one chain of additions was the pass's pace).
fn weighted_sum(times: &[u32], p: &[f64]) -> f64 {
    let mut acc = [0.0f64; 4];
    let (t4, p4) = (times.chunks_exact(4), p.chunks_exact(4));
    let rest: f64 = (t4.remainder().iter().zip(p4.remainder()))
        .map(|(&k, &q)| f64::from(k) * q)
        .sum();
    for (t, q) in t4.zip(p4) {
        for k in 0..4 {
            acc[k] += f64::from(t[k]) * q[k];
        }
    }
    (acc[0] + acc[1]) + (acc[2] + acc[3]) + rest
}

/// A resample's working memory, kept from one resample to the next (fresh buffers would be
/// fresh pages: a page fault per 1,024 rows drawn).
#[derive(Default)]
struct Scratch {
    /// A resample's rows, drawn before they are read: the reads then do not wait on each other.
    drawn: Vec<u32>,
    /// How many times each row (in code order, [`ByCell`]) was drawn.
    times: Vec<u32>,
    /// Equal-mass bins: the resample's predictions and labels, gathered.
    gathered: (Vec<f64>, Vec<f64>),
}

/// A row for [`Resampler`]: its prediction, and its bin and label as `2 * bin + label`.
#[derive(Clone, Copy)]
struct Packed {
    p: f64,
    code: u32,
}

/// The most bins whose (bin, label) code fits a packed row's 32 bits.
const MAX_PACKED_BINS: usize = (u32::MAX >> 1) as usize;

/// Rows gathered at once by [`Resampler::packed_ece`], and drawn at once by
/// [`ByCell::resample_ece`]: 16 KiB of packed rows, 4 KiB of positions, within the first-level
/// cache.
const GATHER: usize = 1024;

impl<'a> Resampler<'a> {
    pub fn new(p: &'a [f64], y: &'a [f64], bins: usize, binning: Binning) -> Self {
        let bin_of = match binning {
            Binning::EqualWidth => p.iter().map(|&q| equal_width_bin(q, bins) as u32).collect(),
            Binning::EqualMass => Vec::new(),
        };
        // Rows are drawn as 32-bit numbers ([`crate::numeric::rng::fill_below`]).
        let zero_one = y.iter().all(|&v| v == 0.0 || v == 1.0)
            && bins <= MAX_PACKED_BINS
            && u32::try_from(p.len()).is_ok();
        let packed = match zero_one {
            true => (bin_of.iter().zip(p).zip(y))
                .map(|((&b, &p), &y)| Packed {
                    p,
                    code: b << 1 | u32::from(y == 1.0),
                })
                .collect(),
            false => Vec::new(),
        };
        Resampler {
            p,
            y,
            bins,
            binning,
            bin_of,
            packed,
            scratch: Scratch::default(),
        }
    }

    /// The ECE of packed rows `rows` (equal-width bins, labels 0 or 1).
    fn packed_ece(&self, rows: &[u32]) -> f64 {
        // Rows of each (bin, label), and each bin's predictions added in the draw order. The
        // labels' sum in a bin is its count of ones, whatever the order (every partial sum of
        // 0s and 1s is a whole number below 2^53, so exact): the same BinSums bit for bit as
        // adding row by row, with one counter to step per row, not two (issue 32). No branch on
        // a label either: a coin flip, mispredicted half the time, was half of the time.
        let mut counts = vec![0usize; 2 * self.bins];
        let mut sum_p = vec![0.0; self.bins];
        // The rows are gathered a block at a time and then added in the same order: the reads
        // of a loop that carries no sum overlap one another (issue 32: adding as each row was
        // read left it waiting on every read).
        let mut block = [Packed { p: 0.0, code: 0 }; GATHER];
        for part in rows.chunks(GATHER) {
            for (slot, &i) in block.iter_mut().zip(part) {
                *slot = self.packed[i as usize];
            }
            for r in &block[..part.len()] {
                counts[r.code as usize] += 1;
                sum_p[(r.code >> 1) as usize] += r.p;
            }
        }
        let sums = BinSums {
            count: counts.chunks(2).map(|c| c[0] + c[1]).collect(),
            sum_p,
            sum_y: counts.chunks(2).map(|c| c[1] as f64).collect(),
        };
        sums.finish(equal_width_edges(self.bins), rows.len()).ece
    }

    /// The ECE of the rows `rows` (with repeats), in that order.
    pub fn ece(&mut self, rows: impl Iterator<Item = usize>) -> f64 {
        let mut scratch = std::mem::take(&mut self.scratch);
        let ece = self.ece_in(rows, &mut scratch);
        self.scratch = scratch;
        ece
    }

    /// [`Self::ece`] working in `scratch`.
    fn ece_in(&self, rows: impl Iterator<Item = usize>, scratch: &mut Scratch) -> f64 {
        match self.binning {
            Binning::EqualWidth if !self.packed.is_empty() => {
                let drawn = &mut scratch.drawn;
                drawn.clear();
                // Packed rows number at most u32::MAX.
                drawn.extend(rows.map(|i| i as u32));
                self.packed_ece(drawn)
            }
            Binning::EqualWidth => {
                let mut sums = BinSums::new(self.bins);
                let mut n = 0;
                for i in rows {
                    sums.add(self.bin_of[i] as usize, self.p[i], self.y[i]);
                    n += 1;
                }
                sums.finish(equal_width_edges(self.bins), n).ece
            }
            Binning::EqualMass => {
                let (ps, ys) = &mut scratch.gathered;
                ps.clear();
                ys.clear();
                for i in rows {
                    ps.push(self.p[i]);
                    ys.push(self.y[i]);
                }
                reliability(ps, ys, self.bins, self.binning).ece
            }
        }
    }
}

/// The q-quantile of sorted values by linear interpolation between order statistics.
pub fn percentile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let h = q * (sorted.len() - 1) as f64;
    let (lo, hi) = (h.floor() as usize, h.ceil() as usize);
    sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
}
