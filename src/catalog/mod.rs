//! The catalogue of method kinds: one row per `[[method]] kind` ([`table::ROWS`]) that config
//! validation, the model dispatcher, `--help`, the TUI and the reports all read, instead of a
//! `match` per question in each of them. It sits below both `config/` and `model/` and imports
//! nothing of the crate, so either may ask it anything.

mod facts;
mod fitting;
mod kind;
mod log_evidence;
mod predictive;
mod table;

pub use fitting::{thousands, Fitting};
pub use kind::{Family, Likelihood, MethodKind};
pub use log_evidence::LogEvidence;
pub use predictive::PredictiveKind;
pub use table::{Row, COMMON_KEYS, OPTION_KEYS, ROWS};

#[cfg(test)]
mod tests;
