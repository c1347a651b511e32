//! The seeded draws: the true weights, and each row's x and y from its own stream, so that the
//! bytes depend on the seed alone.

use rand::{RngExt, SeedableRng};
use rand_distr::{Distribution, StandardNormal};
use rayon::prelude::*;

use super::spec::Part;
use bayeslab_core::numeric::rng::{stream, Stream};
use bayeslab_core::numeric::special::sigmoid;

/// The true weights of `seed`: w_j = z_j / 2 with z_j ~ N(0, 1).
pub fn true_weights(seed: u64, features: usize) -> Vec<f64> {
    let mut rng = stream(seed, "synth/weights");
    (0..features)
        .map(|_| {
            let z: f64 = StandardNormal.sample(&mut rng);
            0.5 * z
        })
        .collect()
}

/// Rows `start .. start + y.len()` of `part`: x row-major into `x` (y.len() x D), labels into `y`.
pub fn fill(seed: u64, part: Part, w: &[f64], start: usize, x: &mut [f64], y: &mut [f64]) {
    let d = w.len();
    assert_eq!(x.len(), d * y.len(), "x holds D values per label");
    let base = rand::Rng::next_u64(&mut stream(seed, part.label()));
    x.par_chunks_mut(d.max(1))
        .zip(y.par_iter_mut())
        .enumerate()
        .for_each(|(i, (row, label))| {
            // seed_from_u64 runs the seed through SplitMix64, so consecutive seeds give
            // unrelated streams.
            let mut rng = Stream::seed_from_u64(base.wrapping_add((start + i) as u64));
            let mut a = 0.0;
            for (v, wj) in row.iter_mut().zip(w) {
                *v = StandardNormal.sample(&mut rng);
                a += *v * wj;
            }
            let u: f64 = rng.random();
            *label = if u < sigmoid(a) { 1.0 } else { 0.0 };
        });
}
