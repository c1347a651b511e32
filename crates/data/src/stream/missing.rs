//! The in-memory loader's rules for missing values, applied to a statistics pass's counts.

use std::path::Path;

use super::scan::FileScan;
use crate::plan::{DataPlan, Missing};
use crate::prepare;
use crate::prepare::missing::{drop_note, missing_message};
use bayeslab_core::error::{Error, Result};

/// The in-memory loader's handling of rows with missing values, from the pass's counts.
pub(super) fn check_missing(
    path: &Path,
    plan: &DataPlan,
    scan: &FileScan,
    features: &[String],
    notes: &mut Vec<String>,
) -> Result<()> {
    let per_feature: Vec<usize> = scan.tallies.iter().map(|t| t.file_missing).collect();
    prepare::check_not_all_missing(
        scan.rows,
        &plan.target,
        scan.target_missing,
        features,
        &per_feature,
        plan.features.is_some(),
    )
    .map_err(|m| Error::data(path, m))?;
    if scan.bad == 0 {
        return Ok(());
    }
    if plan.missing == Missing::Error {
        return Err(Error::data(
            path,
            missing_message(
                scan.bad,
                &plan.target,
                scan.target_missing,
                features,
                &per_feature,
                scan.first_bad.unwrap_or(0),
            ),
        ));
    }
    notes.push(drop_note(path, plan.missing, scan.bad, scan.rows));
    Ok(())
}
