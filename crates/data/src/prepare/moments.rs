//! The mean and population standard deviation of a feature column, for the in-memory loader
//! ([`column_stats`]) and the streamed statistics pass alike, so both give the
//! same numbers for the same rows in the same order.
//!
//! Any finite column works, up to |x| = f64::MAX: the values are divided by a power of two
//! `scale` at or below the largest |x| seen so far (so every scaled value lies in (-2, 2)), and
//! Welford's update (Welford 1962; West 1979) runs on the scaled values. When a larger value
//! arrives the running mean and sum of squares are rescaled by the ratio of the two powers of
//! two, which is exact, so the result is Welford's on x / (final scale) however the rows come
//! in. Squaring the raw values instead overflows to an infinite sd once |x| passes about 1e154.

use bayeslab_core::numeric::{avx2_or_baseline, Kernel};

/// Running count, mean and sum of squared deviations of scaled values.
#[derive(Debug, Clone)]
pub struct Moments {
    n: usize,
    /// A power of two; every value pushed so far is below 2 * scale in magnitude.
    scale: f64,
    mean: f64,
    m2: f64,
    max_abs: f64,
}

impl Default for Moments {
    fn default() -> Self {
        Moments {
            n: 0,
            scale: f64::MIN_POSITIVE,
            mean: 0.0,
            m2: 0.0,
            max_abs: 0.0,
        }
    }
}

/// The largest power of two at or below `a` (positive and finite; at least the smallest normal
/// number, so a subnormal value divides to below 1).
fn power_of_two_below(a: f64) -> f64 {
    f64::from_bits(a.to_bits() & 0x7ff0_0000_0000_0000).max(f64::MIN_POSITIVE)
}

impl Moments {
    pub fn push(&mut self, v: f64) {
        let a = v.abs();
        self.max_abs = self.max_abs.max(a);
        if a >= 2.0 * self.scale {
            let scale = power_of_two_below(a);
            let r = self.scale / scale;
            self.mean *= r;
            self.m2 *= r * r;
            self.scale = scale;
        }
        let u = v / self.scale;
        self.n += 1;
        let delta = u - self.mean;
        self.mean += delta / self.n as f64;
        self.m2 += delta * (u - self.mean);
    }

    /// (mean, population sd); NaN for no values. Both are bounded by the largest |x| (as they
    /// are exactly), which keeps rounding from carrying them past f64::MAX.
    pub fn mean_sd(&self) -> (f64, f64) {
        if self.n == 0 {
            return (f64::NAN, f64::NAN);
        }
        let m = self.max_abs;
        let mean = (self.mean * self.scale).clamp(-m, m);
        let sd = ((self.m2 / self.n as f64).max(0.0).sqrt() * self.scale).min(m);
        (mean, sd)
    }
}

/// A design column's training statistics: mean and population sd by [`Moments`], and the
/// smallest and largest value (as `fold(INFINITY, f64::min)` and `fold(NEG_INFINITY,
/// f64::max)` find them).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ColumnStats {
    pub mean: f64,
    pub sd: f64,
    pub min: f64,
    pub max: f64,
}

/// Columns whose statistics are taken in one pass together, a vector's lanes: Welford's update
/// is a chain of divisions, each waiting for the one before; eight independent chains keep
/// the divider busy (issue 32: the statistics were a tenth of a large load, one chain per
/// column, and a quarter of its fill four scalar chains at a time).
pub const LOCKSTEP: usize = 8;

/// Rows a block of [`lockstep`] checks at once for a value that rescales its column's sums.
const BLOCK: usize = 64;

/// The statistics of each of `cols`, each the same numbers, bit for bit, as [`Moments`]
/// pushed the column's values in order and the two folds would give. Neighbouring columns of
/// one length are taken together.
pub fn column_stats(cols: &[&[f64]]) -> Vec<ColumnStats> {
    let mut out = Vec::with_capacity(cols.len());
    for group in cols.chunk_by(|a, b| a.len() == b.len()) {
        out.extend(group.chunks(LOCKSTEP).flat_map(lockstep_group));
    }
    out
}

