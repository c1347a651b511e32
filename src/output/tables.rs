//! The report's tables, built once from the record and rendered by both report.md and
//! report.html, so the two can never disagree.

mod approximation;
mod comparison;
mod convergence;
mod dataset;
mod evidence;
pub mod markdown;
mod metrics;
mod table;
#[cfg(test)]
mod tests;
mod weights;

pub use approximation::{approximation_error, khat_text, APPROXIMATION_ERROR_NOTE};
pub use comparison::comparison;
pub use convergence::{any_posterior, convergence, khat_cell, sampler_diagnostics, KHAT_NOTE};
pub use dataset::{data_files, features};
pub use evidence::{evidence, evidence_choice};
pub use metrics::{calibration, metrics, predictive_rows, METRICS};
pub use table::{num, Cell, Mark, Table};
pub use weights::weights;
