//! The logistic negative log likelihood sum_n softplus(a_n) - y_n a_n and its gradient
//! X^T (sigma(a) - y), a = X w, in one pass on the calling thread, for callers that are
//! themselves the parallel unit: a Gibbs chain reports E and |grad E| at every sweep, and the
//! rayon-parallel Newton pass (glm.rs) would take the other chains' cores for it.
//!
//! The pass runs over blocks of rows small enough to stay in the first-level cache, eight rows
//! to a vector lane set: e = e^{-|a|} by the branch-free [`exp_poly`], sigma(a) from it, and
//! sum ln(1 + e) as the logarithm of products of (1 + e), one logarithm per 16 rows (each
//! factor lies in (1, 2], so a product of 16 cannot overflow). It agrees with glm.rs's pass to
//! about 1e-15 relative, not to the bit: the sums are taken in another order.

use faer::Mat;

use super::linalg::block_mat_vec;
use super::special::exp_poly;

/// Rows per block: 128 rows of 20 columns are 20 KiB.
const BLOCK_ROWS: usize = 128;
const LANES: usize = 8;

/// sum_n softplus(a_n) - y_n a_n and X^T (sigma(a) - y) at `w`, with no prior term.
pub fn value_and_gradient(x: &Mat<f64>, y: &[f64], w: &[f64]) -> (f64, Vec<f64>) {
    assert_eq!(x.nrows(), y.len(), "one label per row");
    assert_eq!(x.ncols(), w.len(), "one weight per column");
    crate::unchecked::widest(Pass { x, y, w })
}

/// The arguments of [`pass`], for [`crate::unchecked::widest`].
struct Pass<'a> {
    x: &'a Mat<f64>,
    y: &'a [f64],
    w: &'a [f64],
}

impl crate::unchecked::Kernel for Pass<'_> {
    type Output = (f64, Vec<f64>);

    #[inline(always)]
    fn run<const FMA: bool>(self) -> (f64, Vec<f64>) {
        pass::<FMA>(self.x, self.y, self.w)
    }
}

/// The whole pass; `FMA` selects fused multiply-adds in [`exp_poly`].
#[inline(always)]
fn pass<const FMA: bool>(x: &Mat<f64>, y: &[f64], w: &[f64]) -> (f64, Vec<f64>) {
    let (n, d) = (x.nrows(), x.ncols());
    let mut a = [0.0; BLOCK_ROWS];
    let mut r = [0.0; BLOCK_ROWS];
    // sum of max(a, 0) - y a, and of ln(1 + e) (lane by lane)
    let (mut linear, mut log_terms) = ([0.0; LANES], [0.0; LANES]);
    let mut gradient = vec![[0.0; LANES]; d];
    let mut start = 0;
    while start < n {
        let rows = BLOCK_ROWS.min(n - start);
        let (a, r) = (&mut a[..rows], &mut r[..rows]);
        block_mat_vec(x, w, start, a);
        let yb = &y[start..start + rows];
        let (a8, a_rest) = a.as_chunks::<LANES>();
        let (y8, y_rest) = yb.as_chunks::<LANES>();
        let (r8, r_rest) = r.as_chunks_mut::<LANES>();
        // Each lane multiplies the (1 + e) of at most BLOCK_ROWS / LANES = 16 rows.
        let mut product = [1.0; LANES];
        for ((a, y), r) in a8.iter().zip(y8).zip(r8.iter_mut()) {
            for l in 0..LANES {
                let (e, term) = row::<FMA>(a[l], y[l]);
                linear[l] += term;
                product[l] *= 1.0 + e;
                r[l] = residual(a[l], y[l], e);
            }
        }
        for l in 0..LANES {
            log_terms[l] += product[l].ln();
        }
        for ((&a, &y), r) in a_rest.iter().zip(y_rest).zip(r_rest.iter_mut()) {
            let (e, term) = row::<FMA>(a, y);
            linear[0] += term;
            log_terms[0] += e.ln_1p();
            *r = residual(a, y, e);
        }
        // g += X_b^T r, eight rows at a time per column
        let (r8, r_rest) = r.as_chunks::<LANES>();
        for (j, g) in gradient.iter_mut().enumerate() {
            let col = &x.col_as_slice(j)[start..start + rows];
            let (c8, c_rest) = col.as_chunks::<LANES>();
            for (c, r) in c8.iter().zip(r8) {
                for l in 0..LANES {
                    g[l] += c[l] * r[l];
                }
            }
            for (&c, &r) in c_rest.iter().zip(r_rest) {
                g[0] += c * r;
            }
        }
        start += rows;
    }
    let value = linear.iter().sum::<f64>() + log_terms.iter().sum::<f64>();
    (value, gradient.iter().map(|g| g.iter().sum()).collect())
}

/// e^{-|a|} and the row's part of softplus(a) - y a besides ln(1 + e): max(a, 0) - y a.
#[inline(always)]
fn row<const FMA: bool>(a: f64, y: f64) -> (f64, f64) {
    (exp_poly::<FMA>(-a.abs()), a.max(0.0) - y * a)
}

/// sigma(a) - y from e = e^{-|a|}: sigma(|a|) = 1 / (1 + e), sigma(-|a|) = e / (1 + e).
#[inline(always)]
fn residual(a: f64, y: f64, e: f64) -> f64 {
    let big = 1.0 / (1.0 + e);
    (if a >= 0.0 { big } else { e * big }) - y
}

#[cfg(test)]
#[path = "logistic_sums_tests.rs"]
mod tests;
