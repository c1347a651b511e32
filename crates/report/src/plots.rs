//! The report's figures as SVG text, drawn with plotters' SVG backend: reliability diagrams,
//! convergence curves, posterior weights and, for 8x8 image data, weight heatmaps.

mod axis;
mod canvas;
mod chains;
mod convergence;
mod density;
mod evidence;
mod formulas;
mod heatmaps;
mod input_space;
mod legend;
#[cfg(test)]
mod picture_tests;
mod reliability;
mod steps;
#[cfg(test)]
mod steps_tests;
mod sweep;
#[cfg(test)]
mod tests;
mod weight_space;
mod weights;

pub use canvas::Figure;
pub use chains::chains;
pub use convergence::{convergence, Objective, Trace};
pub use density::density;
pub use evidence::evidence;
pub use heatmaps::heatmaps;
pub use input_space::{clip, others as held_features, surface_lines};
pub use reliability::{reliability, wilson, GUIDE as RELIABILITY_GUIDE};
pub use steps::{stem as steps_stem, strips as step_strips, COLUMNS as STEP_COLUMNS};
pub use sweep::{against, coincide};
pub use weight_space::{stem as weight_space_stem, weight_space, GUIDE as WEIGHT_SPACE_GUIDE};
pub use weights::weights;

use bayeslab_core::record::ExperimentRecord;

/// Every figure of a record, in report order.
pub fn figures(r: &ExperimentRecord) -> Vec<Figure> {
    let mut out = Vec::new();
    for run in r.runs.iter().filter(|run| !run.predictives.is_empty()) {
        out.push(reliability(run));
    }
    let sampler = |id: &str| {
        r.runs
            .iter()
            .any(|run| run.id == id && run.diagnostics.is_some())
    };
    // The optimisers that iterated, by kind of objective.
    let mut kinds: Vec<Objective> = r
        .runs
        .iter()
        .filter(|run| !sampler(&run.id))
        .filter(|run| {
            r.trace
                .iter()
                .any(|t| t.run == run.id && t.iterate.iteration > 0)
        })
        .map(Objective::of)
        .collect();
    kinds.sort();
    kinds.dedup();
    if kinds.iter().any(|&o| o != Objective::Ep) {
        out.push(convergence(r, Trace::Gradient));
    }
    if kinds.contains(&Objective::Ep) {
        out.push(convergence(r, Trace::SiteDistance));
    }
    out.extend(
        kinds
            .into_iter()
            .map(|o| convergence(r, Trace::Objective(o))),
    );
    out.extend(r.runs.iter().filter_map(chains));
    if r.runs.iter().any(|run| !run.weights.is_empty()) {
        out.push(weights(r));
    }
    for run in &r.runs {
        if let Some(f) = heatmaps(r, run) {
            out.push(f);
        }
    }
    for run in r.runs.iter().filter(|run| !run.evidence_curve.is_empty()) {
        out.push(evidence(run));
    }
    out.extend(r.posteriors.iter().map(density));
    out.extend(pictures(r));
    out
}

/// The pictures of the posterior (docs/maths.md §15–§17), in report order.
fn pictures(r: &ExperimentRecord) -> Vec<Figure> {
    crate::contour::default_pair(r)
        .and_then(|pair| weight_space(r, pair))
        .into_iter()
        .chain(input_space::input_space(r))
        .chain(
            uses_moderation(r)
                .then(|| formulas::formulas(r.experiment.seed))
                .into_iter()
                .flatten(),
        )
        .chain(steps::strips(r))
        .collect()
}

/// Whether a run of the experiment predicts with a moderated predictive (MC, probit, MacKay or
/// exact), whose formulas the one-dimensional pictures explain.
fn uses_moderation(r: &ExperimentRecord) -> bool {
    r.runs
        .iter()
        .flat_map(|run| &run.predictives)
        .any(|p| p.name != bayeslab_core::catalog::PredictiveKind::Plugin)
}
