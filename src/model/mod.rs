//! Models: what each `[[method]] kind` fits and how it predicts.

pub mod gaussian;
pub mod logistic;
pub mod predictive;

pub use gaussian::GaussianPosterior;
pub use predictive::PredictiveKind;

/// The method kinds an experiment can name in `[[method]] kind = "..."`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MethodKind {
    /// Logistic regression by maximum likelihood (no prior).
    LogisticMle,
    /// Logistic regression at the posterior mode (MAP) under the Gaussian prior, plug-in prediction.
    LogisticMap,
    /// MAP plus the Laplace approximation N(w_MAP, H^{-1}) and its log evidence.
    LogisticLaplace,
}

impl MethodKind {
    pub const ALL: [MethodKind; 3] = [
        MethodKind::LogisticMle,
        MethodKind::LogisticMap,
        MethodKind::LogisticLaplace,
    ];

    pub fn name(self) -> &'static str {
        match self {
            MethodKind::LogisticMle => "logistic-mle",
            MethodKind::LogisticMap => "logistic-map",
            MethodKind::LogisticLaplace => "logistic-laplace",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Whether the method yields a posterior over the weights (and so every predictive).
    pub fn has_posterior(self) -> bool {
        matches!(self, MethodKind::LogisticLaplace)
    }

    pub fn supports(self, p: PredictiveKind) -> bool {
        self.has_posterior() || p == PredictiveKind::Plugin
    }

    pub fn default_predictives(self) -> &'static [PredictiveKind] {
        if self.has_posterior() {
            &PredictiveKind::ALL
        } else {
            &[PredictiveKind::Plugin]
        }
    }
}
