//! The general mode finder: Newton's method (the shared [`bayeslab_core::optim`] loop) on minus any
//! log density of a few parameters, then the observed information J = -∇² log p at the mode
//! (docs/maths.md 4: theta | y ≈ N(theta~, J^{-1}(theta~))). A density supplies its log value
//! and, when it can, an analytic gradient or Hessian; otherwise central differences stand in. The
//! closed forms of each family are the tests, never the implementation.

use faer::Mat;

use bayeslab_core::error::NumericError;
use bayeslab_core::numeric::linalg::{norm2, Cholesky};
use bayeslab_core::optim::{drive, Control, Iterate, Newton, Objective, Termination};

/// A log density (up to a constant) on R^d; `-inf` outside its support.
pub trait LogDensity {
    fn dim(&self) -> usize;
    fn ln_density(&self, x: &[f64]) -> f64;
    /// ∇ log p; central differences unless overridden.
    fn gradient(&self, x: &[f64]) -> Vec<f64> {
        numerical_gradient(&|x| self.ln_density(x), x)
    }
    /// ∇² log p; central differences of [`LogDensity::gradient`] unless overridden.
    fn hessian(&self, x: &[f64]) -> Mat<f64> {
        numerical_hessian(&|x| self.gradient(x), x)
    }
}

/// Step for a central difference at `x`: ε^(1/3) balances truncation (h²) against rounding (ε/h).
fn step(x: f64, power: f64) -> f64 {
    f64::EPSILON.powf(power) * x.abs().max(1.0)
}

/// ∂f/∂x_i ≈ (f(x + h e_i) - f(x - h e_i)) / 2h.
pub fn numerical_gradient(f: &dyn Fn(&[f64]) -> f64, x: &[f64]) -> Vec<f64> {
    (0..x.len())
        .map(|i| {
            let h = step(x[i], 1.0 / 3.0);
            let mut up = x.to_vec();
            let mut down = x.to_vec();
            up[i] += h;
            down[i] -= h;
            (f(&up) - f(&down)) / (2.0 * h)
        })
        .collect()
}

/// The Hessian as central differences of the gradient, symmetrised.
pub fn numerical_hessian(grad: &dyn Fn(&[f64]) -> Vec<f64>, x: &[f64]) -> Mat<f64> {
    let d = x.len();
    let mut h = Mat::<f64>::zeros(d, d);
    for j in 0..d {
        let s = step(x[j], 1.0 / 3.0);
        let mut up = x.to_vec();
        let mut down = x.to_vec();
        up[j] += s;
        down[j] -= s;
        let (gu, gd) = (grad(&up), grad(&down));
        for i in 0..d {
            h[(i, j)] = (gu[i] - gd[i]) / (2.0 * s);
        }
    }
    Mat::from_fn(d, d, |i, j| 0.5 * (h[(i, j)] + h[(j, i)]))
}

/// Minus the log density, as the optimiser's objective. Outside the support the value is
/// +inf, which Newton's step halving rejects, so iterates stay inside.
struct Negated<'a>(&'a dyn LogDensity);

impl Objective for Negated<'_> {
    fn dim(&self) -> usize {
        self.0.dim()
    }
    fn value(&self, w: &[f64]) -> f64 {
        let v = -self.0.ln_density(w);
        if v.is_nan() {
            f64::INFINITY
        } else {
            v
        }
    }
    fn gradient(&self, w: &[f64]) -> Vec<f64> {
        self.0.gradient(w).iter().map(|g| -g).collect()
    }
    /// -∇² log p, damped to H + τI (τ doubling from 1e-3 of the largest diagonal entry)
    /// where it is not positive definite, as in Levenberg-Marquardt: away from the mode a log
    /// density need not be concave (a Cauchy likelihood between its clusters, the log-normal
    /// posterior far from its mode), and the damped step is still a descent direction. The
    /// information reported at the mode is always the undamped one.
    fn hessian(&self, w: &[f64]) -> Mat<f64> {
        let h = self.0.hessian(w);
        let d = h.nrows();
        let neg = Mat::from_fn(d, d, |i, j| -h[(i, j)]);
        let scale = (0..d).map(|i| neg[(i, i)].abs()).fold(1e-8, f64::max);
        if well_conditioned(&neg, scale) {
            return neg;
        }
        let mut tau = 1e-3 * scale;
        for _ in 0..200 {
            let damped = Mat::from_fn(d, d, |i, j| neg[(i, j)] + if i == j { tau } else { 0.0 });
            if well_conditioned(&damped, scale) {
                return damped;
            }
            tau *= 2.0;
        }
        neg
    }
}

