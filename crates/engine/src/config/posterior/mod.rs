//! `[[posterior]]` tables of the approximation lab (issue 5, docs/maths.md 4): the serde mirror
//! and its validation into [`PosteriorPlan`]s. Kept apart from `raw.rs`/`plan.rs`, which only
//! gain one field each.

mod plan;
mod raw;
mod validation;

pub use plan::*;
pub use raw::{RawColumn, RawPosterior, RawSubset};
pub use validation::plans;

#[cfg(test)]
mod tests;
