//! Tests of the Cholesky: solves, log-determinants and samples consistent, a typed error when
//! not positive definite.

use super::*;
use rand::SeedableRng;

fn spd() -> Mat<f64> {
    // A = B B^T + I for a fixed B: symmetric positive definite.
    let b = Mat::<f64>::from_fn(4, 4, |i, j| ((i * 4 + j) as f64 * 0.37).sin());
    let mut a = &b * b.transpose();
    for i in 0..4 {
        a[(i, i)] += 1.0;
    }
    a
}

#[test]
fn solve_inverse_and_log_det_are_consistent() {
    let a = spd();
    let c = Cholesky::factor(a.as_ref(), "test matrix").unwrap();
    let b = [1.0, -2.0, 0.5, 3.0];
    let x = c.solve(&b);
    let ax = mat_vec(a.as_ref(), &x);
    for i in 0..4 {
        assert!((ax[i] - b[i]).abs() < 1e-12);
    }
    let inv = c.inverse();
    let diag = c.inverse_diag();
    for i in 0..4 {
        assert!((diag[i] - inv[(i, i)]).abs() < 1e-12);
    }
    // log det via the product of LU-free eigen-independent route: det(A) det(A^{-1}) = 1
    let inv_c = Cholesky::factor(inv.as_ref(), "inverse").unwrap();
    assert!((c.log_det() + inv_c.log_det()).abs() < 1e-10);
}

#[test]
fn quad_forms_match_explicit_inverse() {
    let a = spd();
    let c = Cholesky::factor(a.as_ref(), "test matrix").unwrap();
    let x = Mat::<f64>::from_fn(7, 4, |i, j| (i as f64 - 2.0 * j as f64) * 0.3);
    let q = c.inverse_quad_forms(x.as_ref());
    let inv = c.inverse();
    for n in 0..7 {
        let row: Vec<f64> = (0..4).map(|j| x[(n, j)]).collect();
        let want = dot(&row, &mat_vec(inv.as_ref(), &row));
        assert!((q[n] - want).abs() < 1e-10 * want.max(1.0));
    }
}

#[test]
fn not_positive_definite_is_a_typed_error() {
    let mut a = Mat::<f64>::identity(3, 3);
    a[(2, 2)] = -1.0;
    let err = Cholesky::factor(a.as_ref(), "Hessian").unwrap_err();
    assert_eq!(
        err,
        NumericError::NotPositiveDefinite {
            what: "Hessian".into(),
            pivot: 2
        }
    );
}

#[test]
fn samples_have_the_inverse_as_covariance() {
    let a = spd();
    let c = Cholesky::factor(a.as_ref(), "test matrix").unwrap();
    let inv = c.inverse();
    let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(7);
    let s = 200_000;
    let mut cov = [[0.0; 4]; 4];
    for _ in 0..s {
        let w = c.sample_inverse(&[0.0; 4], &mut rng);
        for i in 0..4 {
            for j in 0..4 {
                cov[i][j] += w[i] * w[j] / s as f64;
            }
        }
    }
    for i in 0..4 {
        for j in 0..4 {
            // Monte-Carlo error of a second moment: about sqrt(2/S) * scale.
            let tol = 5.0 * (2.0 / s as f64).sqrt() * (inv[(i, i)] * inv[(j, j)]).sqrt();
            assert!((cov[i][j] - inv[(i, j)]).abs() < tol, "({i},{j})");
        }
    }
}

#[test]
fn finds_the_first_dependent_column() {
    let x = Mat::<f64>::from_fn(6, 4, |i, j| match j {
        0 => 1.0,
        1 => i as f64,
        2 => 3.0 - 2.0 * i as f64, // 3 * col0 - 2 * col1
        _ => (i * i) as f64,
    });
    assert_eq!(dependent_column(x.as_ref(), 1e-10), Some(2));
    let y = Mat::<f64>::from_fn(6, 2, |i, j| if j == 0 { 1.0 } else { i as f64 });
    assert_eq!(dependent_column(y.as_ref(), 1e-10), None);
    // an all-zero column has no direction at all
    let z = Mat::<f64>::from_fn(6, 2, |i, j| if j == 0 { 1.0 + i as f64 } else { 0.0 });
    assert_eq!(dependent_column(z.as_ref(), 1e-10), Some(1));
    // From the Gram matrix scaled by 1/4 (the logistic Hessian at w = 0), the same verdicts.
    for (m, want) in [(&x, Some(2)), (&y, None), (&z, Some(1))] {
        let quarter = weighted_gram(m.as_ref(), &vec![0.25; m.nrows()]);
        assert_eq!(gram_dependent_column(quarter.as_ref(), COLLINEAR_TOL), want);
    }
}

#[test]
fn the_sequential_product_is_x_times_w() {
    // 300 rows: two full blocks of 128 and a short one.
    let x = Mat::<f64>::from_fn(300, 7, |i, j| ((i * 7 + j * 13) as f64 * 0.37).sin());
    let w: Vec<f64> = (0..7).map(|j| 1.5 * (j as f64 * 1.3).cos()).collect();
    let mut a = vec![f64::NAN; 300];
    mat_vec_sequential(&x, &w, &mut a);
    for (i, a) in a.iter().enumerate() {
        let want: f64 = (0..7).map(|j| x[(i, j)] * w[j]).sum();
        assert!((a - want).abs() <= 1e-14 * (1.0 + want.abs()), "row {i}");
    }
}

#[test]
fn weighted_gram_matches_the_definition() {
    let x = Mat::<f64>::from_fn(5, 3, |i, j| (i + 2 * j) as f64 * 0.1 - 0.4);
    let s = [0.1, 0.2, 0.0, 0.25, 0.05];
    let g = weighted_gram(x.as_ref(), &s);
    for a in 0..3 {
        for b in 0..3 {
            let want: f64 = (0..5).map(|n| x[(n, a)] * s[n] * x[(n, b)]).sum();
            assert!((g[(a, b)] - want).abs() < 1e-14);
        }
    }
}