/// [`column_stats`] of at most [`LOCKSTEP`] columns of one length.
fn lockstep_group(group: &[&[f64]]) -> Vec<ColumnStats> {
    // A short group is padded with its last column, whose repeats are dropped: each lane's
    // numbers are its own column's whatever runs beside it.
    let lanes: [&[f64]; LOCKSTEP] = std::array::from_fn(|k| group[k.min(group.len() - 1)]);
    lockstep_dispatch(lanes)
        .into_iter()
        .take(group.len())
        .collect()
}

/// [`lockstep`] with the widest vectors the processor has: the lanes' arithmetic is the same
/// IEEE operations in the same order at any width (no fused multiply-add), so the numbers are.
fn lockstep_dispatch(cols: [&[f64]; LOCKSTEP]) -> [ColumnStats; LOCKSTEP] {
    avx2_or_baseline(Lockstep(cols))
}

/// The columns of [`lockstep`], for [`avx2_or_baseline`].
struct Lockstep<'a>([&'a [f64]; LOCKSTEP]);

impl Kernel for Lockstep<'_> {
    type Output = [ColumnStats; LOCKSTEP];

    #[inline(always)]
    fn run<const FMA: bool>(self) -> [ColumnStats; LOCKSTEP] {
        lockstep(self.0)
    }
}

/// The running sums of `K` columns pushed a row at a time ([`Moments`]' fields, one lane each;
/// the count is shared).
struct Lanes<const K: usize> {
    n: usize,
    scale: [f64; K],
    mean: [f64; K],
    m2: [f64; K],
    max_abs: [f64; K],
    min: [f64; K],
    max: [f64; K],
}

// Lane k of several arrays at once: indexed, so that each step reads as Moments::push's.
#[allow(clippy::needless_range_loop)]
impl<const K: usize> Lanes<K> {
    fn new() -> Self {
        let m = Moments::default();
        Lanes {
            n: 0,
            scale: [m.scale; K],
            mean: [m.mean; K],
            m2: [m.m2; K],
            max_abs: [m.max_abs; K],
            min: [f64::INFINITY; K],
            max: [f64::NEG_INFINITY; K],
        }
    }

    /// Rows `block` (a row's values of each lane, side by side), none of which rescales its
    /// lane (checked by the caller): the steps of [`Moments::push`] without the rescaling
    /// branch, so that they run as vectors. `v / scale` is taken as `v * (1 / scale)`: the
    /// scale is a power of two whose reciprocal is exact, so both are the one real number
    /// rounded once.
    #[inline(always)]
    fn steady(&mut self, block: &[[f64; K]]) {
        let inv: [f64; K] = std::array::from_fn(|k| 1.0 / self.scale[k]);
        for row in block {
            self.n += 1;
            let n = self.n as f64;
            for k in 0..K {
                let v = row[k];
                self.max_abs[k] = self.max_abs[k].max(v.abs());
                let u = v * inv[k];
                let delta = u - self.mean[k];
                self.mean[k] += delta / n;
                self.m2[k] += delta * (u - self.mean[k]);
                self.min[k] = self.min[k].min(v);
                self.max[k] = self.max[k].max(v);
            }
        }
    }

    /// Rows `rows` of `cols` through [`Moments::push`] itself, a lane at a time.
    fn each(&mut self, cols: &[&[f64]; K], rows: std::ops::Range<usize>) {
        for k in 0..K {
            let mut m = self.moments(k);
            for &v in &cols[k][rows.clone()] {
                m.push(v);
                self.min[k] = self.min[k].min(v);
                self.max[k] = self.max[k].max(v);
            }
            (self.scale[k], self.mean[k]) = (m.scale, m.mean);
            (self.m2[k], self.max_abs[k]) = (m.m2, m.max_abs);
        }
        self.n += rows.len();
    }

    /// Lane `k`'s running sums.
    fn moments(&self, k: usize) -> Moments {
        Moments {
            n: self.n,
            scale: self.scale[k],
            mean: self.mean[k],
            m2: self.m2[k],
            max_abs: self.max_abs[k],
        }
    }

    /// Whether a value of `block` would rescale its lane: at least twice its scale, as
    /// [`Moments::push`] asks (a NaN never does).
    #[inline(always)]
    fn rescales(&self, block: &[[f64; K]]) -> bool {
        let mut big = [0.0_f64; K];
        for row in block {
            for k in 0..K {
                big[k] = big[k].max(row[k].abs());
            }
        }
        (0..K).fold(false, |any, k| any | (big[k] >= 2.0 * self.scale[k]))
    }
}

