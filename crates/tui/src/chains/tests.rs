//! Tests of the chain buffers: decimation, the traced weights and the live R-hat.

use super::*;
use bayeslab_core::numeric::rng::stream;
use bayeslab_core::record::Diagnostics;
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
