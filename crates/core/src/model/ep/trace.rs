//! EP's site updates recorded for the step-by-step picture (docs/maths.md §18): before each of
//! the first [`STEPS_MAX`] updates the approximation, the cavity and the tilted moments of the
//! site's direction t = y_i phi_i^T w; after it the new approximation. The sweep's last update
//! records the state after the sweep's refresh from the sites (ep.rs), so that the last step of
//! ADF, whose only sweep it is, is the fit's posterior exactly.

use super::{Ep, Site};
use crate::catalog::Link;
use crate::record::{FitStep, FitSteps, SiteUpdate, StepKind, STEPS_MAX};

pub(super) struct Trace {
    kind: StepKind,
    steps: Vec<FitStep>,
    total: usize,
    /// Whether the sweep's last update is the newest recorded step.
    last_in_sweep: bool,
}

/// A site update under way: what it was before, while the update is applied.
pub(super) struct Before {
    site: SiteUpdate,
}

impl Ep {
    /// Record the site updates from now on, as `kind` (EP's site updates or ADF's examples).
    pub fn record_steps(&mut self, kind: StepKind) {
        self.trace = Some(Trace {
            kind,
            steps: Vec::new(),
            total: 0,
            last_in_sweep: false,
        });
    }

    /// The recorded steps, when [`Ep::record_steps`] asked for them.
    pub fn steps(&self) -> Option<FitSteps> {
        self.trace.as_ref().map(|t| FitSteps {
            kind: t.kind,
            total: t.total,
            steps: t.steps.clone(),
        })
    }

    /// The state before updating site `i`, when this update is to be recorded.
    pub(super) fn before_update(
        &mut self,
        i: usize,
        cavity: [f64; 2],
        tilted: [f64; 2],
    ) -> Option<Before> {
        let trace = self.trace.as_mut()?;
        trace.total += 1;
        if trace.steps.len() >= STEPS_MAX {
            return None;
        }
        let before_cov = self.cov_rows();
        let (likelihood, beta) = match self.site {
            Site::Probit { beta } => (Link::Probit, Some(beta)),
            Site::Logistic { .. } => (Link::Logistic, None),
        };
        let y = self.y[i];
        Some(Before {
            site: SiteUpdate {
                row: i,
                sweep: self.sweeps + 1,
                direction: self.rows[i].iter().map(|p| y * p).collect(),
                before_mean: self.mu.clone(),
                before_cov,
                cavity,
                tilted,
                likelihood,
                beta,
            },
        })
    }

    /// Record the approximation after the update that `before` began.
    pub(super) fn after_update(&mut self, before: Option<Before>) {
        let (mean, cov) = (self.mu.clone(), self.cov_rows());
        let Some(trace) = self.trace.as_mut() else {
            return;
        };
        trace.last_in_sweep = false;
        if let Some(Before { site }) = before {
            trace.steps.push(FitStep {
                index: trace.total,
                mean,
                cov,
                site: Some(site),
            });
            trace.last_in_sweep = true;
        }
    }

    /// After a sweep's refresh: its last update, if recorded, shows the refreshed state.
    pub(super) fn after_sweep(&mut self) {
        let (mean, cov) = (self.mu.clone(), self.cov_rows());
        if let Some(step) = self
            .trace
            .as_mut()
            .filter(|t| t.last_in_sweep)
            .and_then(|t| t.steps.last_mut())
        {
            step.mean = mean;
            step.cov = cov;
        }
    }

    /// Sigma row by row.
    fn cov_rows(&self) -> Vec<Vec<f64>> {
        let d = self.mu.len();
        self.cov.chunks_exact(d).map(<[f64]>::to_vec).collect()
    }
}
