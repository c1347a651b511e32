//! The report's tables, built once from the record and rendered by both report.md and
//! report.html, so the two can never disagree.

mod approximation;
mod coefficients;
mod comparison;
mod convergence;
#[cfg(test)]
mod convergence_tests;
mod dataset;
mod encoding;
#[cfg(test)]
mod encoding_tests;
mod evidence;
mod khat;
mod log_evidence;
pub mod loo;
pub mod markdown;
mod metrics;
mod table;
#[cfg(test)]
mod tests;
mod weights;

pub use approximation::{approximation_error, APPROXIMATION_ERROR_NOTE};
pub use coefficients::{coefficient_tables, sig, CoefficientTable, COEFFICIENTS_NOTE};
pub use comparison::comparison;
pub use convergence::{any_posterior, convergence, sampler_diagnostics};
pub use dataset::{data_files, features, features_caption, split_and_classes};
pub use encoding::{
    categorical_phrase, design_column, design_listing, fill_phrase, imputed, levels, DesignGroup,
    IMPUTED_CAPTION, LEVELS_CAPTION,
};
pub use evidence::{evidence, evidence_choice};
pub use khat::{khat_cell, khat_text, KHAT_NOTE};
pub use log_evidence::{
    log_evidence_table, LogEvidenceTable, HEADERS as LOG_EVIDENCE_HEADERS, LOG_EVIDENCE_NOTE,
};
pub use metrics::{
    calibration, ece_debiased_text, metrics, predictive_rows, run_cell, versus_best_text, ECE_NOTE,
    METRICS, METRICS_NOTE,
};
pub use table::{num, Cell, Mark, Table};
pub use weights::weights;
