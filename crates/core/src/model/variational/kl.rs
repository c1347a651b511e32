//! The KL-optimal Gaussian (`vi-logistic`, `vi-probit`; docs/maths.md §6.2; Opper & Archambeau
//! 2009, the "KL" method of Nickisch & Rasmussen 2008): maximise ELBO(m, S) over q = N(m, S),
//! full rank or, under `mean_field`, diagonal.
//!
//! One step proposes the fixed point of the stationarity conditions,
//! P_new = lambda I - sum_n E[g_n''] x_n x_n^T (its diagonal under mean field) and a Newton
//! step in m, dm = P_full^{-1} dELBO/dm (P_full the full matrix, minus the ELBO's Hessian in m),
//! and then GUARDS it: the plain fixed point overshoots and diverges on ill-conditioned data
//! (digits 1 vs 8 under either link, breast cancer under the probit), so the step is taken as
//! m + t dm with precision (1 - t) P + t P_new (a convex combination stays positive definite),
//! halving t from 1 until the ELBO does not decrease. The ELBO is therefore monotone.
//!
//! Trace columns: `objective` = -ELBO, `grad_norm` = the distance from the fixed point in
//! units free of the features' scale, sqrt(dm^T P_full dm + |P^{-1/2} (P_new - P) P^{-1/2}|_F^2):
//! the Newton decrement of the mean (twice the ELBO a full Newton step would gain) and the
//! relative change the fixed point asks of the precision (the raw gradient scales with N and
//! the features and stops near 1e-6 at Pima's size, where the ELBO is flat to rounding);
//! `step` = t.

use faer::Mat;

use super::expectations::{Elbo, ElboProblem};
use crate::error::NumericError;
use crate::numeric::linalg::{dot, Cholesky};
use crate::optim::{Solver, Step, Termination};

/// Halvings of the guard's step before it gives up (t = 2^-40: the ELBO is flat to rounding).
const MAX_HALVINGS: usize = 40;

pub struct KlGaussian<'a> {
    problem: ElboProblem<'a>,
    mean_field: bool,
    pub m: Vec<f64>,
    /// q's precision S^{-1} (diagonal under mean field).
    pub p: Mat<f64>,
    pub elbo: Elbo,
}

impl<'a> KlGaussian<'a> {
    /// Start at m = 0 with the precision of the Laplace approximation at w = 0,
    /// lambda I + sum_n l''(0, y_n) x_n x_n^T (its diagonal under mean field): every activation
    /// variance starts at the data's scale rather than the prior's.
    pub fn new(problem: ElboProblem<'a>, mean_field: bool) -> Result<Self, NumericError> {
        let d = problem.x.ncols();
        let start: Vec<f64> = problem
            .y
            .iter()
            .map(|&y| (problem.terms)(0.0, y).2)
            .collect();
        let mut p = crate::numeric::linalg::weighted_gram(problem.x, &start);
        for j in 0..d {
            p[(j, j)] += problem.precision;
        }
        let p = restrict(p, mean_field);
        let m = vec![0.0; d];
        let elbo = problem.evaluate(&m, p.as_ref())?;
        Ok(KlGaussian {
            problem,
            mean_field,
            m,
            p,
            elbo,
        })
    }

    /// The precision the fixed point asks for at the current q.
    fn target(&self) -> Mat<f64> {
        restrict(self.elbo.target.clone(), self.mean_field)
    }

    /// The Newton step in the mean, dm = P_full^{-1} dELBO/dm.
    fn mean_step(&self) -> Result<Vec<f64>, NumericError> {
        let full = Cholesky::factor(self.elbo.target.as_ref(), "ELBO curvature in the mean")?;
        Ok(full.solve(&self.elbo.grad_m))
    }

    /// |L^{-1} (P_new - P) L^{-T}|_F with P = L L^T: the fixed point's relative change of the
    /// precision (zero exactly where dELBO/dS = (P - P_new) / 2 vanishes).
    fn precision_change(&self) -> f64 {
        let l = self.elbo.factor.lower();
        let target = self.target();
        let mut a = Mat::from_fn(self.p.nrows(), self.p.ncols(), |j, k| {
            target[(j, k)] - self.p[(j, k)]
        });
        l.solve_lower_triangular_in_place(&mut a);
        let mut b = a.transpose().to_owned();
        l.solve_lower_triangular_in_place(&mut b);
        b.norm_l2()
    }
}

/// Keep only the diagonal of `p` under mean field.
fn restrict(mut p: Mat<f64>, mean_field: bool) -> Mat<f64> {
    if mean_field {
        let d = p.nrows();
        for j in 0..d {
            for k in 0..d {
                if j != k {
                    p[(j, k)] = 0.0;
                }
            }
        }
    }
    p
}

impl Solver for KlGaussian<'_> {
    fn objective(&self) -> f64 {
        -self.elbo.value
    }

    fn grad_norm(&self) -> f64 {
        let decrement = match self.mean_step() {
            Ok(dm) => dot(&dm, &self.elbo.grad_m).max(0.0),
            Err(_) => f64::INFINITY,
        };
        (decrement + self.precision_change().powi(2)).sqrt()
    }

    fn step(&mut self) -> Result<Step, NumericError> {
        let dm = self.mean_step()?;
        let target = self.target();
        let mut t = 1.0;
        for _ in 0..=MAX_HALVINGS {
            let m: Vec<f64> = self.m.iter().zip(&dm).map(|(m, d)| m + t * d).collect();
            let p = Mat::from_fn(self.p.nrows(), self.p.ncols(), |j, k| {
                (1.0 - t) * self.p[(j, k)] + t * target[(j, k)]
            });
            if let Some((value, _)) = self.problem.value(&m, p.as_ref()) {
                if value >= self.elbo.value {
                    self.elbo = self.problem.evaluate(&m, p.as_ref())?;
                    self.m = m;
                    self.p = p;
                    return Ok(Step::Moved(t));
                }
            }
            t *= 0.5;
        }
        Ok(Step::Stop(Termination::Stalled))
    }
}
