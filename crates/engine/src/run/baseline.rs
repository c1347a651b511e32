//! `baseline = "runs/previous"`: this run (B) against a previous run directory (A) on the same
//! test rows, by the paired bootstrap of `compare/`.

use std::path::Path;

use crate::compare;
use crate::config::Plan;
use bayeslab_core::error::Result;
use bayeslab_core::record::{ComparisonRecord, ExperimentRecord};

pub fn compare(plan: &Plan, dir: &Path, record: &ExperimentRecord) -> Result<ComparisonRecord> {
    let a = compare::Predictions::from_dir(dir)?;
    let b = compare::Predictions::from_record(record);
    let resamples = plan.evaluation.resamples;
    let count = compare::Resamples {
        count: resamples,
        file: &plan.file,
        key: "[evaluation] resamples",
    };
    let rows = compare::compare(&a, &b, count, plan.seed, dir, &plan.file)?;
    Ok(ComparisonRecord {
        baseline: dir.display().to_string(),
        resamples,
        rows,
    })
}
