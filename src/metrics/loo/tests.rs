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
