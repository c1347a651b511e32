//! The E and g half of the fused pass on one row block: the activations a = X_b w and the
//! gradient's share X_b^T r, written so that they run near memory speed.
//!
//! A plain `col.iter().zip(r).map(..).sum()` is one chain of dependent additions (each waits
//! for the last: no SIMD, one add per add-latency), which made a gradient pass cost about half
//! a Hessian pass at D = 50. Here every dot product keeps [`LANES`] independent partial sums
//! that the compiler keeps in vector registers, and the activations take four columns per
//! sweep over a. The order of the additions is fixed by the block's length alone (lanes by
//! position, then a fixed tree), never by the data's address, so the bits are the same on any
//! number of threads and for the same rows in memory or streamed.
//!
//! Both run compiled for AVX2 (four doubles a vector instead of SSE2's two), chosen at
//! run time: a binary built for any x86-64 runs them where the CPU has AVX2. Only mul and add
//! are enabled, not FMA, and Rust never fuses a * b + c by itself, so every sum is rounded as
//! in the SSE2 loops: the same bits on any x86-64. Measured at 100,000 x 500 on one thread,
//! a gradient pass (X_b w, then X_b^T r) took 0.079 s with SSE2, about six times what reading
//! X from memory costs here (a 400 MB sum runs at 30 GB/s), and 0.049 s with AVX2 (AVX-512
//! measured the same, so it is not used).

use faer::MatRef;

/// Independent partial sums per dot product: enough to hide the add latency (4 cycles) at
/// two vector adds per cycle.
const LANES: usize = 8;

/// `a` = X_b w for the rows of `x` (one entry per row).
pub(super) fn activations(x: MatRef<'_, f64>, w: &[f64], a: &mut [f64]) {
    crate::unchecked::avx2_or_baseline(Activations { x, w, a })
}

/// The arguments of [`activations_in`], for [`crate::unchecked::avx2_or_baseline`].
struct Activations<'a> {
    x: MatRef<'a, f64>,
    w: &'a [f64],
    a: &'a mut [f64],
}

impl crate::unchecked::Kernel for Activations<'_> {
    type Output = ();

    #[inline(always)]
    fn run<const FMA: bool>(self) {
        activations_in(self.x, self.w, self.a)
    }
}

#[inline(always)]
fn activations_in(x: MatRef<'_, f64>, w: &[f64], a: &mut [f64]) {
    a.fill(0.0);
    let d = w.len();
    let mut j = 0;
    // Four columns per sweep: a is loaded and stored once for four products.
    while j + 4 <= d {
        let (c0, c1, c2, c3) = (
            column(x, j),
            column(x, j + 1),
            column(x, j + 2),
            column(x, j + 3),
        );
        let (w0, w1, w2, w3) = (w[j], w[j + 1], w[j + 2], w[j + 3]);
        for ((((a, x0), x1), x2), x3) in a.iter_mut().zip(c0).zip(c1).zip(c2).zip(c3) {
            *a += (x0 * w0 + x1 * w1) + (x2 * w2 + x3 * w3);
        }
        j += 4;
    }
    for (c, &wj) in (j..d).map(|j| column(x, j)).zip(&w[j..]) {
        for (a, x) in a.iter_mut().zip(c) {
            *a += x * wj;
        }
    }
}

/// g += X_b^T r.
pub(super) fn add_transposed(x: MatRef<'_, f64>, r: &[f64], g: &mut [f64]) {
    crate::unchecked::avx2_or_baseline(AddTransposed { x, r, g })
}

/// The arguments of [`add_transposed_in`], for [`crate::unchecked::avx2_or_baseline`].
struct AddTransposed<'a> {
    x: MatRef<'a, f64>,
    r: &'a [f64],
    g: &'a mut [f64],
}

impl crate::unchecked::Kernel for AddTransposed<'_> {
    type Output = ();

    #[inline(always)]
    fn run<const FMA: bool>(self) {
        add_transposed_in(self.x, self.r, self.g)
    }
}

#[inline(always)]
fn add_transposed_in(x: MatRef<'_, f64>, r: &[f64], g: &mut [f64]) {
    for (j, g) in g.iter_mut().enumerate() {
        *g += dot(column(x, j), r);
    }
}

/// Column j of a matrix whose columns are contiguous (faer's column-major layout, and every
/// row range of it).
fn column<'a>(x: MatRef<'a, f64>, j: usize) -> &'a [f64] {
    x.col(j)
        .try_as_col_major()
        .expect("the design's columns are contiguous")
        .as_slice()
}

/// sum_i x_i r_i with [`LANES`] partial sums, added in a fixed tree.
#[inline(always)]
pub(super) fn dot(x: &[f64], r: &[f64]) -> f64 {
    debug_assert_eq!(x.len(), r.len());
    let mut acc = [0.0; LANES];
    let (xs, rs) = (x.chunks_exact(LANES), r.chunks_exact(LANES));
    let tail: f64 = xs
        .remainder()
        .iter()
        .zip(rs.remainder())
        .map(|(x, r)| x * r)
        .sum();
    for (xs, rs) in xs.zip(rs) {
        for k in 0..LANES {
            acc[k] += xs[k] * rs[k];
        }
    }
    ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7])) + tail
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use faer::Mat;

    /// The AVX2 loops round every sum as the SSE2 loops do: the same bits (a 3,001 x 37 block,
    /// ragged in rows and columns).
    #[test]
    fn the_avx2_loops_give_the_sse2_bits() {
        if !std::arch::is_x86_feature_detected!("avx2") {
            return;
        }
        let x = Mat::<f64>::from_fn(3001, 37, |i, j| ((i * 13 + j * 7) as f64 * 0.71).sin());
        let w: Vec<f64> = (0..37).map(|j| (j as f64 * 0.3).cos()).collect();
        let r: Vec<f64> = (0..3001).map(|i| (i as f64 * 0.11).sin() / 3.0).collect();
        let (mut a, mut b) = (vec![0.0; 3001], vec![0.0; 3001]);
        super::activations_in(x.as_ref(), &w, &mut a);
        super::activations(x.as_ref(), &w, &mut b);
        assert!(a.iter().zip(&b).all(|(u, v)| u.to_bits() == v.to_bits()));
        let (mut g, mut h) = (vec![0.5; 37], vec![0.5; 37]);
        super::add_transposed_in(x.as_ref(), &r, &mut g);
        super::add_transposed(x.as_ref(), &r, &mut h);
        assert!(g.iter().zip(&h).all(|(u, v)| u.to_bits() == v.to_bits()));
    }
}
