//! Every question about a method kind, answered by reading its row of [`ROWS`].

use super::fitting::Fitting;
use super::kind::{Family, Likelihood, MethodKind};
use super::log_evidence::LogEvidence;
use super::predictive::PredictiveKind;
use super::row::{Restore, Row, OPTION_KEYS};
use super::table::ROWS;

impl MethodKind {
    /// This kind's catalogue row (`ROWS` lists the kinds in the order of [`Self::ALL`]).
    pub fn row(self) -> &'static Row {
        &ROWS[self as usize]
    }

    pub fn name(self) -> &'static str {
        self.row().name
    }

    pub fn parse(name: &str) -> Option<Self> {
        ROWS.iter().find(|r| r.name == name).map(|r| r.kind)
    }

    pub fn family(self) -> Family {
        self.row().family
    }

    /// Whether `[[method]]` accepts `key` with this kind (the common keys are always accepted).
    pub fn accepts(self, key: &str) -> bool {
        !OPTION_KEYS.contains(&key) || self.row().keys.contains(&key)
    }

    /// The likelihood of a binary linear model, p(y = 1 | w, x): what the exact posterior of
    /// the method's model is built from. `noise` is the probit beta of the kinds that accept
    /// the `noise` key; probit-laplace has beta = 1. `None` for multiclass and generative models.
    pub fn likelihood(self, noise: f64) -> Option<Likelihood> {
        self.row().likelihood.map(|l| match l {
            Likelihood::Probit { .. } if self.accepts("noise") => Likelihood::Probit { noise },
            l => l,
        })
    }

    /// Whether the method samples the exact posterior (the gold standard of its model).
    pub fn is_gold(self) -> bool {
        self.family().gold()
    }

    /// Whether the method fits under the Gaussian prior on the weights, so that
    /// `[prior] precision` applies to it.
    pub fn uses_prior(self) -> bool {
        self.row().weight_prior
    }

    /// Whether the method yields a posterior over the weights.
    pub fn has_posterior(self) -> bool {
        self.row().posterior
    }

    /// How the kind reaches its answer: closed form, one pass, iterations or sampled sweeps.
    pub fn fitting(self) -> Fitting {
        self.row().fitting
    }

    /// Whether the method yields a posterior over its class parameters (the conjugate
    /// generative kinds) rather than over weights.
    pub fn has_class_posterior(self) -> bool {
        self.row().class_posterior
    }

    /// Whether lambda can be chosen by maximising this kind's Laplace evidence
    /// (`[prior] precision = "evidence"`); logistic-map uses the logistic Laplace evidence.
    pub fn laplace_evidence(self) -> bool {
        self.row().evidence_from.is_some()
    }

    /// The kind whose Laplace evidence is maximised to choose this kind's lambda.
    pub fn evidence_from(self) -> Option<MethodKind> {
        self.row().evidence_from
    }

    /// Its rank among the Gaussians that can build the true evidence's proposal (lower is
    /// better); a mean-field Gaussian ranks one place below its full-rank kind.
    pub fn proposal_rank(self, mean_field: bool) -> Option<u8> {
        self.row().proposal_rank.map(|r| r + u8::from(mean_field))
    }

    /// How `bayeslab predict` rebuilds its predictor.
    pub fn restore(self) -> Restore {
        self.row().restore
    }

    /// What the run's `posterior.log_evidence` is, for the evidence table; `None` for kinds
    /// without one (samplers, plug-in and generative kinds).
    pub fn log_evidence(self) -> Option<LogEvidence> {
        self.row().log_evidence
    }

    /// Whether the method only handles two classes.
    pub fn binary_only(self) -> bool {
        self.row().binary_only
    }

    /// Whether the method models the class-conditional density of x.
    pub fn generative(self) -> bool {
        self.family().generative()
    }

    /// Whether the method is fitted by minimising an objective with Newton or gradient descent.
    pub fn optimised(self) -> bool {
        self.family().optimised()
    }

    /// Whether the method fits chunk by chunk (`[data] streaming = true`).
    pub fn streams(self) -> bool {
        self.row().streams
    }

    /// The predictives this kind can evaluate, in their default order.
    pub fn predictives(self) -> &'static [PredictiveKind] {
        self.row().predictives
    }

    pub fn supports(self, p: PredictiveKind) -> bool {
        self.predictives().contains(&p)
    }

    pub fn default_predictives(self) -> &'static [PredictiveKind] {
        self.predictives()
    }

    /// What to change when the fit came out numerically degenerate: the keys that set this
    /// kind's prior.
    pub fn degenerate_advice(self) -> &'static str {
        self.row().advice
    }
}
