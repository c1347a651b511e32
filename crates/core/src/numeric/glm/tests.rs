//! Tests of the fused GLM pass: equal to row-by-row sums, and the same bits on any number of
//! threads and chunks.

use super::*;
use crate::numeric::special::{sigmoid, softplus};

fn logistic(a: f64, y: f64) -> (f64, f64, f64) {
    let p = sigmoid(a);
    (
        y * softplus(-a) + (1.0 - y) * softplus(a),
        p - y,
        p * (1.0 - p),
    )
}

fn design(n: usize, d: usize) -> (Mat<f64>, Vec<f64>, Vec<f64>) {
    let x = Mat::<f64>::from_fn(n, d, |i, j| ((i * 7 + j * 13) as f64 * 0.37).sin() * 1.5);
    let y = (0..n).map(|i| ((i * 31) % 7 < 3) as u8 as f64).collect();
    let w = (0..d).map(|j| 0.3 - 0.1 * j as f64).collect();
    (x, y, w)
}

#[test]
fn the_fused_pass_equals_the_row_by_row_sums() {
    // Several chunks and a ragged last block: 9,001 rows.
    let (x, y, w) = design(9001, 5);
    let t = accumulate(x.as_ref(), &y, &w, true, &logistic);
    let mut value = 0.0;
    let mut g = [0.0; 5];
    let mut h = [[0.0; 5]; 5];
    for i in 0..x.nrows() {
        let a: f64 = (0..5).map(|j| x[(i, j)] * w[j]).sum();
        let (l, r, s) = logistic(a, y[i]);
        value += l;
        for j in 0..5 {
            g[j] += x[(i, j)] * r;
            for k in 0..5 {
                h[j][k] += x[(i, j)] * s * x[(i, k)];
            }
        }
    }
    assert!((t.value - value).abs() < 1e-9 * value.abs());
    let h_fused = t.hessian.unwrap();
    for j in 0..5 {
        assert!((t.gradient[j] - g[j]).abs() < 1e-9);
        for k in 0..5 {
            assert!((h_fused[(j, k)] - h[j][k]).abs() < 1e-9, "H[{j},{k}]");
        }
    }
}

#[test]
fn any_number_of_threads_gives_the_same_bits() {
    let (x, y, w) = design(300_000, 4);
    let run = |threads: usize| {
        crate::threads::on_threads(threads, || accumulate(x.as_ref(), &y, &w, true, &logistic))
    };
    let one = run(1);
    for threads in [2, 3, 8] {
        let t = run(threads);
        assert_eq!(t.value.to_bits(), one.value.to_bits(), "{threads} threads");
        assert_eq!(t.gradient, one.gradient);
        assert_eq!(t.hessian, one.hessian);
    }
}

#[test]
fn chunk_totals_added_in_order_equal_the_whole() {
    // What a streaming caller does: chunk at the same boundaries, add in order.
    let (x, y, w) = design(20_000, 3);
    let whole = accumulate(x.as_ref(), &y, &w, true, &logistic);
    let per = chunk_rows(x.nrows());
    let mut total = Terms::zero(3, true);
    for start in (0..x.nrows()).step_by(per) {
        let rows = per.min(x.nrows() - start);
        let c = chunk(
            x.as_ref().subrows(start, rows),
            &y[start..start + rows],
            &w,
            Hessian::Exact,
            &logistic,
        );
        total.add(&c);
    }
    total.mirror();
    assert_eq!(total.value.to_bits(), whole.value.to_bits());
    assert_eq!(total.hessian, whole.hessian);
}

#[test]
fn the_block_kernels_equal_exact_sums() {
    // Small integers: every product and partial sum is exact in f64, so any order of the
    // additions gives the exact sum, which the kernels must hit for every length (ragged
    // lanes) and width (ragged four-column sweeps).
    for n in 0..40 {
        let x: Vec<f64> = (0..n).map(|i| ((i * 7) % 11) as f64 - 5.0).collect();
        let r: Vec<f64> = (0..n).map(|i| ((i * 3) % 5) as f64 - 2.0).collect();
        let exact: i64 = (0..n)
            .map(|i| (((i * 7) % 11) as i64 - 5) * (((i * 3) % 5) as i64 - 2))
            .sum();
        assert_eq!(gradient::dot(&x, &r), exact as f64, "n = {n}");
    }
    for d in 0..10 {
        let x = Mat::<f64>::from_fn(13, d, |i, j| ((i + 2 * j) % 7) as f64 - 3.0);
        let w: Vec<f64> = (0..d).map(|j| j as f64 - 4.0).collect();
        let mut a = vec![f64::NAN; 13];
        gradient::activations(x.as_ref(), &w, &mut a);
        let mut g = vec![1.0; d];
        gradient::add_transposed(x.as_ref(), &a, &mut g);
        for i in 0..13 {
            let want: f64 = (0..d).map(|j| x[(i, j)] * w[j]).sum();
            assert_eq!(a[i], want, "a[{i}], d = {d}");
        }
        for j in 0..d {
            let want: f64 = 1.0 + (0..13).map(|i| x[(i, j)] * a[i]).sum::<f64>();
            assert_eq!(g[j], want, "g[{j}], d = {d}");
        }
    }
}

#[test]
fn the_same_rows_elsewhere_in_memory_give_the_same_bits() {
    // A streamed chunk holds the same rows at another address than the in-memory design:
    // the E and g sums must not depend on where the rows start (alignment).
    let (x, y, w) = design(5_003, 7);
    let here = chunk(x.as_ref(), &y, &w, Hessian::None, &logistic);
    for offset in 1..4 {
        let moved = Mat::<f64>::from_fn(x.nrows() + offset, 7, |i, j| {
            if i < offset {
                0.0
            } else {
                x[(i - offset, j)]
            }
        });
        let there = chunk(
            moved.as_ref().subrows(offset, x.nrows()),
            &y,
            &w,
            Hessian::None,
            &logistic,
        );
        assert_eq!(
            here.value.to_bits(),
            there.value.to_bits(),
            "offset {offset}"
        );
        assert_eq!(here.gradient, there.gradient, "offset {offset}");
    }
}

/// The single-precision Hessian (single.rs) carries the exact pass's E and g bits and a
/// Hessian within f32 rounding of the exact one: relative to sqrt(H_ii H_jj), at most 1e-5
/// (sqrt(k) x 6e-8 for k = 9,001 rows is 6e-6) and not exactly equal (it is really f32).
#[test]
fn the_single_precision_hessian_is_within_f32_rounding_and_e_and_g_are_exact() {
    let (x, y, w) = design(9001, 40);
    let exact = accumulate(x.as_ref(), &y, &w, true, &logistic);
    let single = accumulate_with(x.as_ref(), &y, &w, Hessian::Single, &logistic);
    assert_eq!(exact.value.to_bits(), single.value.to_bits());
    assert_eq!(exact.gradient, single.gradient);
    let (he, hs) = (exact.hessian.unwrap(), single.hessian.unwrap());
    let mut worst = 0.0_f64;
    for i in 0..40 {
        for j in 0..40 {
            let scale = (he[(i, i)] * he[(j, j)]).sqrt();
            worst = worst.max((he[(i, j)] - hs[(i, j)]).abs() / scale);
        }
    }
    assert!(
        worst <= 1e-5 && worst > 0.0,
        "largest relative difference {worst:e}"
    );
}
