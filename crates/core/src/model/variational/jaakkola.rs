//! The Jaakkola-Jordan local variational bound (`vb-logistic`; docs/maths.md §6.1; Jaakkola &
//! Jordan 2000; Bishop, PRML §10.6). Each row's sigma(s a) is bounded below by a Gaussian in
//! a with its own variational parameter xi_n >= 0:
//! sigma(z) >= sigma(xi) exp((z - xi)/2 - lambda(xi)(z^2 - xi^2)), lambda(xi) = (sigma(xi) - 1/2)/(2 xi),
//! so for fixed xi the bounded joint is Gaussian in w and q(w) = N(m, S) is exact for it:
//! S^{-1} = lambda I + 2 sum_n lambda(xi_n) x_n x_n^T, m = S sum_n (y_n - 1/2) x_n.
//! Maximising the bound over xi (an EM step) gives xi_n^2 = x_n^T (S + m m^T) x_n. The bound
//! L(xi) = -ln det(S^{-1}) / 2 + (D/2) ln lambda + m^T S^{-1} m / 2
//!         + sum_n [ln sigma(xi_n) - xi_n / 2 + lambda(xi_n) xi_n^2]
//! never decreases from one iteration to the next (PRML eq. 10.164).
//!
//! Trace columns: `objective` = -L, `grad_norm` = the largest change of any xi_n in the step
//! (at iteration 0, from xi = 0 to its first update), `step` = 1.

use faer::MatRef;

use crate::error::NumericError;
use crate::numeric::linalg::{dot, mat_t_vec, mat_vec, weighted_gram, Cholesky};
use crate::numeric::special::log_sigmoid;
use crate::optim::{Solver, Step};

/// lambda(xi) = (sigma(xi) - 1/2) / (2 xi) = tanh(xi / 2) / (4 xi), 1/8 at xi = 0 (its series
/// 1/8 - xi^2/96 below 1e-4, where the quotient loses digits).
pub fn jj_lambda(xi: f64) -> f64 {
    let xi = xi.abs();
    if xi < 1e-4 {
        0.125 - xi * xi / 96.0
    } else {
        (0.5 * xi).tanh() / (4.0 * xi)
    }
}

pub struct JaakkolaJordan<'a> {
    x: MatRef<'a, f64>,
    /// X^T (y - 1/2).
    b: Vec<f64>,
    precision: f64,
    pub xi: Vec<f64>,
    pub m: Vec<f64>,
    pub factor: Cholesky,
    pub bound: f64,
    change: f64,
    steps: usize,
}

impl<'a> JaakkolaJordan<'a> {
    /// Start at xi = 0, where every row's bound is the tangent at a = 0.
    pub fn new(x: MatRef<'a, f64>, y: &[f64], precision: f64) -> Result<Self, NumericError> {
        let centred: Vec<f64> = y.iter().map(|y| y - 0.5).collect();
        let b = mat_t_vec(x, &centred);
        let xi = vec![0.0; x.nrows()];
        let (factor, m, bound) = optimal_q(x, &b, precision, &xi)?;
        let mut jj = JaakkolaJordan {
            x,
            b,
            precision,
            xi,
            m,
            factor,
            bound,
            change: 0.0,
            steps: 0,
        };
        jj.change = max_change(&jj.next_xi(), &jj.xi);
        Ok(jj)
    }

    /// xi_n = sqrt(x_n^T S x_n + (x_n^T m)^2) under the current q.
    fn next_xi(&self) -> Vec<f64> {
        let mean = mat_vec(self.x, &self.m);
        let var = self.factor.inverse_quad_forms(self.x);
        mean.iter()
            .zip(&var)
            .map(|(mu, v)| (v.max(0.0) + mu * mu).sqrt())
            .collect()
    }
}

impl Solver for JaakkolaJordan<'_> {
    fn objective(&self) -> f64 {
        -self.bound
    }

    fn grad_norm(&self) -> f64 {
        self.change
    }

    fn settled(&self, tolerance: f64) -> bool {
        self.steps > 0 && self.change <= tolerance
    }

    fn step(&mut self) -> Result<Step, NumericError> {
        let next = self.next_xi();
        self.change = max_change(&next, &self.xi);
        let (factor, m, bound) = optimal_q(self.x, &self.b, self.precision, &next)?;
        (self.xi, self.factor, self.m, self.bound) = (next, factor, m, bound);
        self.steps += 1;
        Ok(Step::Moved(1.0))
    }
}

fn max_change(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max)
}

/// For fixed xi: q's precision factor, its mean m = S X^T (y - 1/2) (`b`) and the bound L(xi).
fn optimal_q(
    x: MatRef<'_, f64>,
    b: &[f64],
    precision: f64,
    xi: &[f64],
) -> Result<(Cholesky, Vec<f64>, f64), NumericError> {
    let d = x.ncols();
    let weights: Vec<f64> = xi.iter().map(|&xi| 2.0 * jj_lambda(xi)).collect();
    let mut p = weighted_gram(x, &weights);
    for j in 0..d {
        p[(j, j)] += precision;
    }
    let factor = Cholesky::factor(p.as_ref(), "Jaakkola-Jordan precision")?;
    let m = factor.solve(b);
    let rows: f64 = xi
        .iter()
        .map(|&xi| log_sigmoid(xi) - 0.5 * xi + jj_lambda(xi) * xi * xi)
        .sum();
    let bound = -0.5 * factor.log_det() + 0.5 * d as f64 * precision.ln() + 0.5 * dot(&m, b) + rows;
    Ok((factor, m, bound))
}
