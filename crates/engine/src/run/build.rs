//! The one record builder: every runner (in memory, streamed, lab-only) ends here.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::config::Plan;
use bayeslab_core::error::Result;
use bayeslab_core::record::{
    DatasetInfo, EvidenceEstimate, ExperimentInfo, ExperimentRecord, PredictionTable, RunRecord,
    StreamingRecord, TraceRow, SCHEMA_VERSION,
};

/// What a run produced, before the parts every record shares are added.
pub struct Parts {
    pub dataset: DatasetInfo,
    /// SHA-256 of each data file read, taken when it was read.
    pub digests: BTreeMap<String, String>,
    pub runs: Vec<RunRecord>,
    pub predictions: PredictionTable,
    pub trace: Vec<TraceRow>,
    pub streaming: Option<StreamingRecord>,
    /// ln p(y | X) by importance sampling, per binary likelihood (run/true_evidence.rs).
    pub evidence: Vec<EvidenceEstimate>,
}

impl Parts {
    /// An experiment without data: only `[[posterior]]` tables.
    pub fn empty() -> Parts {
        Parts {
            dataset: DatasetInfo::default(),
            digests: BTreeMap::new(),
            runs: Vec::new(),
            predictions: PredictionTable::default(),
            trace: Vec::new(),
            streaming: None,
            evidence: Vec::new(),
        }
    }
}

/// The record of `plan` from `parts`: the approximation lab, the gold comparison and the
/// provenance are added here.
pub fn record(plan: &Plan, parts: Parts) -> Result<ExperimentRecord> {
    Ok(ExperimentRecord {
        schema_version: SCHEMA_VERSION,
        experiment: experiment_info(plan),
        dataset: parts.dataset,
        approximation_error: super::gold::approximation_errors(
            plan,
            &parts.runs,
            &parts.predictions,
        ),
        evidence: parts.evidence,
        loo_comparison: bayeslab_core::record::compare_loo(
            &parts
                .runs
                .iter()
                .filter_map(|r| r.loo.as_ref().map(|l| (r.id.as_str(), l)))
                .collect::<Vec<_>>(),
        ),
        runs: parts.runs,
        provenance: super::provenance::collect(plan, parts.digests, &lab_files(plan))?,
        comparison: None,
        versus_best: versus_best(plan, &parts.predictions),
        posteriors: crate::lab::run_all(&plan.posteriors, plan.seed)?,
        predictions: parts.predictions,
        trace: parts.trace,
        streaming: parts.streaming,
        input_space: None,
        input_space_pairs: Vec::new(),
        exact_contours: None,
    })
}

/// Every predictive against the best per metric, on `[evaluation] resamples` resamples (fewer
/// when the test rows are so many that compare would refuse them); nothing for predictions
/// streamed to a file.
fn versus_best(plan: &Plan, table: &PredictionTable) -> Vec<bayeslab_core::record::VersusBest> {
    let predictions = crate::compare::Predictions {
        y: table.y.clone(),
        columns: table
            .columns
            .iter()
            .map(|c| (c.name(), c.scores.clone()))
            .collect(),
        bins: plan.evaluation.calibration_bins,
        binning: plan.evaluation.binning,
    };
    let largest = crate::compare::Resamples::largest(table.y.len());
    let resamples = plan.evaluation.resamples.min(largest);
    crate::compare::versus_best(&predictions, resamples, plan.seed)
}

/// The data files of the `[[posterior]]` tables (for the provenance digests).
fn lab_files(plan: &Plan) -> Vec<PathBuf> {
    plan.posteriors
        .iter()
        .filter_map(|p| match &p.source {
            crate::config::PosteriorSource::Column { path, .. } => Some(path.clone()),
            _ => None,
        })
        .collect()
}

fn experiment_info(plan: &Plan) -> ExperimentInfo {
    ExperimentInfo {
        name: plan.name.clone(),
        seed: plan.seed,
        description: plan.description.clone(),
        file: plan.file.display().to_string(),
        prior_precision: plan.prior.precision,
        prior_evidence: plan.prior.evidence,
        calibration_bins: plan.evaluation.calibration_bins,
        calibration_binning: plan.evaluation.binning,
    }
}
