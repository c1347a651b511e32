//! The method kinds, their families and their likelihoods. Every question about a kind is
//! answered by reading its row of [`super::ROWS`].

use super::table::{Row, ROWS};
use super::PredictiveKind;

/// p(y = 1 | w, x) of the binary linear models: sigma(w^T x) or Phi(w^T x / noise).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Likelihood {
    Logistic,
    Probit { noise: f64 },
}

/// How a kind is fitted: the model file the dispatcher hands it to, and the type of its
/// kind-specific options (`model::options`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Family {
    /// A generalised linear model (logistic or probit link) fitted by Newton or gradient
    /// descent, with an optional Laplace posterior (model/glm.rs).
    Glm,
    /// Multiclass softmax regression with a Laplace posterior (model/softmax.rs).
    Softmax,
    /// Expectation propagation and its one-pass form ADF (model/ep.rs).
    Ep,
    /// Gaussian class-conditional densities (model/generative/).
    Gaussian,
    /// Independent Bernoulli features per class (model/generative/bernoulli.rs).
    Bernoulli,
    /// Exact posterior sampling by Gibbs (model/gibbs/).
    Gibbs,
}

impl Family {
    pub const ALL: [Family; 6] = [
        Family::Glm,
        Family::Softmax,
        Family::Ep,
        Family::Gaussian,
        Family::Bernoulli,
        Family::Gibbs,
    ];

    /// Fitted by minimising an objective with Newton or gradient descent.
    pub fn optimised(self) -> bool {
        matches!(self, Family::Glm | Family::Softmax)
    }

    /// Models the class-conditional density of x (MATH.md section 3); those ignore the
    /// intercept column and `[prior] precision`.
    pub fn generative(self) -> bool {
        matches!(self, Family::Gaussian | Family::Bernoulli)
    }

    /// Samples the exact posterior: the gold standard the approximations are measured against.
    pub fn gold(self) -> bool {
        self == Family::Gibbs
    }
}

/// The method kinds an experiment can name in `[[method]] kind = "..."`, in catalogue order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MethodKind {
    LogisticMle,
    LogisticMap,
    LogisticLaplace,
    ProbitLaplace,
    SoftmaxLaplace,
    EpProbit,
    AdfProbit,
    GaussianGenerative,
    GaussianNaiveBayes,
    BernoulliNaiveBayes,
    Lda,
    Qda,
    GibbsLogistic,
    GibbsProbit,
}

impl MethodKind {
    pub const ALL: [MethodKind; 14] = [
        MethodKind::LogisticMle,
        MethodKind::LogisticMap,
        MethodKind::LogisticLaplace,
        MethodKind::ProbitLaplace,
        MethodKind::SoftmaxLaplace,
        MethodKind::EpProbit,
        MethodKind::AdfProbit,
        MethodKind::GaussianGenerative,
        MethodKind::GaussianNaiveBayes,
        MethodKind::BernoulliNaiveBayes,
        MethodKind::Lda,
        MethodKind::Qda,
        MethodKind::GibbsLogistic,
        MethodKind::GibbsProbit,
    ];

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
        !super::OPTION_KEYS.contains(&key) || self.row().keys.contains(&key)
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

    /// Whether the method yields a posterior over the weights.
    pub fn has_posterior(self) -> bool {
        self.row().posterior
    }

    /// Whether lambda can be chosen by maximising this kind's Laplace evidence
    /// (`[prior] precision = "evidence"`); logistic-map uses the logistic Laplace evidence.
    pub fn laplace_evidence(self) -> bool {
        self.row().evidence
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
