//! The table itself: one [`Row`] per method kind. Adding a kind starts here.

use super::fitting::Fitting;
use super::kind::{Family, Likelihood, MethodKind};
use super::log_evidence::LogEvidence;
use super::predictive::PredictiveKind::{Exact, Mackay, Mc, Plugin, Probit};
use super::row::{Restore, Row};

const OPTIMISER: [&str; 4] = ["optimizer", "learning_rate", "max_iter", "tolerance"];
const SAMPLER: [&str; 4] = ["chains", "draws", "burn_in", "thin"];
const PRIOR_ADVICE: &str = "try a larger [prior] precision or fewer features";
const GENERATIVE: &str = "a generative run keeps no weights to score with";

/// Fields every row shares a default for; each row below names what differs.
const BASE: Row = Row {
    kind: MethodKind::LogisticMle,
    name: "",
    family: Family::Glm,
    fitting: Fitting::Iterative,
    summary: "",
    predictives: &[Plugin],
    keys: &[],
    likelihood: None,
    weight_prior: true,
    streams: false,
    posterior: false,
    class_posterior: false,
    evidence_from: None,
    proposal_rank: None,
    restore: Restore::Linear,
    log_evidence: None,
    binary_only: false,
    advice: PRIOR_ADVICE,
};

/// The exact samplers (Gibbs, HMC): draws of a binary model's weights, predicting from them.
const SAMPLED: Row = Row {
    restore: Restore::Not(
        "a sampler's draws are not stored in results.json; predict scores Gaussian and point-estimate runs",
    ),
    predictives: &[Plugin, Exact],
    posterior: true,
    binary_only: true,
    fitting: Fitting::Sampled,
    ..BASE
};

