//! Models: what each `[[method]] kind` fits and how it predicts. Every kind fits from the
//! training [`crate::data::Design`] through [`method::fit`] and returns a [`method::Fitted`]
//! whose predictor answers per named predictive.

pub mod diagnostics;
pub mod ep;
pub mod gaussian;
pub mod generative;
pub mod gibbs;
pub mod importance;
pub mod laplace;
pub mod linear;
pub mod logistic;
pub mod method;
pub mod predictive;
pub mod probit;
pub mod softmax;
pub mod streaming;

pub use gaussian::GaussianPosterior;
pub use predictive::PredictiveKind;

use PredictiveKind::{Exact, Mc, Plugin};

/// p(y = 1 | w, x) of the binary linear models: sigma(w^T x) or Phi(w^T x / noise).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Likelihood {
    Logistic,
    Probit { noise: f64 },
}

/// The method kinds an experiment can name in `[[method]] kind = "..."`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MethodKind {
    /// Logistic regression by maximum likelihood (no prior).
    LogisticMle,
    /// Logistic regression at the posterior mode (MAP) under the Gaussian prior, plug-in prediction.
    LogisticMap,
    /// MAP plus the Laplace approximation N(w_MAP, H^{-1}) and its log evidence.
    LogisticLaplace,
    /// Probit regression: MAP by Newton with the exact probit Hessian, Laplace posterior (MATH.md 1.2).
    ProbitLaplace,
    /// Multiclass softmax regression with a Laplace posterior over the stacked weights (MATH.md 1.3).
    SoftmaxLaplace,
    /// Bayesian probit classification by expectation propagation (MATH.md section 2).
    EpProbit,
    /// One online pass of the EP updates in a seeded row order: assumed-density filtering.
    AdfProbit,
    /// Gaussian class-conditionals under a Normal-inverse-Wishart prior (MATH.md section 3).
    GaussianGenerative,
    /// Independent Gaussian features per class under Normal-Gamma priors.
    GaussianNaiveBayes,
    /// Independent binary features per class under Beta priors.
    BernoulliNaiveBayes,
    /// Plug-in Gaussian classes with one pooled maximum-likelihood covariance.
    Lda,
    /// Plug-in Gaussian classes with one maximum-likelihood covariance per class.
    Qda,
    /// Exact Bayesian logistic regression by Pólya-Gamma Gibbs sampling.
    GibbsLogistic,
    /// Exact Bayesian probit regression by Albert & Chib's truncated-normal Gibbs sampling.
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

    pub fn name(self) -> &'static str {
        match self {
            MethodKind::LogisticMle => "logistic-mle",
            MethodKind::LogisticMap => "logistic-map",
            MethodKind::LogisticLaplace => "logistic-laplace",
            MethodKind::ProbitLaplace => "probit-laplace",
            MethodKind::SoftmaxLaplace => "softmax-laplace",
            MethodKind::EpProbit => "ep-probit",
            MethodKind::AdfProbit => "adf-probit",
            MethodKind::GaussianGenerative => "gaussian-generative",
            MethodKind::GaussianNaiveBayes => "gaussian-naive-bayes",
            MethodKind::BernoulliNaiveBayes => "bernoulli-naive-bayes",
            MethodKind::Lda => "lda",
            MethodKind::Qda => "qda",
            MethodKind::GibbsLogistic => "gibbs-logistic",
            MethodKind::GibbsProbit => "gibbs-probit",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The likelihood of a binary linear model, p(y = 1 | w, x): what the exact posterior of
    /// the method's model is built from (`noise` is the probit beta of the EP/ADF/Gibbs
    /// kinds; probit-laplace has beta = 1). `None` for multiclass and generative models.
    pub fn likelihood(self, noise: f64) -> Option<Likelihood> {
        match self {
            MethodKind::LogisticMle
            | MethodKind::LogisticMap
            | MethodKind::LogisticLaplace
            | MethodKind::GibbsLogistic => Some(Likelihood::Logistic),
            MethodKind::ProbitLaplace => Some(Likelihood::Probit { noise: 1.0 }),
            MethodKind::EpProbit | MethodKind::AdfProbit | MethodKind::GibbsProbit => {
                Some(Likelihood::Probit { noise })
            }
            _ => None,
        }
    }

    /// Whether the method samples the exact posterior (the gold standard of its model).
    pub fn is_gold(self) -> bool {
        matches!(self, MethodKind::GibbsLogistic | MethodKind::GibbsProbit)
    }

    /// Whether the method yields a posterior over the weights.
    pub fn has_posterior(self) -> bool {
        matches!(
            self,
            MethodKind::LogisticLaplace
                | MethodKind::ProbitLaplace
                | MethodKind::SoftmaxLaplace
                | MethodKind::EpProbit
                | MethodKind::AdfProbit
                | MethodKind::GibbsLogistic
                | MethodKind::GibbsProbit
        )
    }

    /// Whether lambda can be chosen by maximising this kind's Laplace evidence
    /// (`[prior] precision = "evidence"`); logistic-map uses the logistic Laplace evidence.
    pub fn laplace_evidence(self) -> bool {
        matches!(
            self,
            MethodKind::LogisticMap
                | MethodKind::LogisticLaplace
                | MethodKind::ProbitLaplace
                | MethodKind::SoftmaxLaplace
        )
    }

    /// Whether the method only handles two classes.
    pub fn binary_only(self) -> bool {
        matches!(
            self,
            MethodKind::LogisticMle
                | MethodKind::LogisticMap
                | MethodKind::LogisticLaplace
                | MethodKind::ProbitLaplace
                | MethodKind::EpProbit
                | MethodKind::AdfProbit
                | MethodKind::GibbsLogistic
                | MethodKind::GibbsProbit
        )
    }

    /// Whether the method models the class-conditional density of x (MATH.md section 3); those
    /// ignore the intercept column.
    pub fn generative(self) -> bool {
        matches!(
            self,
            MethodKind::GaussianGenerative
                | MethodKind::GaussianNaiveBayes
                | MethodKind::BernoulliNaiveBayes
                | MethodKind::Lda
                | MethodKind::Qda
        )
    }

    /// Whether the method is fitted by minimising an objective with Newton or gradient descent.
    pub fn optimised(self) -> bool {
        matches!(
            self,
            MethodKind::LogisticMle
                | MethodKind::LogisticMap
                | MethodKind::LogisticLaplace
                | MethodKind::ProbitLaplace
                | MethodKind::SoftmaxLaplace
        )
    }

    /// The predictives this kind can evaluate, in their default order.
    pub fn predictives(self) -> &'static [PredictiveKind] {
        match self {
            MethodKind::LogisticMle | MethodKind::LogisticMap => &[Plugin],
            MethodKind::LogisticLaplace => &PredictiveKind::ALL,
            MethodKind::ProbitLaplace => &[Plugin, Mc, Exact],
            MethodKind::SoftmaxLaplace => &[Plugin, Mc],
            MethodKind::EpProbit | MethodKind::AdfProbit => &[Plugin, Exact],
            MethodKind::GaussianGenerative
            | MethodKind::GaussianNaiveBayes
            | MethodKind::BernoulliNaiveBayes => &[Exact],
            MethodKind::Lda | MethodKind::Qda => &[Plugin],
            MethodKind::GibbsLogistic | MethodKind::GibbsProbit => &[Plugin, Exact],
        }
    }

    pub fn supports(self, p: PredictiveKind) -> bool {
        self.predictives().contains(&p)
    }

    pub fn default_predictives(self) -> &'static [PredictiveKind] {
        self.predictives()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_every_kind_has_a_predictive() {
        for k in MethodKind::ALL {
            assert_eq!(MethodKind::parse(k.name()), Some(k));
            assert!(!k.predictives().is_empty());
        }
        assert!(!MethodKind::ProbitLaplace.supports(PredictiveKind::Mackay));
        assert!(!MethodKind::EpProbit.supports(PredictiveKind::Probit));
    }
}
