//! `[[method]]` keys that only some kinds use: which kinds use each key, and their validated
//! values with defaults.

use super::limits;
use super::plan::Ctx;
use super::raw::RawMethod;
use crate::catalog::MethodKind;
use crate::error::Result;

pub const DEFAULT_EP_NOISE: f64 = 1.0;
pub const DEFAULT_EP_DAMPING: f64 = 1.0;
pub const EP_MAX_ITER: usize = 100;
pub const EP_TOLERANCE: f64 = 1e-6;

/// Settings only some kinds use (the table in this file says which); the others keep the defaults.
#[derive(Debug, Clone, PartialEq)]
pub struct MethodOptions {
    /// beta, the probit noise of EP/ADF: P(y | w) = Phi(y w^T x / beta).
    pub noise: f64,
    /// Fraction of each EP site update taken (1 = undamped).
    pub damping: f64,
    /// Softmax: fix the last class's weights at zero.
    pub reference_class: bool,
    /// Gaussian generative: one covariance shared by all classes.
    pub shared_covariance: bool,
    /// Dirichlet(alpha_1..alpha_K) on the class probabilities; `None` per class means 1.
    pub class_prior: ClassPrior,
    pub mu0: f64,
    pub kappa0: f64,
    pub alpha0: f64,
    pub beta0: f64,
    /// NIW degrees of freedom; `None` = D + 2.
    pub nu0: Option<f64>,
    /// NIW scale matrix Psi0 = psi0 I.
    pub psi0: f64,
    /// Beta(a, b) on each Bernoulli feature probability.
    pub a: f64,
    pub b: f64,
    /// Bernoulli naive Bayes: x > binarize is 1 (in the design's units, i.e. after standardisation).
    pub binarize: Option<f64>,
    /// Gibbs samplers: independent chains (run in parallel threads), kept draws per chain,
    /// sweeps discarded first, and the thinning interval.
    pub chains: usize,
    pub draws: usize,
    pub burn_in: usize,
    pub thin: usize,
}