/// One row per kind, in the order of [`MethodKind::ALL`].
pub const ROWS: [Row; 22] = [
    Row {
        kind: MethodKind::LogisticMle,
        name: "logistic-mle",
        summary: "logistic regression by maximum likelihood (no prior)",
        keys: &OPTIMISER,
        likelihood: Some(Likelihood::Logistic),
        streams: true,
        binary_only: true,
        weight_prior: false,
        advice: "try kind = \"logistic-map\" (a Gaussian prior) or fewer features",
        ..BASE
    },
    Row {
        kind: MethodKind::LogisticMap,
        name: "logistic-map",
        summary: "logistic regression at the posterior mode under the Gaussian prior, plug-in prediction",
        keys: &OPTIMISER,
        likelihood: Some(Likelihood::Logistic),
        streams: true,
        binary_only: true,
        evidence_from: Some(MethodKind::LogisticLaplace),
        ..BASE
    },
    Row {
        kind: MethodKind::LogisticLaplace,
        name: "logistic-laplace",
        summary: "MAP plus the Laplace approximation N(w_MAP, H^-1) and its log evidence",
        predictives: &[Plugin, Mc, Probit, Mackay, Exact],
        keys: &[
            "optimizer",
            "learning_rate",
            "max_iter",
            "tolerance",
            "mc_samples",
            "quadrature_nodes",
        ],
        likelihood: Some(Likelihood::Logistic),
        streams: true,
        posterior: true,
        binary_only: true,
        log_evidence: Some(LogEvidence::Laplace),
        evidence_from: Some(MethodKind::LogisticLaplace),
        proposal_rank: Some(3),
        ..BASE
    },
    Row {
        kind: MethodKind::ProbitLaplace,
        name: "probit-laplace",
        summary: "probit regression: MAP by Newton with the exact Hessian, Laplace posterior",
        predictives: &[Plugin, Mc, Exact],
        keys: &["optimizer", "learning_rate", "max_iter", "tolerance", "mc_samples"],
        likelihood: Some(Likelihood::Probit { noise: 1.0 }),
        streams: true,
        posterior: true,
        binary_only: true,
        log_evidence: Some(LogEvidence::Laplace),
        evidence_from: Some(MethodKind::ProbitLaplace),
        proposal_rank: Some(3),
        ..BASE
    },
    Row {
        kind: MethodKind::SoftmaxLaplace,
        name: "softmax-laplace",
        family: Family::Softmax,
        summary: "multiclass softmax regression with a Laplace posterior over the stacked weights",
        predictives: &[Plugin, Mc],
        keys: &[
            "optimizer",
            "learning_rate",
            "max_iter",
            "tolerance",
            "mc_samples",
            "reference_class",
        ],
        posterior: true,
        log_evidence: Some(LogEvidence::Laplace),
        evidence_from: Some(MethodKind::SoftmaxLaplace),
        restore: Restore::Not("a multiclass softmax run is not scored by predict yet"),
        ..BASE
    },
    Row {
        kind: MethodKind::EpProbit,
        name: "ep-probit",
        family: Family::Ep,
        summary: "Bayesian probit classification by expectation propagation",
        predictives: &[Plugin, Exact],
        keys: &["max_iter", "tolerance", "noise", "damping"],
        likelihood: Some(Likelihood::Probit { noise: 1.0 }),
        posterior: true,
        binary_only: true,
        log_evidence: Some(LogEvidence::Ep),
        proposal_rank: Some(0),
        restore: Restore::EpProbit,
        ..BASE
    },
    Row {
        kind: MethodKind::AdfProbit,
        name: "adf-probit",
        family: Family::Ep,
        summary: "one online pass of the EP updates in a seeded row order (assumed-density filtering)",
        predictives: &[Plugin, Exact],
        keys: &["noise"],
        likelihood: Some(Likelihood::Probit { noise: 1.0 }),
        posterior: true,
        binary_only: true,
        fitting: Fitting::OnePass,
        log_evidence: Some(LogEvidence::Adf),
        proposal_rank: Some(4),
        restore: Restore::EpProbit,
        ..BASE
    },
    Row {
        kind: MethodKind::EpLogistic,
        name: "ep-logistic",
        family: Family::Ep,
        summary: "Bayesian logistic regression by expectation propagation, tilted moments by quadrature",
        predictives: &[Plugin, Mc, Probit, Mackay, Exact],
        keys: &[
            "max_iter",
            "tolerance",
            "mc_samples",
            "quadrature_nodes",
            "damping",
        ],
        likelihood: Some(Likelihood::Logistic),
        posterior: true,
        binary_only: true,
        log_evidence: Some(LogEvidence::Ep),
        proposal_rank: Some(0),
        ..BASE
    },
    Row {
        kind: MethodKind::VbLogistic,
        name: "vb-logistic",
        family: Family::Variational,
        summary: "logistic regression by the Jaakkola-Jordan variational bound, q(w) = N(m, S)",
        predictives: &[Plugin, Mc, Probit, Mackay, Exact],
        keys: &["max_iter", "tolerance", "mc_samples", "quadrature_nodes"],
        likelihood: Some(Likelihood::Logistic),
        posterior: true,
        binary_only: true,
        log_evidence: Some(LogEvidence::JjBound),
        proposal_rank: Some(5),
        ..BASE
    },
    Row {
        kind: MethodKind::ViLogistic,
        name: "vi-logistic",
        family: Family::Variational,
        summary: "logistic regression by the KL-optimal Gaussian (maximal ELBO), full rank or mean field",
        predictives: &[Plugin, Mc, Probit, Mackay, Exact],
        keys: &[
            "max_iter",
            "tolerance",
            "mc_samples",
            "quadrature_nodes",
            "mean_field",
        ],
        likelihood: Some(Likelihood::Logistic),
        posterior: true,
        binary_only: true,
        log_evidence: Some(LogEvidence::Elbo),
        proposal_rank: Some(1),
        ..BASE
    },
    Row {
        kind: MethodKind::ViProbit,
        name: "vi-probit",
        family: Family::Variational,
        summary: "probit regression by the KL-optimal Gaussian (maximal ELBO), full rank or mean field",
        predictives: &[Plugin, Mc, Exact],
        keys: &["max_iter", "tolerance", "mc_samples", "mean_field"],
        likelihood: Some(Likelihood::Probit { noise: 1.0 }),
        posterior: true,
        binary_only: true,
        log_evidence: Some(LogEvidence::Elbo),
        proposal_rank: Some(1),
        ..BASE
    },
    Row {
        kind: MethodKind::GaussianGenerative,
        name: "gaussian-generative",
        family: Family::Gaussian,
        weight_prior: false,
        summary: "Gaussian class-conditionals under a Normal-inverse-Wishart prior",
        predictives: &[Exact],
        keys: &["shared_covariance", "class_prior", "mu0", "kappa0", "nu0", "psi0"],
        advice: "try a larger psi0 (the prior scale of each class covariance), [data] standardize = true or fewer features",
        fitting: Fitting::ClosedForm,
        class_posterior: true,
        restore: Restore::Not(GENERATIVE),
        ..BASE
    },
    Row {
        kind: MethodKind::GaussianNaiveBayes,
        name: "gaussian-naive-bayes",
        family: Family::Gaussian,
        weight_prior: false,
        summary: "independent Gaussian features per class under Normal-Gamma priors",
        predictives: &[Exact],
        keys: &["class_prior", "mu0", "kappa0", "alpha0", "beta0"],
        advice: "try a larger beta0 (the prior scale of each feature variance), [data] standardize = true or fewer features",
        fitting: Fitting::ClosedForm,
        class_posterior: true,
        restore: Restore::Not(GENERATIVE),
        ..BASE
    },
    Row {
        kind: MethodKind::BernoulliNaiveBayes,
        name: "bernoulli-naive-bayes",
        family: Family::Bernoulli,
        weight_prior: false,
        summary: "independent binary features per class under Beta priors",
        predictives: &[Exact],
        keys: &["class_prior", "a", "b", "binarize"],
        streams: true,
        advice: "try larger a and b (the Beta prior of each feature probability) or fewer features",
        fitting: Fitting::ClosedForm,
        class_posterior: true,
        restore: Restore::Not(GENERATIVE),
        ..BASE
    },
    Row {
        kind: MethodKind::Lda,
        name: "lda",
        family: Family::Gaussian,
        weight_prior: false,
        summary: "plug-in Gaussian classes with one pooled maximum-likelihood covariance",
        fitting: Fitting::ClosedForm,
        restore: Restore::Not(GENERATIVE),
        ..BASE
    },
    Row {
        kind: MethodKind::Qda,
        name: "qda",
        family: Family::Gaussian,
        weight_prior: false,
        summary: "plug-in Gaussian classes with one maximum-likelihood covariance per class",
        fitting: Fitting::ClosedForm,
        restore: Restore::Not(GENERATIVE),
        ..BASE
    },
    Row {
        kind: MethodKind::GibbsLogistic,
        name: "gibbs-logistic",
        family: Family::Gibbs,
        summary: "exact Bayesian logistic regression by Polya-Gamma Gibbs sampling",
        keys: &SAMPLER,
        likelihood: Some(Likelihood::Logistic),
        ..SAMPLED
    },
    Row {
        kind: MethodKind::GibbsProbit,
        name: "gibbs-probit",
        family: Family::Gibbs,
        summary: "exact Bayesian probit regression by Albert & Chib's truncated-normal Gibbs sampling",
        keys: &["noise", "chains", "draws", "burn_in", "thin"],
        likelihood: Some(Likelihood::Probit { noise: 1.0 }),
        ..SAMPLED
    },
    Row {
        kind: MethodKind::HmcLogistic,
        name: "hmc-logistic",
        family: Family::Hmc,
        summary: "exact Bayesian logistic regression by Hamiltonian Monte Carlo, preconditioned by the Laplace covariance",
        keys: &SAMPLER,
        likelihood: Some(Likelihood::Logistic),
        ..SAMPLED
    },
    Row {
        kind: MethodKind::HmcProbit,
        name: "hmc-probit",
        family: Family::Hmc,
        summary: "exact Bayesian probit regression by Hamiltonian Monte Carlo, preconditioned by the Laplace covariance",
        keys: &["noise", "chains", "draws", "burn_in", "thin"],
        likelihood: Some(Likelihood::Probit { noise: 1.0 }),
        ..SAMPLED
    },
    Row {
        kind: MethodKind::LogisticQuadrature,
        name: "logistic-quadrature",
        family: Family::Quadrature,
        summary: "the exact logistic posterior of at most 3 weights, its evidence and predictive on an adaptive grid",
        predictives: &[Exact, Plugin],
        likelihood: Some(Likelihood::Logistic),
        posterior: true,
        binary_only: true,
        log_evidence: Some(LogEvidence::Exact),
        fitting: Fitting::Quadrature,
        ..BASE
    },
    Row {
        kind: MethodKind::ProbitQuadrature,
        name: "probit-quadrature",
        family: Family::Quadrature,
        summary: "the exact probit posterior of at most 3 weights, its evidence and predictive on an adaptive grid",
        predictives: &[Exact, Plugin],
        likelihood: Some(Likelihood::Probit { noise: 1.0 }),
        posterior: true,
        binary_only: true,
        log_evidence: Some(LogEvidence::Exact),
        fitting: Fitting::Quadrature,
        ..BASE
    },
];
