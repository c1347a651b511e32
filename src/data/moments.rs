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

/// Columns whose statistics are taken in one pass together: Welford's update is a chain of
/// divisions, each waiting for the one before; four independent chains keep the divider busy
/// (issue 32: the statistics were a tenth of a large load, one chain per column).
const LOCKSTEP: usize = 4;

/// The statistics of each of `cols` (all of one length), each the same numbers, bit for bit,
/// as [`Moments`] pushed the column's values in order and the two folds would give.
pub fn column_stats(cols: &[&[f64]]) -> Vec<ColumnStats> {
    let mut out = Vec::with_capacity(cols.len());
    let mut groups = cols.chunks_exact(LOCKSTEP);
    for group in &mut groups {
        out.extend(lockstep::<LOCKSTEP>(
            group.try_into().expect("a full group"),
        ));
    }
    for col in groups.remainder() {
        out.extend(lockstep::<1>([col]));
    }
    out
}

/// [`column_stats`] of `K` columns, their rows pushed in turn (indexed: row i of each column).
#[allow(clippy::needless_range_loop)]
fn lockstep<const K: usize>(cols: [&[f64]; K]) -> [ColumnStats; K] {
    let rows = cols[0].len();
    assert!(
        cols.iter().all(|c| c.len() == rows),
        "columns of one length"
    );
    let mut m: [Moments; K] = std::array::from_fn(|_| Moments::default());
    let (mut min, mut max) = ([f64::INFINITY; K], [f64::NEG_INFINITY; K]);
    for i in 0..rows {
        for k in 0..K {
            let v = cols[k][i];
            m[k].push(v);
            min[k] = min[k].min(v);
            max[k] = max[k].max(v);
        }
    }
    std::array::from_fn(|k| {
        let (mean, sd) = m[k].mean_sd();
        ColumnStats {
            mean,
            sd,
            min: min[k],
            max: max[k],
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
        let cols = columns();
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
}
