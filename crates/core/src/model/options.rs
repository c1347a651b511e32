//! The kind-specific settings of `[[method]]`, one type per [`Family`]: a kind only carries
//! the settings its model reads. config/ validates them and fills in the defaults below.

use crate::catalog::Family;
use crate::optim::Schedule;

/// beta of the probit kinds that accept `noise`; probit-laplace is fixed at 1.
pub const DEFAULT_NOISE: f64 = 1.0;

/// The settings of one kind's family, one variant per [`Family`]: each family's fit receives
/// its own.
#[derive(Debug, Clone, PartialEq)]
pub enum Options {
    /// The GLM kinds have no settings beyond the optimiser.
    Glm,
    /// The quadrature kinds have none either (the grid adapts).
    Quadrature,
    Softmax(SoftmaxOptions),
    Ep(EpOptions),
    Variational(VariationalOptions),
    Gaussian(GaussianOptions),
    Bernoulli(BernoulliOptions),
    Gibbs(SamplerOptions),
    Hmc(SamplerOptions),
}

#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SoftmaxOptions {
    /// Fix the last class's weights at zero.
    pub reference_class: bool,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EpOptions {
    /// beta, the probit noise: P(y | w) = Phi(y w^T x / beta).
    pub noise: f64,
    /// Fraction of each EP site update taken (1 = undamped).
    pub damping: f64,
}

impl Default for EpOptions {
    fn default() -> Self {
        EpOptions {
            noise: DEFAULT_NOISE,
            damping: 1.0,
        }
    }
}

/// The variational kinds: `mean_field` restricts the KL-optimal Gaussian's covariance to a
/// diagonal (vi-logistic, vi-probit; vb-logistic is always full rank).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct VariationalOptions {
    pub mean_field: bool,
}

/// The Gaussian class-conditional kinds: the Normal-inverse-Wishart prior of
/// gaussian-generative and the Normal-Gamma priors of gaussian-naive-bayes (lda and qda, the
/// plug-in baselines, read none of these).
#[derive(Debug, Clone, PartialEq)]
pub struct GaussianOptions {
    /// One covariance shared by all classes.
    pub shared_covariance: bool,
    pub class_prior: ClassPrior,
    pub mu0: f64,
    pub kappa0: f64,
    pub alpha0: f64,
    pub beta0: f64,
    /// NIW degrees of freedom; `None` = D + 2.
    pub nu0: Option<f64>,
    /// NIW scale matrix Psi0 = psi0 I.
    pub psi0: f64,
}

impl Default for GaussianOptions {
    fn default() -> Self {
        GaussianOptions {
            shared_covariance: false,
            class_prior: ClassPrior::default(),
            mu0: 0.0,
            kappa0: 1.0,
            alpha0: 1.0,
            beta0: 1.0,
            nu0: None,
            psi0: 1.0,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct BernoulliOptions {
    pub class_prior: ClassPrior,
    /// Beta(a, b) on each Bernoulli feature probability.
    pub a: f64,
    pub b: f64,
    /// x > binarize is 1 (in the design's units, i.e. after standardisation).
    pub binarize: Option<f64>,
}

impl Default for BernoulliOptions {
    fn default() -> Self {
        BernoulliOptions {
            class_prior: ClassPrior::default(),
            a: 1.0,
            b: 1.0,
            binarize: None,
        }
    }
}

/// The samplers' settings (Gibbs and HMC): independent chains (run in parallel threads), kept
/// draws per chain, sweeps discarded first, the thinning interval, and beta of the probit
/// samplers (the logistic ones keep 1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SamplerOptions {
    pub chains: usize,
    pub draws: usize,
    pub burn_in: usize,
    pub thin: usize,
    pub noise: f64,
}

impl Default for SamplerOptions {
    fn default() -> Self {
        SamplerOptions {
            chains: 4,
            draws: 1000,
            burn_in: 500,
            thin: 1,
            noise: DEFAULT_NOISE,
        }
    }
}

impl SamplerOptions {
    pub fn schedule(&self) -> Schedule {
        Schedule {
            chains: self.chains,
            draws: self.draws,
            burn_in: self.burn_in,
            thin: self.thin,
        }
    }
}

/// Dirichlet(alpha_1..alpha_K) on the class probabilities.
#[derive(Debug, Clone, PartialEq)]
pub enum ClassPrior {
    Symmetric(f64),
    PerClass(Vec<f64>),
}

impl Default for ClassPrior {
    fn default() -> Self {
        ClassPrior::Symmetric(1.0)
    }
}

impl ClassPrior {
    /// The concentration of each of `k` classes, or an error message when the list has the
    /// wrong length.
    pub fn alphas(&self, k: usize) -> std::result::Result<Vec<f64>, String> {
        match self {
            ClassPrior::Symmetric(a) => Ok(vec![*a; k]),
            ClassPrior::PerClass(v) if v.len() == k => Ok(v.clone()),
            ClassPrior::PerClass(v) => Err(format!(
                "class_prior lists {} concentrations but the target has {k} classes; give {k} numbers or one",
                v.len()
            )),
        }
    }
}

impl Options {
    /// Every setting of `family` at its default.
    pub fn defaults(family: Family) -> Options {
        match family {
            Family::Glm => Options::Glm,
            Family::Quadrature => Options::Quadrature,
            Family::Softmax => Options::Softmax(SoftmaxOptions::default()),
            Family::Ep => Options::Ep(EpOptions::default()),
            Family::Variational => Options::Variational(VariationalOptions::default()),
            Family::Gaussian => Options::Gaussian(GaussianOptions::default()),
            Family::Bernoulli => Options::Bernoulli(BernoulliOptions::default()),
            Family::Gibbs => Options::Gibbs(SamplerOptions::default()),
            Family::Hmc => Options::Hmc(SamplerOptions::default()),
        }
    }

    /// The family these settings belong to: a spec's kind always has it (config/ builds the
    /// options from the kind's family, and the dispatcher checks).
    pub fn family(&self) -> Family {
        match self {
            Options::Glm => Family::Glm,
            Options::Quadrature => Family::Quadrature,
            Options::Softmax(_) => Family::Softmax,
            Options::Ep(_) => Family::Ep,
            Options::Variational(_) => Family::Variational,
            Options::Gaussian(_) => Family::Gaussian,
            Options::Bernoulli(_) => Family::Bernoulli,
            Options::Gibbs(_) => Family::Gibbs,
            Options::Hmc(_) => Family::Hmc,
        }
    }

    /// beta of a probit likelihood with a free noise (EP, ADF, gibbs-probit, hmc-probit); the
    /// families without the key have beta = 1.
    pub fn noise(&self) -> f64 {
        match self {
            Options::Ep(o) => o.noise,
            Options::Gibbs(o) | Options::Hmc(o) => o.noise,
            Options::Glm
            | Options::Quadrature
            | Options::Softmax(_)
            | Options::Variational(_)
            | Options::Gaussian(_)
            | Options::Bernoulli(_) => DEFAULT_NOISE,
        }
    }

    /// A sampler's chains, kept draws, burn-in and thinning; `None` for the other families.
    pub fn schedule(&self) -> Option<Schedule> {
        match self {
            Options::Gibbs(o) | Options::Hmc(o) => Some(o.schedule()),
            Options::Glm
            | Options::Quadrature
            | Options::Softmax(_)
            | Options::Ep(_)
            | Options::Variational(_)
            | Options::Gaussian(_)
            | Options::Bernoulli(_) => None,
        }
    }
}
