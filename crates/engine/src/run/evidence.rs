//! `[prior] precision = "evidence"`: lambda maximising the method's Laplace evidence
//! (logistic-map uses logistic-laplace's) over the grid of [`bayeslab_core::optim::log_grid::grid`], with the
//! held-out log-loss of the plug-in predictive at each point. These fits need every training row
//! in memory and are not traced: only the final fit is.

use std::sync::atomic::AtomicBool;

use super::metrics::evaluate;
use crate::config::{MethodPlan, Plan};
use bayeslab_core::error::{Error, NumericError, Result};
use bayeslab_core::model::predictive::PredictiveSettings;
use bayeslab_core::model::PredictiveKind;
use bayeslab_core::numeric::rng;
use bayeslab_core::optim::{Iterate, Termination};
use bayeslab_core::record::EvidencePoint;
use bayeslab_data::Dataset;

pub fn choose_precision(
    plan: &Plan,
    method: &MethodPlan,
    dataset: &Dataset,
    cancel: Option<&AtomicBool>,
) -> Result<(f64, Vec<EvidencePoint>)> {
    let mut laplace = method.clone();
    laplace.kind = method.kind.evidence_from().unwrap_or(method.kind);
    let k = dataset.classes.len();
    let source = super::source::Source::Memory(dataset);
    let chunks = bayeslab_core::model::streaming::InMemory {
        x: dataset.train.x.as_ref(),
        y: &dataset.train.y,
    };
    let mut points: Vec<EvidencePoint> = Vec::new();
    let mut evaluate_at = |precision: f64| -> Result<f64> {
        let request = source.fit_request(plan, &laplace, precision, cancel);
        let rows = source.rows(&chunks);
        let fitted =
            bayeslab_core::model::method::fit(&request, rows, &mut |_: &str, _: &Iterate| {})?;
        if fitted.outcome.termination == Termination::Cancelled {
            return Err(Error::Cancelled);
        }
        // A fit that stopped short of the mode (e.g. max-iterations on near-separable data at a
        // tiny lambda) has no trustworthy Laplace evidence: it is left out of the search.
        let log_evidence = fitted
            .posterior
            .and_then(|p| p.log_evidence)
            .filter(|_| fitted.outcome.termination.converged());
        let p = fitted.predictor.predict(
            PredictiveKind::Plugin,
            dataset.test.x.as_ref(),
            PredictiveSettings {
                mc_samples: 1,
                quadrature_nodes: 1,
                first_row: 0,
            },
            &mut rng::stream(plan.seed, "evidence"),
        );
        let scores = super::predict::scores(p, k);
        let test_log_loss = evaluate(
            PredictiveKind::Plugin,
            &scores,
            &dataset.test.y,
            &plan.evaluation,
            None,
        )
        .metrics
        .log_loss;
        points.push(EvidencePoint {
            precision,
            log_evidence,
            test_log_loss,
        });
        Ok(log_evidence.unwrap_or(f64::NEG_INFINITY))
    };
    let ((best, value), _) = bayeslab_core::optim::log_grid::maximise(&mut evaluate_at)?;
    if !value.is_finite() {
        return Err(Error::Numeric(NumericError::NonFinite(format!(
            "{}: no fit on the lambda grid converged, so no Laplace evidence is available; raise `max_iter`",
            method.id
        ))));
    }
    points.truncate(bayeslab_core::optim::log_grid::GRID_POINTS);
    Ok((best, points))
}
