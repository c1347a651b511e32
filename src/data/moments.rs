//! The mean and population standard deviation of a feature column, for the in-memory loader
//! ([`super::prepare::mean_sd`]) and the streamed statistics pass alike, so both give the
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
