//! What model/ is asked to fit: the kind, how to optimise, and the kind's own settings. It is
//! all a fit reads of the experiment; config/ builds it (`config::MethodPlan` holds one next to
//! the evaluation settings) and model/ never reads the configuration itself.

use super::options::Options;
use crate::catalog::MethodKind;
use crate::optim::Schedule;

#[derive(Debug, Clone, PartialEq)]
pub struct MethodSpec {
    /// The run's id: names its traces, files and error messages.
    pub id: String,
    pub kind: MethodKind,
    pub optimizer: Optimizer,
    pub max_iter: usize,
    pub tolerance: f64,
    /// The kind-specific settings, defaults filled in.
    pub options: Options,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Optimizer {
    Newton,
    Gradient { learning_rate: f64 },
}

impl Optimizer {
    pub fn name(&self) -> &'static str {
        match self {
            Optimizer::Newton => "newton",
            Optimizer::Gradient { .. } => "gradient",
        }
    }
}

impl MethodSpec {
    /// A sampler's chains, kept draws, burn-in and thinning; `None` for the other kinds.
    pub fn schedule(&self) -> Option<Schedule> {
        self.options.schedule()
    }
}
