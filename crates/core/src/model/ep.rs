//! Bayesian probit and logistic classification by expectation propagation, exactly as in
//! docs/maths.md section 2 (Herbrich's rank-1 algorithm) and §6.3: prior N(0, tau^2 I) with
//! tau^2 = 1 / lambda, likelihood Phi(y_i w^T phi_i / beta) or sigma(y_i w^T phi_i) (site.rs),
//! one Gaussian site exp(a_i t - b_i t^2 / 2) per row in t = y_i w^T phi_i. Each site update is a rank-1 change of (mu, Sigma); nothing is inverted.
//! A sweep visits every row once; after it, (mu, Sigma) are recomputed from the sites by one
//! Cholesky factorisation, so that rounding in the rank-1 updates does not accumulate (it is
//! large in the first sweep under a vague prior, where Sigma falls from tau^2 to the data's
//! scale). [`drive`] repeats sweeps until every site is within the tolerance of its
//! moment-matched value, measured undamped and in the units of its cavity ([`Ep::distance`]),
//! and never before every site has been visited once. One sweep alone, in a seeded row order,
//! is assumed-density filtering (`adf-probit`).
//!
//! Trace columns: `objective` is -ln Z_EP after the sweep, `grad_norm` the largest site
//! distance seen in the sweep, `step` the damping. Iteration 0 is the prior (all sites zero);
//! its `grad_norm` is the largest distance of any site from there.

use faer::{Mat, MatRef};

use crate::error::{NumericError, Result};
use crate::numeric::linalg::{dot, Cholesky};
use crate::optim::{Solver, Step};

struct Proposal {
    a: f64,
    b: f64,
    z: Vec<f64>,
    e: f64,
    f: f64,
    /// [`Ep::distance`] of the site before this update.
    distance: f64,
    /// The cavity's and the tilted distribution's (mean, variance) of t, for the step record.
    cavity: [f64; 2],
    tilted: [f64; 2],
}

/// EP's state: the Gaussian approximation N(mu, Sigma) and the site parameters.
pub struct Ep {
    /// The training rows phi_i, copied once so that every site update works on slices.
    rows: Vec<Vec<f64>>,
    /// Labels in {-1, +1}.
    y: Vec<f64>,
    site: Site,
    prior_var: f64,
    damping: f64,
    order: Vec<usize>,
    pub mu: Vec<f64>,
    /// Sigma, row-major D x D (symmetric).
    cov: Vec<f64>,
    a: Vec<f64>,
    b: Vec<f64>,
    change: f64,
    /// Sweeps completed; convergence is not judged before the first.
    sweeps: usize,
    log_evidence: f64,
    /// The site updates recorded for the step-by-step picture (trace.rs), when asked for.
    trace: Option<trace::Trace>,
}

/// Sigma phi for a row-major D x D `cov`.
fn cov_times(cov: &[f64], phi: &[f64]) -> Vec<f64> {
    cov.chunks_exact(phi.len())
        .map(|row| dot(row, phi))
        .collect()
}

impl Ep {
    /// Probit EP with noise `beta`: `y` holds 0/1 labels; `order` is the visiting order of the
    /// rows within a sweep.
    pub fn new(
        x: MatRef<'_, f64>,
        y: &[f64],
        beta: f64,
        prior_var: f64,
        damping: f64,
        order: Vec<usize>,
    ) -> Result<Self, NumericError> {
        Self::with_site(x, y, Site::probit(beta), prior_var, damping, order)
    }

    /// EP with each row's likelihood given by `site`.
    pub fn with_site(
        x: MatRef<'_, f64>,
        y: &[f64],
        site: Site,
        prior_var: f64,
        damping: f64,
        order: Vec<usize>,
    ) -> Result<Self, NumericError> {
        let (n, d) = (x.nrows(), x.ncols());
        let mut ep = Ep {
            rows: (0..n)
                .map(|i| (0..d).map(|j| x[(i, j)]).collect())
                .collect(),
            y: y.iter().map(|&y| 2.0 * y - 1.0).collect(),
            site,
            prior_var,
            damping,
            order,
            mu: vec![0.0; d],
            cov: (0..d * d)
                .map(|k| if k % (d + 1) == 0 { prior_var } else { 0.0 })
                .collect(),
            a: vec![0.0; n],
            b: vec![0.0; n],
            change: 0.0,
            sweeps: 0,
            log_evidence: 0.0,
            trace: None,
        };
        ep.log_evidence = ep.compute_log_evidence()?;
        ep.change = ep.residual()?;
        Ok(ep)
    }

    /// Sigma_jk.
    pub fn sigma(&self, j: usize, k: usize) -> f64 {
        self.cov[j * self.mu.len() + k]
    }

    /// Sigma as a matrix.
    pub fn covariance(&self) -> Mat<f64> {
        let d = self.mu.len();
        Mat::from_fn(d, d, |j, k| self.cov[j * d + k])
    }

