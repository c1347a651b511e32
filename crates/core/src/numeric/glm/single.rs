//! X^T diag(s) X in single precision, for the Hessians a Newton step is taken with but that
//! never become a posterior covariance.
//!
//! A Newton step only needs its Hessian to point the way: with a relative error e in H the
//! step contracts the error in w by about e per step near the mode (Kelley 1995, ch. 5, the
//! chord method's rate, as for any approximate Jacobian), and the mode itself is set by the
//! gradient, which stays in double precision. Sums of products in f32 carry a relative error
//! of about sqrt(k) 6e-8 (6e-7 measured at 100,000 x 500), far below the chord factors' own
//! staleness, while the product runs on twice as many lanes per vector: measured on one
//! thread at 100,000 x 500, 0.48 s against 0.78 s for the double-precision blocks. The
//! Laplace covariance and the evidence take an exact Hessian pass at the mode (model/
//! logistic, model/laplace.rs), so no answer depends on these bits beyond the path to the mode.
//!
//! With s >= 0 (the logistic and probit curvatures), X^T diag(s) X = Z^T Z for
//! Z = diag(sqrt(s)) X, so one converted block serves both sides of the product.

use faer::linalg::matmul::triangular::{matmul, BlockStructure};
use faer::{Accum, Mat, MatRef, Par};

thread_local! {
    /// Each thread's Z block and its Z^T Z, kept from call to call (see gram.rs's SCALED).
    static SCRATCH: std::cell::RefCell<(Mat<f32>, Mat<f32>)> =
        const { std::cell::RefCell::new((Mat::new(), Mat::new())) };
}

/// Add the lower triangle of X_b^T diag(s) X_b, summed in f32, to `h`: one block of rows.
pub(super) fn gram_into_single(mut h: faer::MatMut<'_, f64>, xb: MatRef<'_, f64>, s: &[f64]) {
    let (rows, d) = (xb.nrows(), xb.ncols());
    SCRATCH.with_borrow_mut(|(z, zz)| {
        if z.nrows() < rows || z.ncols() != d {
            *z = Mat::zeros(rows, d);
        }
        if zz.nrows() != d {
            *zz = Mat::zeros(d, d);
        }
        let root: Vec<f64> = s[..rows].iter().map(|v| v.max(0.0).sqrt()).collect();
        let mut zb = z.as_mut().subrows_mut(0, rows);
        for j in 0..d {
            let dst = zb.as_mut().col_mut(j);
            for ((dst, &x), &r) in dst.iter_mut().zip(xb.col(j).iter()).zip(&root) {
                *dst = (x * r) as f32;
            }
        }
        matmul(
            zz.as_mut(),
            BlockStructure::TriangularLower,
            Accum::Replace,
            zb.as_ref().transpose(),
            BlockStructure::Rectangular,
            zb.as_ref(),
            BlockStructure::Rectangular,
            1.0f32,
            Par::Seq,
        );
        for j in 0..d {
            for i in j..d {
                h[(i, j)] += f64::from(zz[(i, j)]);
            }
        }
    });
}
