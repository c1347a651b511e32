//! The per-draw sums over one column of activations, on the widest vector instructions the
//! CPU has: eight lanes of running sums, and one logarithm per 16 rows of each lane taken
//! from the product of their factors (see the parent module).

use crate::numeric::special::{exp_poly, log_norm_cdf, norm_cdf_poly};

const LANES: usize = 8;
/// Rows whose factor one lane multiplies before taking one logarithm.
const GROUP: usize = 16;

/// [`logistic_column_with`] on the widest vector instructions the CPU has.
pub fn logistic_column(a: &[f64], y: &[f64]) -> f64 {
    crate::unchecked::widest(LogisticColumn { a, y })
}

/// The arguments of [`logistic_column_with`], for [`crate::unchecked::widest`].
struct LogisticColumn<'a> {
    a: &'a [f64],
    y: &'a [f64],
}

impl crate::unchecked::Kernel for LogisticColumn<'_> {
    type Output = f64;

    #[inline(always)]
    fn run<const FMA: bool>(self) -> f64 {
        logistic_column_with::<FMA>(self.a, self.y)
    }
}

/// sum_n softplus(a_n) - y_n a_n, eight rows to a lane set; `FMA` selects fused
/// multiply-adds in [`exp_poly`].
#[inline(always)]
pub fn logistic_column_with<const FMA: bool>(a: &[f64], y: &[f64]) -> f64 {
    let (a8, a_rest) = a.as_chunks::<LANES>();
    let (y8, y_rest) = y.as_chunks::<LANES>();
    let (mut linear, mut logs) = ([0.0; LANES], [0.0; LANES]);
    for (ag, yg) in a8.chunks(GROUP).zip(y8.chunks(GROUP)) {
        let mut product = [1.0; LANES];
        for (a, y) in ag.iter().zip(yg) {
            for l in 0..LANES {
                let e = exp_poly::<FMA>(-a[l].abs());
                linear[l] += a[l].max(0.0) - y[l] * a[l];
                product[l] *= 1.0 + e;
            }
        }
        for l in 0..LANES {
            logs[l] += product[l].ln();
        }
    }
    let mut total = linear.iter().sum::<f64>() + logs.iter().sum::<f64>();
    for (&a, &y) in a_rest.iter().zip(y_rest) {
        total += a.max(0.0) - y * a + exp_poly::<FMA>(-a.abs()).ln_1p();
    }
    total
}

/// Below this z = (2y - 1) a, Phi(z) < 6e-16: its row is left out of the products (a factor
/// of 1) and its ln Phi taken from the continued fraction instead; above it 16 factors cannot
/// underflow.
const PROBIT_PRODUCT_FLOOR: f64 = -8.0;

/// [`probit_column_with`] on the widest vector instructions the CPU has.
pub fn probit_column(a: &[f64], y: &[f64]) -> f64 {
    crate::unchecked::widest(ProbitColumn { a, y })
}

/// The arguments of [`probit_column_with`], for [`crate::unchecked::widest`].
struct ProbitColumn<'a> {
    a: &'a [f64],
    y: &'a [f64],
}

impl crate::unchecked::Kernel for ProbitColumn<'_> {
    type Output = f64;

    #[inline(always)]
    fn run<const FMA: bool>(self) -> f64 {
        probit_column_with::<FMA>(self.a, self.y)
    }
}

/// sum_n -ln Phi((2 y_n - 1) a_n): Phi by the branch-free [`norm_cdf_poly`], the ln of 16
/// rows per lane taken once from their product, as in [`logistic_column_with`]; the rows far
/// in the lower tail (rare: Phi below 6e-16) one by one with the stable ln Phi.
#[inline(always)]
pub fn probit_column_with<const FMA: bool>(a: &[f64], y: &[f64]) -> f64 {
    let (a8, a_rest) = a.as_chunks::<LANES>();
    let (y8, y_rest) = y.as_chunks::<LANES>();
    let mut logs = [0.0; LANES];
    for (ag, yg) in a8.chunks(GROUP).zip(y8.chunks(GROUP)) {
        let mut product = [1.0; LANES];
        for (a, y) in ag.iter().zip(yg) {
            for l in 0..LANES {
                let z = (2.0 * y[l] - 1.0) * a[l];
                let phi = norm_cdf_poly::<FMA>(z);
                product[l] *= if z >= PROBIT_PRODUCT_FLOOR { phi } else { 1.0 };
            }
        }
        for l in 0..LANES {
            logs[l] += product[l].ln();
        }
    }
    let mut total = -logs.iter().sum::<f64>();
    for (&a, &y) in a_rest.iter().zip(y_rest) {
        total -= log_norm_cdf((2.0 * y - 1.0) * a);
    }
    let full = a.len() - a_rest.len();
    for (&a, &y) in a[..full].iter().zip(&y[..full]) {
        let z = (2.0 * y - 1.0) * a;
        if z < PROBIT_PRODUCT_FLOOR {
            total -= log_norm_cdf(z);
        }
    }
    total
}
