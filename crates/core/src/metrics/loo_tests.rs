use super::*;
use crate::numeric::rng::stream;
use rand_distr::{Distribution, StandardNormal};

fn random(draws: usize, rows: usize, seed: u64) -> LogLik {
    let mut rng = stream(seed, "loo-test");
    let mut ll = LogLik::zeros(draws, rows, Draws::Posterior);
    for v in ll.values.iter_mut() {
        let z: f64 = StandardNormal.sample(&mut rng);
        *v = -1.0 + 0.3 * z;
    }
    ll
}

#[test]
fn a_likelihood_that_does_not_depend_on_the_draw_is_its_own_loo() {
    let mut ll = LogLik::zeros(100, 3, Draws::Posterior);
    for (i, c) in [-0.5, -1.5, -2.0].into_iter().enumerate() {
        ll.row_mut(i).fill(c);
    }
    let loo = psis_loo(&ll);
    assert!((loo.elpd() - (-4.0)).abs() < 1e-12);
    assert!(loo.p_loo().abs() < 1e-12);
    // se = sqrt(3 * var(-0.5, -1.5, -2)) with the sample variance 7/12.
    assert!((loo.se() - (3.0f64 * 7.0 / 12.0).sqrt()).abs() < 1e-12);
}

#[test]
fn a_zero_correction_changes_nothing() {
    let plain = random(500, 5, 3);
    let mut corrected = plain.clone();
    corrected.correction = Some(vec![0.0; 500]);
    let (a, b) = (psis_loo(&plain), psis_loo(&corrected));
    for (p, q) in a.pointwise.iter().zip(&b.pointwise) {
        assert!((p.elpd - q.elpd).abs() < 1e-12);
        assert!((p.p - q.p).abs() < 1e-12);
        assert_eq!(p.k.to_bits(), q.k.to_bits());
    }
}

#[test]
fn leaving_a_row_out_never_predicts_it_better_than_the_posterior_does() {
    // elpd_i <= lpd_i: the weights 1/p(y_i|w) favour draws that predict y_i badly (Jensen).
    let loo = psis_loo(&random(400, 10, 5));
    assert!(loo.pointwise.iter().all(|p| p.p >= -1e-12));
    assert_eq!(loo.k_counts().iter().sum::<usize>(), 10);
}

#[test]
fn the_paired_difference_of_a_run_with_itself_is_zero_with_no_error() {
    let e = [-0.3, -1.2, -0.7];
    assert_eq!(elpd_difference(&e, &e), (0.0, 0.0));
    // b - a = (1, 2, 3): sum 6, se = sqrt(3 * 1).
    let (d, se) = elpd_difference(&[0.0; 3], &[1.0, 2.0, 3.0]);
    assert_eq!(d, 6.0);
    assert!((se - 3f64.sqrt()).abs() < 1e-15);
}

#[test]
fn the_monte_carlo_variance_matches_the_spread_of_repeated_estimates() {
    // 2,000 independent estimates of ln E[p(y | w)] from 200 draws each (ln p = -1 + 0.8 z):
    // their empirical variance against the mean of the delta-method variance of each.
    let (reps, s) = (2000, 200);
    let weights = vec![-(s as f64).ln(); s];
    let mut estimates = Vec::with_capacity(reps);
    let mut predicted = 0.0;
    let mut rng = stream(11, "mcse-test");
    for _ in 0..reps {
        let row: Vec<f64> = (0..s)
            .map(|_| {
                let z: f64 = StandardNormal.sample(&mut rng);
                -1.0 + 0.8 * z
            })
            .collect();
        let e = log_predictive(&weights, &row);
        predicted += log_predictive_mc_var(&weights, &row, e) / reps as f64;
        estimates.push(e);
    }
    let mean = estimates.iter().sum::<f64>() / reps as f64;
    let observed = estimates.iter().map(|e| (e - mean).powi(2)).sum::<f64>() / (reps - 1) as f64;
    // The sample variance of 2,000 values is within about 3 % (sd sqrt(2 / 2000)) of the truth.
    assert!(
        (observed / predicted - 1.0).abs() < 0.1,
        "observed {observed}, predicted {predicted}"
    );
    // Equal log likelihoods leave nothing to vary.
    assert_eq!(log_predictive_mc_var(&weights, &vec![-0.5; s], -0.5), 0.0);
}
