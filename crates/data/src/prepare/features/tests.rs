//! Tests of the feature maps: every monomial once, RBF bumps, refused oversized maps, distinct
//! column names.

use super::monomials::monomials;
use super::*;
use crate::plan::Centres;

#[test]
fn polynomial_map_has_every_monomial_once() {
    // D = 3, degree 3: C(3 + 3, 3) - 1 = 19 monomials.
    assert_eq!(monomials(3, 3, usize::MAX).unwrap().len(), 19);
    let x = Mat::<f64>::from_fn(1, 2, |_, j| [2.0, 3.0][j]);
    let names = vec!["a".to_string(), "b".to_string()];
    let m = apply(
        &FeatureMap::Poly { degree: 2 },
        x.as_ref(),
        x.as_ref(),
        &names,
        0,
    )
    .unwrap();
    assert_eq!(m.names, vec!["a", "b", "a^2", "a*b", "b^2"]);
    let row: Vec<f64> = (0..5).map(|j| m.train[(0, j)]).collect();
    assert_eq!(row, vec![2.0, 3.0, 4.0, 6.0, 9.0]);
}

#[test]
fn rbf_features_are_gaussian_bumps_and_oversized_maps_are_refused() {
    let x = Mat::<f64>::from_fn(4, 1, |i, _| i as f64);
    let map = FeatureMap::Rbf {
        centres: Centres::Grid { points: 2 },
        width: 1.5,
    };
    let m = apply(&map, x.as_ref(), x.as_ref(), &["x".to_string()], 0).unwrap();
    // centres 0 and 3; row x = 1: exp(-1 / 4.5) and exp(-4 / 4.5)
    assert!((m.train[(1, 0)] - (-1.0f64 / 4.5).exp()).abs() < 1e-15);
    assert!((m.train[(1, 1)] - (-4.0f64 / 4.5).exp()).abs() < 1e-15);
    let wide = Mat::<f64>::zeros(10, 64);
    let names: Vec<String> = (0..64).map(|j| format!("p{j}")).collect();
    let e = apply(
        &FeatureMap::Poly { degree: 4 },
        wide.as_ref(),
        wide.as_ref(),
        &names,
        0,
    )
    .err()
    .unwrap();
    assert!(e.contains("memory budget") && e.contains("degree"), "{e}");
}

#[test]
fn design_column_names_are_distinct() {
    let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let poly = FeatureMap::Poly { degree: 2 };
    let e = check_names(&FeatureMap::Identity, &names(&["intercept", "a"]), true).unwrap_err();
    assert!(e.contains("set [data] intercept = false"), "{e}");
    // without the intercept column, or under rbf (which replaces the features), no clash
    assert!(check_names(&FeatureMap::Identity, &names(&["intercept", "a"]), false).is_ok());
    let rbf = FeatureMap::Rbf {
        centres: Centres::Sample { k: 3 },
        width: 1.0,
    };
    assert!(check_names(&rbf, &names(&["intercept", "rbf0"]), true).is_ok());
    let e = check_names(&poly, &names(&["a", "b", "a*b"]), true).unwrap_err();
    assert!(e.contains("\"a*b\""), "{e}");
    let e = check_names(&poly, &names(&["a", "a^2"]), false).unwrap_err();
    assert!(e.contains("\"a^2\""), "{e}");
    assert!(check_names(&poly, &names(&["a", "b", "c"]), true).is_ok());
}