/// Positive definite with every Cholesky pivot at least 1e-8 of the largest diagonal entry,
/// so that a Newton step is not thrown along a nearly flat direction.
fn well_conditioned(m: &Mat<f64>, scale: f64) -> bool {
    Cholesky::factor(m.as_ref(), "").is_ok_and(|f| {
        let l = f.lower();
        (0..l.nrows()).all(|i| l[(i, i)] * l[(i, i)] >= 1e-8 * scale)
    })
}

/// A posterior mode with its observed information.
#[derive(Debug, Clone)]
pub struct Mode {
    pub x: Vec<f64>,
    pub ln_density: f64,
    /// J = -∇² log p at the mode.
    pub information: Mat<f64>,
    /// The Cholesky factor of J (J^{-1} is the approximation's covariance).
    pub factor: Cholesky,
    pub iterations: usize,
}

impl Mode {
    /// diag(J^{-1}): the approximation's variances.
    pub fn variances(&self) -> Vec<f64> {
        self.factor.inverse_diag()
    }

    /// Laplace's estimate of log ∫ p: log p(mode) + d/2 log 2π - 1/2 log det J.
    pub fn ln_evidence(&self) -> f64 {
        let d = self.x.len() as f64;
        self.ln_density + 0.5 * d * (2.0 * std::f64::consts::PI).ln() - 0.5 * self.factor.log_det()
    }
}

pub const MAX_ITER: usize = 200;
pub const TOLERANCE: f64 = 1e-9;

/// Newton from `start` to a mode of `density`; `what` names the problem in errors.
///
/// Converged means |∇ log p| <= 1e-9. Rounding can stall the line search a little above that
/// on densities with large values (a sum over many observations); a stall is accepted when
/// the gradient is below 1e-7 (1 + |log p|), else it is an error.
pub fn find_mode(
    density: &dyn LogDensity,
    start: Vec<f64>,
    what: &str,
) -> Result<Mode, NumericError> {
    let objective = Negated(density);
    if !objective.value(&start).is_finite() {
        return Err(NumericError::NonFinite(format!(
            "{what}: the starting point {start:?} is outside the posterior's support"
        )));
    }
    let mut newton = Newton::new(&objective, start, what);
    let control = Control {
        max_iter: MAX_ITER,
        tolerance: TOLERANCE,
        cancel: None,
    };
    let mut ignore = |_: &str, _: &Iterate| {};
    let outcome = drive(what, &mut newton, &control, &mut ignore)?;
    let x = newton.into_weights();
    let value = objective.value(&x);
    let grad = norm2(&objective.gradient(&x));
    let accepted = outcome.termination == Termination::Converged
        || (matches!(
            outcome.termination,
            Termination::Stalled | Termination::NoProgress
        ) && grad <= 1e-7 * (1.0 + value.abs()));
    if !accepted {
        return Err(NumericError::NonFinite(format!(
            "{what}: Newton's method stopped ({}) after {} iterations with gradient norm {grad:e}; \
             the posterior may have no interior mode",
            outcome.termination, outcome.iterations
        )));
    }
    let h = density.hessian(&x);
    let information = Mat::from_fn(h.nrows(), h.ncols(), |i, j| -h[(i, j)]);
    let factor = Cholesky::factor(information.as_ref(), "").map_err(|_| {
        NumericError::NonFinite(format!(
            "{what}: the observed information at the stationary point {x:?} is not positive definite,              so it is not a strict maximum and has no normal approximation"
        ))
    })?;
    Ok(Mode {
        x,
        ln_density: -value,
        information,
        factor,
        iterations: outcome.iterations,
    })
}

#[cfg(test)]
#[path = "mode_tests.rs"]
mod tests;