/// [`column_stats`] of `K` columns, their rows pushed in turn, a block of rows at a time: a
/// block where no value rescales its column's sums (all but a few of a column's first) takes
/// the vector steps, any other the scalar ones.
#[inline(always)]
fn lockstep<const K: usize>(cols: [&[f64]; K]) -> [ColumnStats; K] {
    let rows = cols[0].len();
    assert!(
        cols.iter().all(|c| c.len() == rows),
        "columns of one length"
    );
    let mut lanes = Lanes::<K>::new();
    // A block's rows side by side, so that a row's lanes load as one vector.
    let mut rows_of = [[0.0; K]; BLOCK];
    for start in (0..rows).step_by(BLOCK) {
        let end = (start + BLOCK).min(rows);
        let block = &mut rows_of[..end - start];
        for (k, col) in cols.iter().enumerate() {
            for (row, &v) in block.iter_mut().zip(&col[start..end]) {
                row[k] = v;
            }
        }
        match lanes.rescales(block) {
            false => lanes.steady(block),
            true => lanes.each(&cols, start..end),
        }
    }
    std::array::from_fn(|k| {
        let (mean, sd) = lanes.moments(k).mean_sd();
        ColumnStats {
            mean,
            sd,
            min: lanes.min[k],
            max: lanes.max[k],
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kind of value a column may hold: ordinary numbers, a constant run, values that
    /// rescale the running sums (near f64::MAX, subnormal), signed zeros, and NaN.
    fn columns() -> Vec<Vec<f64>> {
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64 - 0.5
        };
        let rows = 1_003;
        let mut cols: Vec<Vec<f64>> = (0..6)
            .map(|k| (0..rows).map(|_| next() * 10f64.powi(k)).collect())
            .collect();
        cols.push(vec![3.5; rows]);
        let mut huge: Vec<f64> = (0..rows).map(|_| next() * 1e300).collect();
        huge[500] = f64::MAX;
        huge[700] = -f64::MAX;
        cols.push(huge);
        cols.push((0..rows).map(|_| next() * 1e-310).collect());
        let mut zeros = vec![0.0; rows];
        zeros[3] = -0.0;
        cols.push(zeros);
        let mut nan = cols[0].clone();
        nan[17] = f64::NAN;
        cols.push(nan);
        cols
    }

    #[test]
    fn lockstep_statistics_equal_one_column_at_a_time() {
        let mut cols = columns();
        // A shorter column among them: neighbours of one length are taken together.
        cols.insert(3, cols[0][..400].to_vec());
        // Every count of columns, so that every group size and remainder is met.
        for n in 0..=cols.len() {
            let slices: Vec<&[f64]> = cols[..n].iter().map(Vec::as_slice).collect();
            let got = column_stats(&slices);
            assert_eq!(got.len(), n);
            for (col, s) in cols.iter().zip(&got) {
                let mut m = Moments::default();
                col.iter().for_each(|&v| m.push(v));
                let (mean, sd) = m.mean_sd();
                let min = col.iter().copied().fold(f64::INFINITY, f64::min);
                let max = col.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                for (a, b) in [(s.mean, mean), (s.sd, sd), (s.min, min), (s.max, max)] {
                    assert_eq!(a.to_bits(), b.to_bits(), "{a} against {b}");
                }
            }
        }
    }

    #[test]
    fn every_vector_width_gives_the_same_numbers() {
        // The build's baseline vectors and, where the processor has them, AVX2's.
        let cols = columns();
        let lanes: [&[f64]; LOCKSTEP] = std::array::from_fn(|k| cols[k].as_slice());
        let (a, b) = (lockstep(lanes), lockstep_dispatch(lanes));
        for (x, y) in a.iter().zip(&b) {
            for (p, q) in [
                (x.mean, y.mean),
                (x.sd, y.sd),
                (x.min, y.min),
                (x.max, y.max),
            ] {
                assert_eq!(p.to_bits(), q.to_bits());
            }
        }
    }
}