impl Default for MethodOptions {
    fn default() -> Self {
        MethodOptions {
            noise: DEFAULT_EP_NOISE,
            damping: DEFAULT_EP_DAMPING,
            reference_class: false,
            shared_covariance: false,
            class_prior: ClassPrior::Symmetric(1.0),
            mu0: 0.0,
            kappa0: 1.0,
            alpha0: 1.0,
            beta0: 1.0,
            nu0: None,
            psi0: 1.0,
            a: 1.0,
            b: 1.0,
            binarize: None,
            chains: 4,
            draws: 1000,
            burn_in: 500,
            thin: 1,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum ClassPrior {
    Symmetric(f64),
    PerClass(Vec<f64>),
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

/// The advice for a fit that came out numerically degenerate: the keys that set `kind`'s prior
/// (the generative kinds ignore `[prior] precision`).
pub fn degenerate_fit_advice(kind: MethodKind) -> &'static str {
    kind.degenerate_advice()
}

impl MethodOptions {
    /// Write the options `kind` uses into `raw` (the resolved experiment), leaving the rest unset.
    pub(super) fn write_raw(&self, kind: MethodKind, raw: &mut RawMethod) {
        let set = |key: &str| kind.accepts(key);
        let f = |key: &str, v: f64| set(key).then_some(v);
        raw.noise = f("noise", self.noise);
        raw.damping = f("damping", self.damping);
        raw.reference_class = set("reference_class").then_some(self.reference_class);
        raw.shared_covariance = set("shared_covariance").then_some(self.shared_covariance);
        raw.class_prior = set("class_prior").then(|| match &self.class_prior {
            ClassPrior::Symmetric(a) => super::raw::Concentration::Symmetric(*a),
            ClassPrior::PerClass(v) => super::raw::Concentration::PerClass(v.clone()),
        });
        raw.mu0 = f("mu0", self.mu0);
        raw.kappa0 = f("kappa0", self.kappa0);
        raw.alpha0 = f("alpha0", self.alpha0);
        raw.beta0 = f("beta0", self.beta0);
        raw.nu0 = self.nu0.filter(|_| set("nu0"));
        raw.psi0 = f("psi0", self.psi0);
        raw.a = f("a", self.a);
        raw.b = f("b", self.b);
        raw.binarize = self.binarize.filter(|_| set("binarize"));
        let n = |key: &str, v: usize| set(key).then_some(v as u64);
        raw.chains = n("chains", self.chains);
        raw.draws = n("draws", self.draws);
        raw.burn_in = n("burn_in", self.burn_in);
        raw.thin = n("thin", self.thin);
    }
}

pub(super) fn method_options(
    ctx: &Ctx<'_>,
    at: &str,
    kind: MethodKind,
    raw: &RawMethod,
) -> Result<MethodOptions> {
    for key in raw.option_keys() {
        if !kind.accepts(key) {
            let users: Vec<&str> = MethodKind::ALL
                .iter()
                .filter(|k| k.accepts(key))
                .map(|k| k.name())
                .collect();
            return Err(ctx.err(format!(
                "{at}: `{key}` does not apply to kind = \"{}\"; it is used by {}. Remove `{key}` or change the kind",
                kind.name(),
                users.join(", ")
            )));
        }
    }
    let d = MethodOptions::default();
    let pos = |key: &str, v: Option<f64>, default: f64| {
        ctx.positive_f64(&format!("{at} {key}"), v.unwrap_or(default), false)
    };
    let damping = pos("damping", raw.damping, d.damping)?;
    if damping > 1.0 {
        return Err(ctx.err(format!(
            "{at} damping = {damping}: must be in (0, 1] (1 takes the full EP update)"
        )));
    }
    let class_prior = match &raw.class_prior {
        None => d.class_prior,
        Some(super::raw::Concentration::Symmetric(a)) => {
            ClassPrior::Symmetric(pos("class_prior", Some(*a), 1.0)?)
        }
        Some(super::raw::Concentration::PerClass(v)) => {
            for &a in v {
                pos("class_prior", Some(a), 1.0)?;
            }
            ClassPrior::PerClass(v.clone())
        }
    };
    let mu0 = raw.mu0.unwrap_or(d.mu0);
    if !mu0.is_finite() {
        return Err(ctx.err(format!("{at} mu0 = {mu0}: must be a finite number")));
    }
    let binarize = match raw.binarize {
        Some(t) if !t.is_finite() => {
            return Err(ctx.err(format!("{at} binarize = {t}: must be a finite threshold")))
        }
        other => other,
    };
    let chains = raw.chains.unwrap_or(d.chains as u64);
    let chains = ctx.bounded(&format!("{at} chains"), chains, 2, limits::chains())?;
    let draws = raw.draws.unwrap_or(d.draws as u64);
    let draws = ctx.bounded(
        &format!("{at} draws"),
        draws,
        4,
        limits::draws(chains as u64),
    )?;
    let burn_in = ctx.count(
        &format!("{at} burn_in"),
        raw.burn_in.unwrap_or(d.burn_in as u64),
        0,
    )?;
    let thin = ctx.count(&format!("{at} thin"), raw.thin.unwrap_or(d.thin as u64), 1)?;
    if kind.accepts("draws") {
        ctx.sweeps(at, burn_in as u64, draws as u64, thin as u64)?;
    }
    Ok(MethodOptions {
        noise: ctx.in_range(
            &format!("{at} noise"),
            pos("noise", raw.noise, d.noise)?,
            limits::NOISE_RANGE,
            "beta is in the units of the activation w^T x (about 1 on standardised features); below the range \
             the probit is a step and the updates overflow, above it the likelihood is flat",
        )?,
        damping,
        reference_class: raw.reference_class.unwrap_or(false),
        shared_covariance: raw.shared_covariance.unwrap_or(false),
        class_prior,
        mu0,
        kappa0: pos("kappa0", raw.kappa0, d.kappa0)?,
        alpha0: pos("alpha0", raw.alpha0, d.alpha0)?,
        beta0: pos("beta0", raw.beta0, d.beta0)?,
        nu0: raw.nu0.map(|v| pos("nu0", Some(v), 1.0)).transpose()?,
        psi0: pos("psi0", raw.psi0, d.psi0)?,
        a: pos("a", raw.a, d.a)?,
        b: pos("b", raw.b, d.b)?,
        binarize,
        chains,
        draws,
        burn_in,
        thin,
    })
}
