//! `[[method]]` keys that only some kinds use: their validated values, one options type per
//! family (`model::options`), and the same values written back for the resolved experiment.
//! Which kind accepts which key is the catalogue's (`bayeslab_core::catalog`).

use super::ctx::Ctx;
use super::limits;
use super::raw::{Concentration, RawMethod};
use bayeslab_core::catalog::{Family, MethodKind};
use bayeslab_core::error::Result;
use bayeslab_core::model::options::{
    BernoulliOptions, ClassPrior, EpOptions, GaussianOptions, Options, SamplerOptions,
    SoftmaxOptions, VariationalOptions,
};

pub const EP_MAX_ITER: usize = 100;
pub const EP_TOLERANCE: f64 = 1e-6;
/// The variational kinds' budget: the Jaakkola-Jordan iteration converges linearly, so it gets
/// more iterations than EP's sweeps; the guarded KL fixed point needs far fewer.
pub const VARIATIONAL_MAX_ITER: usize = 500;
pub const VARIATIONAL_TOLERANCE: f64 = 1e-6;

/// The advice for a fit that came out numerically degenerate: the keys that set `kind`'s prior
/// (the generative kinds ignore `[prior] precision`).
pub fn degenerate_fit_advice(kind: MethodKind) -> &'static str {
    kind.degenerate_advice()
}

/// Reject a key `kind` does not accept, naming the kinds that do.
fn check_keys(ctx: &Ctx<'_>, at: &str, kind: MethodKind, raw: &RawMethod) -> Result<()> {
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
    Ok(())
}

/// The validated settings of `kind`'s family, defaults filled in.
pub(super) fn method_options(
    ctx: &Ctx<'_>,
    at: &str,
    kind: MethodKind,
    raw: &RawMethod,
) -> Result<Options> {
    check_keys(ctx, at, kind, raw)?;
    let pos = |key: &str, v: Option<f64>, default: f64| {
        ctx.positive_f64(&format!("{at} {key}"), v.unwrap_or(default), false)
    };
    let noise = |default: f64| {
        ctx.in_range(
            &format!("{at} noise"),
            pos("noise", raw.noise, default)?,
            limits::NOISE_RANGE,
            "beta is in the units of the activation w^T x (about 1 on standardised features); below the range \
             the probit is a step and the updates overflow, above it the likelihood is flat",
        )
    };
    let class_prior = || -> Result<ClassPrior> {
        Ok(match &raw.class_prior {
            None => ClassPrior::default(),
            Some(Concentration::Symmetric(a)) => {
                ClassPrior::Symmetric(pos("class_prior", Some(*a), 1.0)?)
            }
            Some(Concentration::PerClass(v)) => {
                for &a in v {
                    pos("class_prior", Some(a), 1.0)?;
                }
                ClassPrior::PerClass(v.clone())
            }
        })
    };
    let mu0 = |default: f64| -> Result<f64> {
        let mu0 = raw.mu0.unwrap_or(default);
        if !mu0.is_finite() {
            return Err(ctx.err(format!("{at} mu0 = {mu0}: must be a finite number")));
        }
        Ok(mu0)
    };
    Ok(match kind.family() {
        Family::Glm => Options::Glm,
        Family::Quadrature => Options::Quadrature,
        Family::Softmax => Options::Softmax(SoftmaxOptions {
            reference_class: raw.reference_class.unwrap_or(false),
        }),
        Family::Ep => {
            let d = EpOptions::default();
            let damping = pos("damping", raw.damping, d.damping)?;
            if damping > 1.0 {
                return Err(ctx.err(format!(
                    "{at} damping = {damping}: must be in (0, 1] (1 takes the full EP update)"
                )));
            }
            Options::Ep(EpOptions {
                noise: noise(d.noise)?,
                damping,
            })
        }
        Family::Variational => Options::Variational(VariationalOptions {
            mean_field: raw.mean_field.unwrap_or(false),
        }),
        Family::Gaussian => {
            let d = GaussianOptions::default();
            let class_prior = class_prior()?;
            let mu0 = mu0(d.mu0)?;
            Options::Gaussian(GaussianOptions {
                shared_covariance: raw.shared_covariance.unwrap_or(false),
                class_prior,
                mu0,
                kappa0: pos("kappa0", raw.kappa0, d.kappa0)?,
                alpha0: pos("alpha0", raw.alpha0, d.alpha0)?,
                beta0: pos("beta0", raw.beta0, d.beta0)?,
                nu0: raw.nu0.map(|v| pos("nu0", Some(v), 1.0)).transpose()?,
                psi0: pos("psi0", raw.psi0, d.psi0)?,
            })
        }
        Family::Bernoulli => {
            let d = BernoulliOptions::default();
            let class_prior = class_prior()?;
            let binarize = match raw.binarize {
                Some(t) if !t.is_finite() => {
                    return Err(ctx.err(format!("{at} binarize = {t}: must be a finite threshold")))
                }
                other => other,
            };
            Options::Bernoulli(BernoulliOptions {
                class_prior,
                a: pos("a", raw.a, d.a)?,
                b: pos("b", raw.b, d.b)?,
                binarize,
            })
        }
        Family::Gibbs => Options::Gibbs(sampler(ctx, at, raw, noise)?),
        Family::Hmc => Options::Hmc(sampler(ctx, at, raw, noise)?),
    })
}

