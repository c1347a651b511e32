use super::*;
use crate::numeric::rng::stream;
use rand::RngExt;

#[test]
fn tail_length_is_min_of_a_fifth_and_three_root_s() {
    assert_eq!(tail_length(100), 20); // 0.2 * 100 = 20 < 30
    assert_eq!(tail_length(400), 60); // 3 * 20 = 60 < 80
    assert_eq!(tail_length(4000), 190); // ceil(3 * 63.25)
}

#[test]
fn equal_ratios_give_equal_weights_and_no_tail() {
    let s = smooth(&[2.5; 200]);
    assert_eq!(s.k, f64::INFINITY);
    for w in &s.log_weights {
        assert!((w + (200f64).ln()).abs() < 1e-12);
    }
}

#[test]
fn weights_are_normalised_and_truncated_at_the_largest_raw_weight() {
    let mut rng = stream(7, "psis-test");
    // Ratios with a Pareto tail of shape 0.8: ln r = 0.8 * Exp(1).
    let raw: Vec<f64> = (0..1000)
        .map(|_| -0.8 * (1.0 - rng.random::<f64>()).ln())
        .collect();
    let s = smooth(&raw);
    assert!(log_sum_exp(&s.log_weights).abs() < 1e-12);
    assert!(s.k > 0.5 && s.k < 1.1, "k {}", s.k);
    // The body keeps its raw ratios, so weights relative to the smallest compare with raw ones.
    let smallest = (0..raw.len())
        .min_by(|&a, &b| raw[a].total_cmp(&raw[b]))
        .unwrap();
    let (mut order, max_raw) = (
        (0..raw.len()).collect::<Vec<_>>(),
        raw.iter().copied().fold(f64::NEG_INFINITY, f64::max),
    );
    order.sort_by(|&a, &b| raw[a].total_cmp(&raw[b]));
    let relative = |i: usize| s.log_weights[i] - s.log_weights[smallest];
    assert!(((relative(order[500])) - (raw[order[500]] - raw[smallest])).abs() < 1e-12);
    let top = (0..raw.len())
        .map(relative)
        .fold(f64::NEG_INFINITY, f64::max);
    assert!(top <= max_raw - raw[smallest] + 1e-12);
    // The tail is smoothed: its largest weight is no longer the raw one.
    assert!(relative(order[999]) != raw[order[999]] - raw[smallest]);
}

#[test]
fn the_gpd_quantile_inverts_its_distribution_function() {
    for (k, sigma) in [(0.5, 2.0), (-0.2, 1.0), (0.0, 3.0)] {
        for p in [0.1, 0.5, 0.9] {
            let x = gpd_quantile(p, k, sigma);
            let cdf = if k == 0.0 {
                1.0 - (-x / sigma).exp()
            } else {
                1.0 - (1.0 + k * x / sigma).powf(-1.0 / k)
            };
            assert!((cdf - p).abs() < 1e-12, "k {k} p {p}");
        }
    }
}

#[test]
fn k_classes_follow_the_2024_thresholds() {
    // S = 1000: 1 - 1/log10(1000) = 2/3.
    assert!((good_k(1000) - 2.0 / 3.0).abs() < 1e-15);
    assert_eq!(good_k(100_000), 0.7);
    assert_eq!(KClass::of(0.6, 1000), KClass::Good);
    assert_eq!(KClass::of(0.68, 1000), KClass::MoreDraws);
    assert_eq!(KClass::of(0.68, 4000), KClass::Good);
    assert_eq!(KClass::of(0.71, 4000), KClass::Bad);
    assert_eq!(KClass::of(1.2, 4000), KClass::VeryBad);
    assert_eq!(KClass::of(f64::INFINITY, 4000), KClass::VeryBad);
}
