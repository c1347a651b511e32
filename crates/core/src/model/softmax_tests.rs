//! Softmax regression against finite differences, and two classes against logistic regression.

use super::*;
use crate::model::logistic::LogisticObjective;

fn toy(classes: usize) -> (Mat<f64>, Vec<f64>) {
    let x = Mat::<f64>::from_fn(14, 3, |i, j| match j {
        0 => 1.0,
        1 => (i as f64 * 0.8).sin() * 2.0,
        _ => (i as f64 * 0.5).cos() * 1.5,
    });
    let y = (0..14).map(|i| ((i * 7) % classes) as f64).collect();
    (x, y)
}

#[test]
fn gradient_and_hessian_match_central_differences() {
    let (x, y) = toy(3);
    for reference in [false, true] {
        let obj = SoftmaxObjective::new(x.as_ref(), &y, 3, reference, 0.4);
        let w: Vec<f64> = (0..obj.dim()).map(|i| (i as f64 * 0.37).sin()).collect();
        let g = obj.gradient(&w);
        let h = obj.hessian(&w);
        let eps = 1e-5;
        for j in 0..obj.dim() {
            let (mut wp, mut wm) = (w.clone(), w.clone());
            wp[j] += eps;
            wm[j] -= eps;
            let fd = (obj.value(&wp) - obj.value(&wm)) / (2.0 * eps);
            assert!((fd - g[j]).abs() < 1e-7, "g[{j}]");
            let (gp, gm) = (obj.gradient(&wp), obj.gradient(&wm));
            for i in 0..obj.dim() {
                let fd = (gp[i] - gm[i]) / (2.0 * eps);
                assert!(
                    (fd - h[(i, j)]).abs() < 1e-7,
                    "H[{i},{j}] reference={reference}"
                );
            }
        }
    }
}

#[test]
fn two_classes_with_a_reference_class_are_logistic_regression() {
    let (x, y) = toy(2);
    let soft = SoftmaxObjective::new(x.as_ref(), &y, 2, true, 0.7);
    let logi = LogisticObjective::new(x.as_ref(), &y, 0.7);
    for w in [[0.0, 0.0, 0.0], [0.3, -1.2, 0.8]] {
        assert!((soft.value(&w) - logi.value(&w)).abs() < 1e-12);
        let (gs, gl) = (soft.gradient(&w), logi.gradient(&w));
        assert!(gs.iter().zip(&gl).all(|(a, b)| (a - b).abs() < 1e-12));
        let (hs, hl) = (soft.hessian(&w), logi.hessian(&w));
        for i in 0..3 {
            for j in 0..3 {
                assert!((hs[(i, j)] - hl[(i, j)]).abs() < 1e-12);
            }
        }
    }
}
