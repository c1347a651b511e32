//! One HMC chain in the coordinates u that the Laplace covariance whitens: w = m + L u with
//! L L^T = H^{-1} at the mode m, which is HMC with the mass matrix H (docs/maths.md §20).
//! Each iteration draws a momentum p ~ N(0, I), follows the leapfrog integrator for a
//! trajectory of random length, and accepts its end with probability min(1, e^{-ΔH}).

use std::sync::atomic::{AtomicBool, Ordering};

use faer::{Mat, MatRef};
use rand::RngExt;
use rand_distr::{Distribution, StandardNormal};

use super::adapt::DualAveraging;
use crate::error::NumericError;
use crate::model::gibbs::{Draws, Feed};
use crate::numeric::glm::{self, Hessian};
use crate::numeric::linalg::norm2;
use crate::numeric::logistic_sums;
use crate::numeric::rng::{stream, Stream};
use crate::optim::Schedule;
use crate::record::HmcDiagnostics;

/// The trajectory's mean length in whitened units: a quarter period of a standard Gaussian is
/// pi / 2, and a little more turns draws of a near-Gaussian posterior anticorrelated. Measured
/// on Pima and breast_cancer (lambda = 1), bulk ESS of the worst weight per draw was 0.54,
/// 1.33 and 2.37 (Pima) and 0.34, 0.71 and 1.15 (breast_cancer) for lengths 1, 1.5 and 2.
pub(super) const TRAJECTORY: f64 = 2.0;

/// At most this many leapfrog steps per iteration, however small the burn-in makes the step.
pub(super) const MAX_LEAPFROG: usize = 1024;

/// The negative log joint E(w) = -ln p(y | w) + lambda/2 |w|^2 and its gradient, summed on the
/// calling thread (the chains are the parallel unit).
pub(super) struct Target<'a> {
    /// The design, probit rows already divided by beta.
    pub(super) x: &'a Mat<f64>,
    pub(super) y: &'a [f64],
    pub(super) probit: bool,
    pub(super) precision: f64,
}

impl Target<'_> {
    pub(super) fn energy(&self, w: &[f64]) -> (f64, Vec<f64>) {
        let (value, gradient) = if self.probit {
            let loss = crate::model::probit::row_terms;
            let t = glm::chunk(self.x.as_ref(), self.y, w, Hessian::None, &loss);
            (t.value, t.gradient)
        } else {
            logistic_sums::value_and_gradient(self.x, self.y, w)
        };
        let terms = glm::Terms {
            value,
            gradient,
            hessian: None,
        };
        let (value, gradient, _) = terms.with_prior(w, self.precision);
        (value, gradient)
    }
}

/// A point of the chain with its energy and gradients.
#[derive(Clone)]
struct State {
    u: Vec<f64>,
    w: Vec<f64>,
    energy: f64,
    grad_w: Vec<f64>,
    grad_u: Vec<f64>,
}

/// What one chain returns beside its draws: sums over its iterations after the burn-in.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Moves {
    pub(super) iterations: usize,
    pub(super) acceptance: f64,
    pub(super) leapfrog: usize,
    pub(super) divergent: usize,
    pub(super) step: f64,
}

/// One chain's draws and moves; `None` when cancelled.
pub(super) type ChainResult = Result<Option<(Draws, Moves)>, NumericError>;

/// The sampler every chain shares, read-only.
pub(super) struct Sampler<'a> {
    pub(super) target: Target<'a>,
    /// The Laplace mode m.
    pub(super) mode: Vec<f64>,
    /// Lower-triangular L with L L^T the Laplace covariance.
    pub(super) l: Mat<f64>,
    pub(super) schedule: Schedule,
    pub(super) seed: u64,
    pub(super) id: &'a str,
    pub(super) cancel: Option<&'a AtomicBool>,
}

