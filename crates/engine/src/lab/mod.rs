//! The approximation lab (issue 5, docs/maths.md 4): exact one-parameter posteriors against their
//! normal, log-normal, logit-normal, Student-t and Laplace-mixture approximations, with
//! distances, quantiles, mass outside the support and a data-size sweep.
//!
//! Every approximation comes from the general mode finder ([`mode::find_mode`]: Newton on
//! any log density, observed information at the mode); each family only writes its log
//! density. The result is [`PosteriorResult`], part of the run record.

pub mod beta_binomial;
pub mod beta_large;
pub mod beta_lopsided;
pub mod bisection;
pub mod cauchy;
pub mod dist;
pub mod distance_scale;
pub mod distances;
pub mod family;
pub mod gamma;
pub mod gamma_large;
pub mod gamma_poisson;
pub mod gini;
pub mod integrate;
pub mod map;
pub mod mixture;
pub mod mode;
pub mod moments;
pub mod observations;
pub mod summary;

use crate::config::{PosteriorKind, PosteriorPlan, Subset};
use bayeslab_core::error::Result;
use bayeslab_core::numeric::rng;

use bayeslab_core::record::PosteriorResult;
pub use observations::Observations;

/// Every posterior of an experiment, each at every subset size, in configuration order.
pub fn run_all(plans: &[PosteriorPlan], seed: u64) -> Result<Vec<PosteriorResult>> {
    let mut out = Vec::new();
    for plan in plans {
        let obs = observations::load(plan)?;
        for &s in &plan.subsets {
            out.push(run_one(plan, &observations::subset(&obs, s), s, seed)?);
        }
    }
    Ok(out)
}

/// One posterior at one subset size. Random streams are labelled by id and subset, so a
/// result does not depend on which other posteriors the experiment has.
pub fn run_one(
    plan: &PosteriorPlan,
    obs: &Observations,
    s: Subset,
    seed: u64,
) -> Result<PosteriorResult> {
    let what = format!("[[posterior]] \"{}\" (subset {})", plan.id, s.label());
    let label = |purpose: &str| format!("{}/{}/{purpose}", plan.id, s.label());
    let values = |obs: &Observations| match obs {
        Observations::Values(v) => v.clone(),
        Observations::Binomial { .. } => Vec::new(),
    };
    let built = match &plan.kind {
        PosteriorKind::GammaPoisson { shape, rate, t_df } => gamma_poisson::build(
            &values(obs),
            *shape,
            *rate,
            *t_df,
            &plan.approximations,
            &what,
        )?,
        PosteriorKind::BetaBinomial { a, b, t_df } => {
            let (successes, trials) = match obs {
                Observations::Binomial { successes, trials } => (*successes as f64, *trials as f64),
                Observations::Values(v) => (v.iter().sum(), v.len() as f64),
            };
            beta_binomial::build(
                successes,
                trials,
                *a,
                *b,
                *t_df,
                &plan.approximations,
                &what,
            )?
        }
        PosteriorKind::LognormalGini { draws } => {
            let mut approx = rng::stream(seed, &label("gini-approx"));
            let mut exact = rng::stream(seed, &label("gini-exact"));
            gini::build(&values(obs), *draws, (&mut approx, &mut exact), &what)?
        }
        PosteriorKind::MixtureLaplace {
            scale,
            prior_mean,
            prior_sd,
            starts,
        } => {
            let model = cauchy::CauchyModel {
                y: values(obs),
                scale: *scale,
                prior_mean: *prior_mean,
                prior_sd: *prior_sd,
            };
            mixture::build(
                model,
                *starts,
                &plan.approximations,
                &mut rng::stream(seed, &label("starts")),
                &what,
            )?
        }
    };
    let (exact, approximations, curves) = summary::compare(
        &built.exact,
        built.approximations,
        built.distance_scale.as_ref(),
    );
    Ok(PosteriorResult {
        id: plan.id.clone(),
        kind: plan.kind.name().to_string(),
        subset: s.label(),
        n: obs.len(),
        parameter: built.parameter.to_string(),
        exact_form: built.exact_form,
        exact,
        approximations,
        gini: built.gini,
        modes: built.modes,
        curves,
    })
}
