//! Tests of the reliability bins, ECE and MCE against hand-computed values.

use super::*;
use rand::{Rng, RngExt};

#[test]
fn hand_computed_bins() {
    // two bins: [0, .5) holds .1, .2, .3 with labels 0, 0, 1; [.5, 1] holds .8, 1.0 with 1, 1
    let p = [0.1, 0.2, 0.3, 0.8, 1.0];
    let y = [0.0, 0.0, 1.0, 1.0, 1.0];
    let r = reliability(&p, &y, 2, Binning::EqualWidth);
    assert_eq!(r.bins[0].count, 3);
    assert_eq!(r.bins[1].count, 2);
    let gap0 = (1.0f64 / 3.0 - 0.2).abs();
    let gap1 = (1.0f64 - 0.9).abs();
    assert!((r.ece - (0.6 * gap0 + 0.4 * gap1)).abs() < 1e-15);
    assert!((r.mce - gap0.max(gap1)).abs() < 1e-15);
    assert_eq!(r.bins[1].upper, 1.0);
}

#[test]
fn empty_bins_are_null_and_perfect_calibration_is_zero() {
    let r = reliability(
        &[0.25, 0.25, 0.25, 0.25],
        &[1.0, 0.0, 0.0, 0.0],
        10,
        Binning::EqualWidth,
    );
    assert_eq!(r.bins.iter().filter(|b| b.count > 0).count(), 1);
    assert!(r.bins[0].mean_predicted.is_none());
    assert!(r.ece.abs() < 1e-15);
}

#[test]
fn equal_mass_bins_hold_equal_counts() {
    let p: Vec<f64> = (0..10)
        .map(|i| (i as f64 + 0.5) / 10.0)
        .map(|v: f64| v * v)
        .collect();
    let y: Vec<f64> = (0..10).map(|i| f64::from(u8::from(i % 3 == 0))).collect();
    let r = reliability(&p, &y, 5, Binning::EqualMass);
    assert!(r.bins.iter().all(|b| b.count == 2));
    // the first bin holds the two smallest predictions
    assert_eq!((r.bins[0].lower, r.bins[0].upper), (p[0], p[1]));
    let manual: f64 = r
        .bins
        .iter()
        .map(|b| 0.2 * (b.observed_frequency.unwrap() - b.mean_predicted.unwrap()).abs())
        .sum();
    assert!((r.ece - manual).abs() < 1e-15);
}

#[test]
fn percentile_interpolates_order_statistics() {
    let v = [1.0, 2.0, 3.0, 4.0, 5.0];
    assert_eq!(percentile(&v, 0.5), 3.0);
    assert_eq!(percentile(&v, 0.125), 1.5);
}

#[test]
fn ece_interval_brackets_the_estimate() {
    let p: Vec<f64> = (0..200).map(|i| (i as f64 + 0.5) / 200.0).collect();
    let y: Vec<f64> = (0..200)
        .map(|i| f64::from(u8::from((i * 7919) % 200 < i)))
        .collect();
    let ece = reliability(&p, &y, 10, Binning::EqualWidth).ece;
    let [lo, hi] = ece_bootstrap(
        &p,
        &y,
        10,
        Binning::EqualWidth,
        500,
        &mut crate::numeric::rng::stream(1, "t"),
    )
    .interval;
    assert!(
        lo < hi && lo <= ece + 0.02 && hi >= ece - 0.02,
        "{lo} {ece} {hi}"
    );
}