/// The sampler's schedule (bounded by the memory its draws take) and gibbs-probit's beta.
fn sampler(
    ctx: &Ctx<'_>,
    at: &str,
    raw: &RawMethod,
    noise: impl Fn(f64) -> Result<f64>,
) -> Result<SamplerOptions> {
    let d = SamplerOptions::default();
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
    ctx.sweeps(at, burn_in as u64, draws as u64, thin as u64)?;
    Ok(SamplerOptions {
        chains,
        draws,
        burn_in,
        thin,
        noise: noise(d.noise)?,
    })
}

/// Write the options `kind` accepts into `raw` (the resolved experiment), leaving the rest unset.
pub(super) fn write_raw(options: &Options, kind: MethodKind, raw: &mut RawMethod) {
    let f = |key: &str, v: f64| kind.accepts(key).then_some(v);
    let n = |key: &str, v: usize| kind.accepts(key).then_some(v as u64);
    let concentration = |c: &ClassPrior| match c {
        ClassPrior::Symmetric(a) => Concentration::Symmetric(*a),
        ClassPrior::PerClass(v) => Concentration::PerClass(v.clone()),
    };
    match options {
        Options::Glm | Options::Quadrature => {}
        Options::Softmax(o) => {
            raw.reference_class = kind.accepts("reference_class").then_some(o.reference_class)
        }
        Options::Ep(o) => {
            raw.noise = f("noise", o.noise);
            raw.damping = f("damping", o.damping);
        }
        Options::Variational(o) => {
            raw.mean_field = kind.accepts("mean_field").then_some(o.mean_field)
        }
        Options::Gaussian(o) => {
            raw.shared_covariance = kind
                .accepts("shared_covariance")
                .then_some(o.shared_covariance);
            raw.class_prior = kind
                .accepts("class_prior")
                .then(|| concentration(&o.class_prior));
            raw.mu0 = f("mu0", o.mu0);
            raw.kappa0 = f("kappa0", o.kappa0);
            raw.alpha0 = f("alpha0", o.alpha0);
            raw.beta0 = f("beta0", o.beta0);
            raw.nu0 = o.nu0.filter(|_| kind.accepts("nu0"));
            raw.psi0 = f("psi0", o.psi0);
        }
        Options::Bernoulli(o) => {
            raw.class_prior = kind
                .accepts("class_prior")
                .then(|| concentration(&o.class_prior));
            raw.a = f("a", o.a);
            raw.b = f("b", o.b);
            raw.binarize = o.binarize.filter(|_| kind.accepts("binarize"));
        }
        Options::Gibbs(o) | Options::Hmc(o) => {
            raw.noise = f("noise", o.noise);
            raw.chains = n("chains", o.chains);
            raw.draws = n("draws", o.draws);
            raw.burn_in = n("burn_in", o.burn_in);
            raw.thin = n("thin", o.thin);
        }
    }
}