    /// The moment-matched site of row i against the current approximation (docs/maths.md
    /// section 2): (a_new, b_new) after damping, and z = Sigma phi_i, e = phi_i^T z, f = phi_i^T mu.
    fn proposal(&self, i: usize) -> Result<Proposal, NumericError> {
        let phi = &self.rows[i];
        let z = cov_times(&self.cov, phi);
        let e = dot(phi, &z);
        let f = dot(phi, &self.mu);
        let (ai, bi, yi) = (self.a[i], self.b[i], self.y[i]);
        let c = 1.0 - bi * e;
        if c <= 0.0 || !c.is_finite() {
            return Err(NumericError::NonFinite(format!(
                "EP: the cavity of row {i} has a non-positive variance (1 - b e = {c}); \
                 increase `noise` or set `damping` below 1"
            )));
        }
        let m = (yi * f - ai * e) / c;
        let (a_full, b_full) = self.site.matched(m, e / c)?;
        let a = ai + self.damping * (a_full - ai);
        let b = bi + self.damping * (b_full - bi);
        if !(a.is_finite() && b.is_finite()) {
            return Err(NumericError::NonFinite(format!(
                "EP: the site of row {i} became non-finite"
            )));
        }
        let distance = Self::distance(a_full - ai, b_full - bi, e / c);
        // The tilted moments from the moment-matched site: natural parameters add
        // (docs/maths.md §18), 1/v_t = 1/v + b_full, m_t/v_t = m/v + a_full.
        let v = e / c;
        let vt = 1.0 / (1.0 / v + b_full);
        Ok(Proposal {
            a,
            b,
            z,
            e,
            f,
            distance,
            cavity: [m, v],
            tilted: [vt * (m / v + a_full), vt],
        })
    }

    /// How far a site is from its moment-matched value (da, db), undamped and in the units of
    /// its cavity N(m, v) of t: max(|da| sqrt(v), |db| v). Both terms are free of the scale of
    /// t (a has the units of 1/t, b of 1/t^2), so the tolerance means the same under any
    /// prior variance and feature scale, and the damping does not shrink it: a damped sweep
    /// moves a site by `damping` times this distance, which is tiny from the start under
    /// tiny damping without being close to the fixed point.
    fn distance(da: f64, db: f64, v: f64) -> f64 {
        (da.abs() * v.sqrt()).max(db.abs() * v)
    }

    /// Replace site i by its proposal with the rank-1 updates
    /// Sigma <- Sigma - (db / d) z z^T, mu <- mu + (y_i da - f db) / d z, d = 1 + db e;
    /// returns the site's distance from its moment-matched value before the update.
    fn update(&mut self, i: usize) -> Result<f64, NumericError> {
        let Proposal {
            a,
            b,
            z,
            e,
            f,
            distance,
            cavity,
            tilted,
        } = self.proposal(i)?;
        let before = self.before_update(i, cavity, tilted);
        let d = z.len();
        let (da, db) = (a - self.a[i], b - self.b[i]);
        let den = 1.0 + db * e;
        let k_sigma = db / den;
        let k_mu = (self.y[i] * da - f * db) / den;
        for (row, zr) in self.cov.chunks_exact_mut(d).zip(&z) {
            let scale = k_sigma * zr;
            for (s, zc) in row.iter_mut().zip(&z) {
                *s -= scale * zc;
            }
        }
        for (m, zc) in self.mu.iter_mut().zip(&z) {
            *m += k_mu * zc;
        }
        self.a[i] = a;
        self.b[i] = b;
        self.after_update(before);
        Ok(distance)
    }

    /// The largest distance of any site from its moment-matched value in the current state,
    /// without updating: how far from a fixed point EP starts, reported at iteration 0.
    fn residual(&self) -> Result<f64, NumericError> {
        let mut r: f64 = 0.0;
        for i in 0..self.y.len() {
            r = r.max(self.proposal(i)?.distance);
        }
        Ok(r)
    }

    /// (mu, Sigma) afresh from the sites: Sigma = (I / tau^2 + sum_i b_i phi_i phi_i^T)^{-1},
    /// mu = Sigma sum_i y_i a_i phi_i (docs/maths.md section 2), which the rank-1 updates track.
    fn refresh(&mut self) -> Result<(), NumericError> {
        let d = self.mu.len();
        let (precision, h) = self.site_sums();
        let chol = Cholesky::factor(precision.as_ref(), "EP posterior precision")?;
        let sigma = chol.inverse();
        for j in 0..d {
            for k in 0..d {
                // the inverse of a symmetric matrix, symmetrised against rounding
                self.cov[j * d + k] = 0.5 * (sigma[(j, k)] + sigma[(k, j)]);
            }
        }
        self.mu = chol.solve(&h);
        Ok(())
    }

    pub fn log_evidence(&self) -> f64 {
        self.log_evidence
    }
}

impl Solver for Ep {
    fn objective(&self) -> f64 {
        -self.log_evidence
    }

    fn grad_norm(&self) -> f64 {
        self.change
    }

    fn settled(&self, tolerance: f64) -> bool {
        self.sweeps > 0 && self.change <= tolerance
    }

    fn step(&mut self) -> Result<Step, NumericError> {
        let mut change: f64 = 0.0;
        for k in 0..self.order.len() {
            let i = self.order[k];
            change = change.max(self.update(i)?);
        }
        self.refresh()?;
        self.after_sweep();
        self.sweeps += 1;
        self.change = change;
        self.log_evidence = self.compute_log_evidence()?;
        Ok(Step::Moved(self.damping))
    }
}

mod evidence;
mod fit;
mod predictor;
mod site;
mod trace;

pub use fit::fit_method;
pub use predictor::EpPredictor;
pub use site::{logistic_tilted, Site};

#[cfg(test)]
mod tests;

#[cfg(test)]
mod logistic_tests;
