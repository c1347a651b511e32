//! Tests of the Laplace mixture: both modes of a two-cluster Cauchy posterior found, and the
//! mixture closer than one normal.

use super::*;
use crate::lab::distances::distances;
use bayeslab_core::numeric::rng::stream;

fn two_clusters() -> CauchyModel {
    CauchyModel {
        y: vec![-4.3, -3.9, -4.1, 3.8, 4.2, 4.0, 4.4],
        scale: 0.5,
        prior_mean: 0.0,
        prior_sd: 10.0,
    }
}

#[test]
fn both_modes_are_found_and_the_weights_sum_to_one() {
    let model = two_clusters();
    let ms = modes(&model, 20, &mut stream(1, "mix"), "mix").unwrap();
    assert_eq!(ms.len(), 2, "{ms:?}");
    assert!(ms[0].location < -3.5 && ms[0].location > -4.5);
    assert!(ms[1].location > 3.5 && ms[1].location < 4.5);
    let total: f64 = ms.iter().map(|m| m.weight).sum();
    assert!((total - 1.0).abs() < 1e-12);
    // Four points outweigh three.
    assert!(ms[1].weight > ms[0].weight);
    for m in &ms {
        assert!(model.gradient_at(m.location).abs() < 1e-7);
    }
}

#[test]
fn the_mixture_is_closer_than_one_normal_and_laplace_evidence_is_close() {
    let model = two_clusters();
    let built = build(
        model.clone(),
        20,
        &[ApproxKind::Normal, ApproxKind::Mixture],
        &mut stream(1, "mix"),
        "mix",
    )
    .unwrap();
    let kl: Vec<f64> = built
        .approximations
        .iter()
        .map(|a| distances(&built.exact, &a.2).kl)
        .collect();
    assert!(kl[1] < kl[0], "mixture {} vs normal {}", kl[1], kl[0]);
    let Dist::Cauchy(exact) = &built.exact else {
        panic!("exact is the Cauchy posterior")
    };
    let laplace = log_sum_exp(
        &built
            .modes
            .iter()
            .map(|m| m.ln_evidence)
            .collect::<Vec<_>>(),
    );
    assert!(
        (laplace - exact.ln_evidence()).abs() < 0.2,
        "{laplace} vs {}",
        exact.ln_evidence()
    );
    assert!((exact.cdf(f64::INFINITY) - 1.0).abs() < 1e-12);
}
