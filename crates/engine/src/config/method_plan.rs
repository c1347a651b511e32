//! `[[method]]`: one method to fit and evaluate. The fit reads a [`MethodSpec`] (model/ takes
//! nothing else from the experiment); the plan adds what only the evaluation needs.

use std::ops::{Deref, DerefMut};

use super::ctx::{validate_name, Ctx};
use super::limits;
use super::method_options::{
    method_options, EP_MAX_ITER, EP_TOLERANCE, VARIATIONAL_MAX_ITER, VARIATIONAL_TOLERANCE,
};
use super::raw::RawMethod;
use super::suggest::did_you_mean;
use bayeslab_core::catalog::{Family, MethodKind, PredictiveKind};
use bayeslab_core::error::Result;
use bayeslab_core::model::spec::{MethodSpec, Optimizer};

pub const DEFAULT_MC_SAMPLES: usize = 10_000;
pub const DEFAULT_QUADRATURE_NODES: usize = 64;
/// The Gauss-Hermite root finder is verified up to this many nodes.
pub const MAX_QUADRATURE_NODES: usize = 150;
pub const NEWTON_MAX_ITER: usize = 100;
pub const NEWTON_TOLERANCE: f64 = 1e-8;
pub const GRADIENT_MAX_ITER: usize = 20_000;
pub const GRADIENT_TOLERANCE: f64 = 1e-5;
pub const GRADIENT_LEARNING_RATE: f64 = 1.0;

#[derive(Debug, Clone, PartialEq)]
pub struct MethodPlan {
    /// What the fit reads: id, kind, optimiser and the family's options.
    pub spec: MethodSpec,
    pub predictives: Vec<PredictiveKind>,
    pub mc_samples: usize,
    pub quadrature_nodes: usize,
}

/// A plan is its fit specification plus evaluation settings, so `plan.id`, `plan.kind`, ...
/// read the spec: the runner and the views keep their field paths, and a `&MethodPlan` is
/// handed to model/ as the `&MethodSpec` it is.
impl Deref for MethodPlan {
    type Target = MethodSpec;

    fn deref(&self) -> &MethodSpec {
        &self.spec
    }
}

impl DerefMut for MethodPlan {
    fn deref_mut(&mut self) -> &mut MethodSpec {
        &mut self.spec
    }
}

pub(super) fn method_plan(ctx: &Ctx<'_>, index: usize, raw: RawMethod) -> Result<MethodPlan> {
    let at = format!("[[method]] #{}", index + 1);
    let kind = MethodKind::parse(&raw.kind).ok_or_else(|| {
        ctx.err(format!(
            "{at}: kind = \"{}\" is unknown; expected one of {}{}",
            raw.kind,
            MethodKind::ALL
                .iter()
                .map(|k| k.name())
                .collect::<Vec<_>>()
                .join(", "),
            did_you_mean(&raw.kind, MethodKind::ALL.iter().map(|k| k.name()))
        ))
    })?;
    let id = match raw.id.clone() {
        Some(id) => validate_name(ctx, &format!("{at} id"), &id)?,
        None => kind.name().to_string(),
    };
    let at = format!("{at} (id \"{id}\")");
    let predictives = match raw.predictive.clone() {
        None => kind.default_predictives().to_vec(),
        Some(names) => {
            if names.is_empty() {
                return Err(ctx.err(format!(
                    "{at}: predictive = []: list at least one predictive"
                )));
            }
            let mut out = Vec::new();
            for n in &names {
                let p = PredictiveKind::parse(n).ok_or_else(|| {
                    ctx.err(format!(
                        "{at}: predictive \"{n}\" is unknown; expected one of {}{}",
                        PredictiveKind::ALL
                            .iter()
                            .map(|k| k.name())
                            .collect::<Vec<_>>()
                            .join(", "),
                        did_you_mean(n, PredictiveKind::ALL.iter().map(|k| k.name()))
                    ))
                })?;
                if !kind.supports(p) {
                    let offered: Vec<String> = kind
                        .predictives()
                        .iter()
                        .map(|p| format!("\"{}\"", p.name()))
                        .collect();
                    let why = if kind.has_posterior() || kind.generative() {
                        format!("{} does not define", kind.name())
                    } else {
                        format!("{} has no posterior, so", kind.name())
                    };
                    return Err(ctx.err(format!(
                        "{at}: {why} predictive \"{n}\" is not available; it offers [{}] \
                         (kind = \"logistic-laplace\" has all five)",
                        offered.join(", ")
                    )));
                }
                if out.contains(&p) {
                    return Err(ctx.err(format!("{at}: predictive \"{n}\" is listed twice")));
                }
                out.push(p);
            }
            out
        }
    };
    let optimizer = match raw.optimizer.as_deref().unwrap_or("newton") {
        "newton" => {
            if raw.learning_rate.is_some() {
                return Err(ctx.err(format!(
                    "{at}: learning_rate only applies with optimizer = \"gradient\"; remove it or set the optimizer"
                )));
            }
            Optimizer::Newton
        }
        "gradient" => Optimizer::Gradient {
            learning_rate: ctx.positive_f64(
                &format!("{at} learning_rate"),
                raw.learning_rate.unwrap_or(GRADIENT_LEARNING_RATE),
                false,
            )?,
        },
        other => {
            return Err(ctx.err(format!(
                "{at}: optimizer = \"{other}\" is unknown; expected \"newton\" or \"gradient\"{}",
                did_you_mean(other, ["newton", "gradient"])
            )))
        }
    };
    let (default_iter, default_tol) = match (kind, optimizer) {
        (kind, _) if kind.family() == Family::Ep => (EP_MAX_ITER, EP_TOLERANCE),
        (kind, _) if kind.family() == Family::Variational => {
            (VARIATIONAL_MAX_ITER, VARIATIONAL_TOLERANCE)
        }
        (_, Optimizer::Newton) => (NEWTON_MAX_ITER, NEWTON_TOLERANCE),
        (_, Optimizer::Gradient { .. }) => (GRADIENT_MAX_ITER, GRADIENT_TOLERANCE),
    };
    let max_iter = ctx.bounded(
        &format!("{at} max_iter"),
        raw.max_iter.unwrap_or(default_iter as u64),
        1,
        limits::max_iter(),
    )?;
    let tolerance = ctx.positive_f64(
        &format!("{at} tolerance"),
        raw.tolerance.unwrap_or(default_tol),
        false,
    )?;
    let options = method_options(ctx, &at, kind, &raw)?;
    let mc_samples = ctx.bounded(
        &format!("{at} mc_samples"),
        raw.mc_samples.unwrap_or(DEFAULT_MC_SAMPLES as u64),
        1,
        limits::mc_samples(),
    )?;
    let quadrature_nodes = ctx.count(
        &format!("{at} quadrature_nodes"),
        raw.quadrature_nodes
            .unwrap_or(DEFAULT_QUADRATURE_NODES as u64),
        1,
    )?;
    if quadrature_nodes > MAX_QUADRATURE_NODES {
        return Err(ctx.err(format!(
            "{at} quadrature_nodes = {quadrature_nodes}: at most {MAX_QUADRATURE_NODES}"
        )));
    }
    Ok(MethodPlan {
        spec: MethodSpec {
            id,
            kind,
            optimizer,
            max_iter,
            tolerance,
            options,
        },
        predictives,
        mc_samples,
        quadrature_nodes,
    })
}
