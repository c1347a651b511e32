//! The method kinds, their families and their likelihoods: the names the catalogue's rows
//! (table.rs) are written in. Every question about a kind is answered by its row (facts.rs).

/// p(y = 1 | w, x) of the binary linear models: sigma(w^T x) or Phi(w^T x / noise).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Likelihood {
    Logistic,
    Probit { noise: f64 },
}

impl Likelihood {
    /// The likelihood without its probit beta: what names the model in every view.
    pub fn link(self) -> Link {
        match self {
            Likelihood::Logistic => Link::Logistic,
            Likelihood::Probit { .. } => Link::Probit,
        }
    }
}

/// The two binary models, named without their parameters: `logistic` and `probit` in
/// results.json (`evidence[].model`, a site update's `likelihood`) and every view.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Link {
    Logistic,
    Probit,
}

impl Link {
    pub const ALL: [Link; 2] = [Link::Logistic, Link::Probit];

    pub fn name(self) -> &'static str {
        match self {
            Link::Logistic => "logistic",
            Link::Probit => "probit",
        }
    }
}

impl std::fmt::Display for Link {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
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
    /// Expectation propagation and its one-pass form ADF (model/ep.rs), probit or logistic.
    Ep,
    /// Variational Gaussian approximations q(w) = N(m, S) that bound the evidence from below:
    /// the Jaakkola-Jordan bound and the KL-optimal Gaussian (model/variational.rs).
    Variational,
    /// Gaussian class-conditional densities (model/generative/).
    Gaussian,
    /// Independent Bernoulli features per class (model/generative/bernoulli.rs).
    Bernoulli,
    /// Exact posterior sampling by Gibbs (model/gibbs/).
    Gibbs,
    /// Exact posterior sampling by Hamiltonian Monte Carlo preconditioned by the Laplace
    /// covariance (model/hmc/).
    Hmc,
    /// The exact posterior of a model with at most three weights on an adaptive grid
    /// (model/quadrature.rs).
    Quadrature,
}

impl Family {
    pub const ALL: [Family; 9] = [
        Family::Glm,
        Family::Softmax,
        Family::Ep,
        Family::Variational,
        Family::Gaussian,
        Family::Bernoulli,
        Family::Gibbs,
        Family::Hmc,
        Family::Quadrature,
    ];

    /// Fitted by minimising an objective with Newton or gradient descent.
    pub fn optimised(self) -> bool {
        matches!(self, Family::Glm | Family::Softmax)
    }

    /// Models the class-conditional density of x (docs/maths.md section 3); those ignore the
    /// intercept column and `[prior] precision`.
    pub fn generative(self) -> bool {
        matches!(self, Family::Gaussian | Family::Bernoulli)
    }

    /// Samples or integrates the exact posterior: the gold standard the approximations are
    /// measured against.
    pub fn gold(self) -> bool {
        matches!(self, Family::Gibbs | Family::Hmc | Family::Quadrature)
    }

    /// How a view names the gold standard of this family: "Gibbs", "HMC", "quadrature"
    /// (`None` for the approximations).
    pub fn gold_name(self) -> Option<&'static str> {
        match self {
            Family::Gibbs => Some("Gibbs"),
            Family::Hmc => Some("HMC"),
            Family::Quadrature => Some("quadrature"),
            Family::Glm
            | Family::Softmax
            | Family::Ep
            | Family::Variational
            | Family::Gaussian
            | Family::Bernoulli => None,
        }
    }

    /// Draws Markov chains from the exact posterior (the `chains`, `draws`, `burn_in` and
    /// `thin` keys, R-hat and ESS).
    pub fn samples(self) -> bool {
        matches!(self, Family::Gibbs | Family::Hmc)
    }
}

/// The method kinds an experiment can name in `[[method]] kind = "..."`, in catalogue order.
/// Serialised as the row's name (`logistic-laplace`), which `catalog::tests` checks.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum MethodKind {
    LogisticMle,
    LogisticMap,
    LogisticLaplace,
    ProbitLaplace,
    SoftmaxLaplace,
    EpProbit,
    AdfProbit,
    EpLogistic,
    VbLogistic,
    ViLogistic,
    ViProbit,
    GaussianGenerative,
    GaussianNaiveBayes,
    BernoulliNaiveBayes,
    Lda,
    Qda,
    GibbsLogistic,
    GibbsProbit,
    HmcLogistic,
    HmcProbit,
    LogisticQuadrature,
    ProbitQuadrature,
}

impl MethodKind {
    pub const ALL: [MethodKind; 22] = [
        MethodKind::LogisticMle,
        MethodKind::LogisticMap,
        MethodKind::LogisticLaplace,
        MethodKind::ProbitLaplace,
        MethodKind::SoftmaxLaplace,
        MethodKind::EpProbit,
        MethodKind::AdfProbit,
        MethodKind::EpLogistic,
        MethodKind::VbLogistic,
        MethodKind::ViLogistic,
        MethodKind::ViProbit,
        MethodKind::GaussianGenerative,
        MethodKind::GaussianNaiveBayes,
        MethodKind::BernoulliNaiveBayes,
        MethodKind::Lda,
        MethodKind::Qda,
        MethodKind::GibbsLogistic,
        MethodKind::GibbsProbit,
        MethodKind::HmcLogistic,
        MethodKind::HmcProbit,
        MethodKind::LogisticQuadrature,
        MethodKind::ProbitQuadrature,
    ];
}

impl std::fmt::Display for MethodKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
