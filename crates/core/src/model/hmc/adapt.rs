//! The burn-in's step-size adaptation: Nesterov's dual averaging as Hoffman & Gelman (2014,
//! "The No-U-Turn Sampler", JMLR 15, §3.2.1, algorithm 5) apply it to HMC, with their
//! constants. After the burn-in the step is frozen at the averaged iterate, so the kept draws
//! come from one fixed, reversible kernel.

use crate::record::HmcDiagnostics;

/// Shrinkage of the log step towards `mu` (gamma).
const GAMMA: f64 = 0.05;
/// Iterations that damp the first updates (t_0).
const T0: f64 = 10.0;
/// Decay of the averaging weight (kappa).
const KAPPA: f64 = 0.75;

pub(super) struct DualAveraging {
    mu: f64,
    log_step: f64,
    log_step_bar: f64,
    h_bar: f64,
    t: usize,
    start: f64,
}

impl DualAveraging {
    /// Adaptation from the step `start`, shrinking towards ten times it (mu = ln 10 eps_0).
    pub(super) fn new(start: f64) -> Self {
        DualAveraging {
            mu: (10.0 * start).ln(),
            log_step: start.ln(),
            log_step_bar: 0.0,
            h_bar: 0.0,
            t: 0,
            start,
        }
    }

    /// The step to take next.
    pub(super) fn step(&self) -> f64 {
        self.log_step.exp()
    }

    /// Learn from one transition's acceptance probability `alpha`.
    pub(super) fn update(&mut self, alpha: f64) {
        self.t += 1;
        let t = self.t as f64;
        let w = 1.0 / (t + T0);
        self.h_bar = (1.0 - w) * self.h_bar + w * (HmcDiagnostics::TARGET - alpha);
        self.log_step = self.mu - t.sqrt() / GAMMA * self.h_bar;
        let eta = t.powf(-KAPPA);
        self.log_step_bar = eta * self.log_step + (1.0 - eta) * self.log_step_bar;
    }

    /// The step for the kept draws: the averaged iterate (the starting step without a burn-in).
    pub(super) fn frozen(&self) -> f64 {
        if self.t == 0 {
            self.start
        } else {
            self.log_step_bar.exp()
        }
    }
}