impl Sampler<'_> {
    fn at(&self, u: Vec<f64>) -> State {
        let l = self.l.as_ref();
        let d = u.len();
        let w: Vec<f64> = (0..d)
            .map(|i| self.mode[i] + (0..=i).map(|j| l[(i, j)] * u[j]).sum::<f64>())
            .collect();
        let (energy, grad_w) = self.target.energy(&w);
        // grad_u = L^T grad_w
        let grad_u = (0..d)
            .map(|j| (j..d).map(|i| l[(i, j)] * grad_w[i]).sum())
            .collect();
        State {
            u,
            w,
            energy,
            grad_w,
            grad_u,
        }
    }

    /// One transition from `s` with step `step`: the proposal when accepted, its acceptance
    /// probability, the leapfrog steps taken and whether it diverged.
    fn transition(
        &self,
        s: &State,
        step: f64,
        rng: &mut Stream,
    ) -> (Option<State>, f64, usize, bool) {
        let d = s.u.len();
        let length = TRAJECTORY * rng.random_range(0.5..1.5);
        let n = ((length / step).ceil() as usize).clamp(1, MAX_LEAPFROG);
        let mut p: Vec<f64> = (0..d).map(|_| StandardNormal.sample(&mut *rng)).collect();
        let h0 = s.energy + 0.5 * p.iter().map(|v| v * v).sum::<f64>();
        let (end, taken) = leapfrog(s, &mut p, step, n, |u| self.at(u));
        let delta = end.energy + 0.5 * p.iter().map(|v| v * v).sum::<f64>() - h0;
        let alpha = if delta.is_finite() {
            (-delta).exp().min(1.0)
        } else {
            0.0
        };
        let divergent = !(delta <= HmcDiagnostics::DIVERGENCE);
        let accept = rng.random::<f64>() < alpha;
        (accept.then_some(end), alpha, taken, divergent)
    }

    /// One chain's kept draws (draws x D) and moves; every iteration goes to `feed`.
    pub(super) fn chain(&self, c: usize, feed: &mut Feed<'_>) -> ChainResult {
        let mut rng = stream(self.seed, &format!("{}/hmc/chain{c}", self.id));
        let d = self.mode.len();
        // Over-dispersed starts as the Gibbs chains', so that R-hat can see chains that have
        // not met yet: w_0 = 2 z, u_0 = L^{-1} (w_0 - m).
        let w0: Vec<f64> = (0..d)
            .map(|_| {
                let z: f64 = StandardNormal.sample(&mut rng);
                2.0 * z
            })
            .collect();
        let mut current = self.at(forward_solve(self.l.as_ref(), &w0, &self.mode));
        if !current.energy.is_finite() {
            return Err(NumericError::NonFinite(format!(
                "{}: the log posterior at chain {c}'s start is not finite",
                self.id
            )));
        }
        let mut adapt = DualAveraging::new(1.0 / (d as f64).powf(0.25));
        let mut frozen = adapt.frozen();
        let mut moves = Moves::default();
        let mut kept = Vec::with_capacity(self.schedule.draws);
        for sweep in 1..=self.schedule.sweeps() {
            if self.cancel.is_some_and(|f| f.load(Ordering::Relaxed)) {
                return Ok(None);
            }
            let burning = sweep <= self.schedule.burn_in;
            let step = if burning { adapt.step() } else { frozen };
            let (next, alpha, taken, divergent) = self.transition(&current, step, &mut rng);
            if burning {
                adapt.update(alpha);
                frozen = adapt.frozen();
            } else {
                moves.iterations += 1;
                moves.acceptance += alpha;
                moves.leapfrog += taken;
                moves.divergent += usize::from(divergent);
            }
            if let Some(next) = next {
                current = next;
            }
            let known = (current.energy, norm2(&current.grad_w));
            feed.sweep_known(sweep, &current.w, Some(known));
            if self.schedule.keeps(sweep) {
                kept.push(current.w.clone());
            }
        }
        feed.flush();
        moves.step = frozen;
        Ok(Some((kept, moves)))
    }
}

/// `n` leapfrog steps of size `step` from `s` with momentum `p` (updated in place), stopping
/// early where the energy stops being finite: the end state and the steps taken.
fn leapfrog(
    s: &State,
    p: &mut [f64],
    step: f64,
    n: usize,
    at: impl Fn(Vec<f64>) -> State,
) -> (State, usize) {
    let mut end = s.clone();
    for k in 1..=n {
        p.iter_mut()
            .zip(&end.grad_u)
            .for_each(|(p, g)| *p -= 0.5 * step * g);
        let u: Vec<f64> = end
            .u
            .iter()
            .zip(p.iter())
            .map(|(u, p)| u + step * p)
            .collect();
        end = at(u);
        p.iter_mut()
            .zip(&end.grad_u)
            .for_each(|(p, g)| *p -= 0.5 * step * g);
        if !end.energy.is_finite() {
            return (end, k);
        }
    }
    (end, n)
}

/// u with L u = w - m (forward substitution).
fn forward_solve(l: MatRef<'_, f64>, w: &[f64], m: &[f64]) -> Vec<f64> {
    let mut u = vec![0.0; w.len()];
    for i in 0..w.len() {
        let s: f64 = (0..i).map(|j| l[(i, j)] * u[j]).sum();
        u[i] = (w[i] - m[i] - s) / l[(i, i)];
    }
    u
}

#[cfg(test)]
pub(super) fn leapfrog_for_tests(
    sampler: &Sampler<'_>,
    w: &[f64],
    p: &mut [f64],
    step: f64,
    n: usize,
) -> (Vec<f64>, f64) {
    let s = sampler.at(forward_solve(sampler.l.as_ref(), w, &sampler.mode));
    let (end, _) = leapfrog(&s, p, step, n, |u| sampler.at(u));
    (end.w, end.energy)
}