/// The resampler's ECE is `reliability` of the gathered rows, bit for bit, for both binnings
/// (the bootstrap intervals in results.json must not move when it replaced the gathering).
#[test]
fn resampled_ece_equals_the_ece_of_the_gathered_rows() {
    use rand::SeedableRng;
    let mut rng = rand::rngs::StdRng::seed_from_u64(11);
    let n = 997;
    let p: Vec<f64> = (0..n)
        .map(|_| rng.random::<f64>())
        .chain([0.0, 1.0])
        .collect();
    let y: Vec<f64> = p
        .iter()
        .map(|&q| f64::from(u8::from(rng.random::<f64>() < q * q)))
        .collect();
    // Labels of 0 and 1 take the packed rows; other values (soft labels) the plain ones.
    let soft: Vec<f64> = y.iter().map(|&v| 0.25 + 0.5 * v).collect();
    for (binning, y) in [
        (Binning::EqualWidth, &y),
        (Binning::EqualMass, &y),
        (Binning::EqualWidth, &soft),
    ] {
        let mut r = Resampler::new(&p, y, 15, binning);
        for _ in 0..20 {
            let idx: Vec<usize> = (0..p.len()).map(|_| rng.random_range(0..p.len())).collect();
            let ps: Vec<f64> = idx.iter().map(|&i| p[i]).collect();
            let ys: Vec<f64> = idx.iter().map(|&i| y[i]).collect();
            let want = reliability(&ps, &ys, 15, binning).ece;
            assert_eq!(
                r.ece(idx.iter().copied()).to_bits(),
                want.to_bits(),
                "{binning:?}"
            );
        }
    }
}

/// The bootstrap's interval and bias correction are those of the plain bootstrap: resample b's
/// rows drawn by `random_range` from `substream(base, b)`, `base` the caller's stream's next
/// number, gathered and binned by `reliability`. For soft labels the rows are drawn as rows, and
/// the numbers are the plain bootstrap's bit for bit. For labels of 0 and 1 each draw is a
/// position in the rows ordered by (bin, label), and the resample's sums are taken in that order
/// (not in draw order), so they agree to rounding. Either way one thread and three give the
/// same bits.
#[test]
fn bootstrap_equals_the_plain_bootstrap_on_any_number_of_threads() {
    let mut rng = crate::numeric::rng::stream(5, "data");
    let n = 1_000;
    let p: Vec<f64> = (0..n).map(|_| rng.random::<f64>()).collect();
    let y: Vec<f64> = p
        .iter()
        .map(|&q| f64::from(u8::from(rng.random::<f64>() < q)))
        .collect();
    let soft: Vec<f64> = y.iter().map(|&v| 0.25 + 0.5 * v).collect();
    let (bins, resamples) = (10, 101);
    // The rows in (bin, label) order, each (bin, label)'s rows in row order.
    let mut by_cell: Vec<usize> = (0..n).collect();
    by_cell.sort_by_key(|&i| (equal_width_bin(p[i], bins), y[i] == 1.0));
    let identity: Vec<usize> = (0..n).collect();
    for (y, order, tolerance) in [(&y, &by_cell, 1e-12), (&soft, &identity, 0.0)] {
        let base = crate::numeric::rng::stream(6, "bootstrap").next_u64();
        let mut eces: Vec<f64> = (0..resamples)
            .map(|b| {
                let mut plain = crate::numeric::rng::substream(base, b);
                let idx: Vec<usize> = (0..n).map(|_| order[plain.random_range(0..n)]).collect();
                let ps: Vec<f64> = idx.iter().map(|&i| p[i]).collect();
                let ys: Vec<f64> = idx.iter().map(|&i| y[i]).collect();
                reliability(&ps, &ys, bins, Binning::EqualWidth).ece
            })
            .collect();
        eces.sort_by(f64::total_cmp);
        let ece = reliability(&p, y, bins, Binning::EqualWidth).ece;
        let mean = eces.iter().sum::<f64>() / resamples as f64;
        let want = [
            (2.0 * ece - mean).max(0.0),
            (2.0 * ece - percentile(&eces, 0.975)).max(0.0),
            (2.0 * ece - percentile(&eces, 0.025)).max(0.0),
        ];
        let on = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let got = pool.install(|| {
                let mut stream = crate::numeric::rng::stream(6, "bootstrap");
                ece_bootstrap(
                    &p,
                    y,
                    bins,
                    Binning::EqualWidth,
                    resamples as usize,
                    &mut stream,
                )
            });
            [got.debiased, got.interval[0], got.interval[1]]
        };
        let (one, three) = (on(1), on(3));
        assert_eq!(one.map(f64::to_bits), three.map(f64::to_bits));
        for (g, w) in one.iter().zip(&want) {
            assert!((g - w).abs() <= tolerance, "{one:?} against {want:?}");
        }
    }
}
