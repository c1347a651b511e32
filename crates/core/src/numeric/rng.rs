//! Seeded random streams. Every stream derives from the experiment seed and a label
//! (for example the run id and the purpose), so the same TOML gives the same numbers
//! whatever order the methods run in.

use rand::{Rng, RngExt, SeedableRng};

/// The generator used everywhere: xoshiro256++ has a fixed, documented output
/// sequence, so seeds stay reproducible across versions of `rand`.
pub type Stream = rand::rngs::Xoshiro256PlusPlus;

/// A stream for `label` under the experiment `seed` (FNV-1a of the label mixed into the seed
/// by SplitMix64's finaliser).
pub fn stream(seed: u64, label: &str) -> Stream {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in label.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    let mut z = seed ^ h;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    Stream::seed_from_u64(z)
}

/// The `index`-th independent stream under `base` (a value drawn from a parent stream), for
/// work split into blocks: block b always gets the same numbers, whatever thread runs it.
pub fn substream(base: u64, index: u64) -> Stream {
    let mut z = base ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    Stream::seed_from_u64(z)
}

/// Fill `out` with draws of `rng.random_range(0..range)`: the same numbers from the same
/// stream, written out as rand 0.10 draws one from a range within 32 bits (Canon's method: a
/// 32-bit word times the range, whose high half is the draw; a second word only when the low
/// half could carry into it). A bootstrap draws hundreds of millions of rows, and calling into
/// rand for each was most of its serial part (issue 32); 32-bit rows halve the memory its
/// drawn resamples pass through. `range` > 0 unless `out` is empty.
pub fn fill_below<R: Rng + ?Sized>(rng: &mut R, range: u32, out: &mut [u32]) {
    debug_assert!(out.is_empty() || range > 0, "draws from an empty range");
    let wide = |word: u32| u64::from(word) * u64::from(range);
    for slot in out {
        let m = wide(rng.random::<u32>());
        let (mut draw, low) = ((m >> 32) as u32, m as u32);
        if low > range.wrapping_neg() {
            let carry = (wide(rng.random::<u32>()) >> 32) as u32;
            draw += u32::from(low.checked_add(carry).is_none());
        }
        *slot = draw;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

    #[test]
    fn streams_are_reproducible_and_distinct() {
        let a: u64 = stream(1, "laplace/mc").next_u64();
        let b: u64 = stream(1, "laplace/mc").next_u64();
        let c: u64 = stream(1, "map/mc").next_u64();
        let d: u64 = stream(2, "laplace/mc").next_u64();
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_ne!(a, d);
    }

    #[test]
    fn fill_below_draws_what_random_range_draws_from_the_same_stream() {
        // Small ranges, a bootstrap's, and ranges near 2^32 where the second word is common.
        let ranges = [1, 2, 3, 7, 200_000, (1 << 31) + 1, u32::MAX - 2, u32::MAX];
        for (k, &n) in ranges.iter().enumerate() {
            let mut ours = stream(k as u64, "fill_below");
            let mut theirs = ours.clone();
            let mut drawn = vec![0; 5_000];
            for _ in 0..20 {
                // A usize range (a bootstrap's rows) draws what a u32 range draws.
                let mut as_usize = theirs.clone();
                fill_below(&mut ours, n, &mut drawn);
                let want: Vec<u32> = (0..5_000).map(|_| theirs.random_range(0..n)).collect();
                assert_eq!(drawn, want, "n = {n}");
                let want: Vec<u32> = (0..5_000)
                    .map(|_| as_usize.random_range(0..n as usize) as u32)
                    .collect();
                assert_eq!(drawn, want, "n = {n} as usize");
            }
            // The streams are left at the same place.
            assert_eq!(ours.next_u64(), theirs.next_u64(), "n = {n}");
        }
    }
}
