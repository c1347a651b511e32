//! The catalogue of method kinds: one row per `[[method]] kind` ([`table::ROWS`]) that config
//! validation, the model dispatcher, `--help`, the TUI and the reports all read, instead of a
//! `match` per question in each of them. It sits below both `config/` and `model/` and imports
//! nothing of the crate, so either may ask it anything.

mod facts;
mod fitting;
mod kind;
mod log_evidence;
mod predictive;
mod row;
mod table;

pub use fitting::{thousands, Fitting};
pub use kind::{Family, Likelihood, Link, MethodKind};
pub use log_evidence::LogEvidence;
pub use predictive::PredictiveKind;
pub use row::{Restore, Row, COMMON_KEYS, OPTION_KEYS};
pub use table::ROWS;

#[cfg(test)]
mod tests;
