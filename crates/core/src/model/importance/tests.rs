//! Pareto k-hat of importance weights: proposals too narrow, too wide and exact, and the generalised Pareto fit.

use super::*;
use crate::numeric::rng::stream;

/// k-hat of N(0, sq^2 I) as a proposal for N(0, I) in `d` dimensions.
fn normal_khat(sq: f64, d: usize, draws: usize, seed: u64) -> Option<f64> {
    let cov = Mat::<f64>::from_fn(d, d, |i, j| if i == j { sq * sq } else { 0.0 });
    let target = |w: &[f64]| -0.5 * w.iter().map(|v| v * v).sum::<f64>();
    let mut rng = stream(seed, "khat-test");
    gaussian_khat(
        &vec![0.0; d],
        cov.as_ref(),
        &target,
        draws,
        &mut rng,
        "test",
    )
    .unwrap()
}

#[test]
fn a_too_narrow_proposal_approaches_the_theoretical_tail_shape() {
    // Target N(0, 1), proposal N(0, s^2): r = exp((1/s^2 - 1) x^2 / 2) has
    // P(r > t) ~ t^{-1/(1 - s^2)} / sqrt(ln t), so k = 1 - s^2. The slowly varying factor
    // makes finite samples look a little lighter: the estimate approaches k from below.
    for &(s, seed) in &[(0.5, 0), (0.5, 1), (0.8, 0), (0.8, 1)] {
        let k = normal_khat(s, 1, 100_000, seed).unwrap();
        let truth = 1.0 - s * s;
        assert!(
            k < truth + 0.05 && k > truth - 0.15,
            "s = {s}: k-hat {k}, k = {truth}"
        );
    }
}

#[test]
fn a_known_bad_proposal_is_flagged() {
    // Ten dimensions at s = 0.5 each: the weights' tail is far too heavy to trust.
    for seed in 0..3 {
        let k = normal_khat(0.5, 10, 4000, seed).unwrap();
        assert!(k > KHAT_LIMIT, "seed {seed}: k-hat {k}");
    }
}

#[test]
fn a_wider_proposal_has_bounded_weights() {
    // Target N(0, 1), proposal N(0, 1.2^2): r <= 1.2^d is bounded, a tail shape below 0;
    // in finite samples the estimate stays well below the 0.5 warning.
    for &(d, seed) in &[(1, 0), (1, 1), (10, 0), (10, 1), (30, 0)] {
        let k = normal_khat(1.2, d, 4000, seed).unwrap();
        assert!(k < 0.4, "d = {d}, seed {seed}: k-hat {k}");
    }
}

#[test]
fn dimension_makes_a_slightly_narrow_proposal_worse() {
    // The same per-coordinate mismatch multiplies over coordinates: in finite samples the
    // 30-dimensional weights look heavier-tailed than the 1-dimensional ones.
    for seed in 0..3 {
        let k1 = normal_khat(0.8, 1, 4000, seed).unwrap();
        let k30 = normal_khat(0.8, 30, 4000, seed).unwrap();
        assert!(k30 > k1 + 0.05, "seed {seed}: 1-d {k1}, 30-d {k30}");
    }
}

#[test]
fn an_exact_proposal_has_no_tail_to_fit() {
    assert_eq!(normal_khat(1.0, 2, 1000, 1), None);
}

#[test]
fn gpd_shape_recovers_the_shape_of_pareto_samples() {
    // Generalised Pareto with shape k, scale 1: x = ((1 - u)^{-k} - 1) / k. A sorted
    // sample of 2,000 estimates k to a few hundredths.
    let mut rng = stream(11, "gpd");
    for &k in &[0.2, 0.5, 0.9] {
        let mut x: Vec<f64> = (0..2000)
            .map(|_| {
                let u: f64 = rand::RngExt::random(&mut rng);
                ((1.0 - u).powf(-k) - 1.0) / k
            })
            .collect();
        x.sort_by(f64::total_cmp);
        let est = gpd_shape(&x);
        assert!((est - k).abs() < 0.07, "k = {k}: estimate {est}");
    }
}
