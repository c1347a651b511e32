//! What a family hands to the comparison: the exact posterior of one scalar parameter and
//! the approximations built from modes found by the general routine ([`super::mode`]).

use super::dist::Dist;
use super::summary::{GiniResult, ModeRecord};
use crate::error::{Error, NumericError};

pub struct Built {
    pub parameter: &'static str,
    pub exact_form: String,
    pub exact: Dist,
    /// (contract name, fitted form, distribution on the original scale).
    pub approximations: Vec<(&'static str, String, Dist)>,
    pub gini: Option<GiniResult>,
    pub modes: Vec<ModeRecord>,
}

/// A mode-finding failure, named after the posterior and subset it belongs to.
pub fn numeric(what: &str, e: NumericError) -> Error {
    Error::Numeric(NumericError::NonFinite(format!("{what}: {e}")))
}

/// A case where an approximation cannot exist (for example a mode on the boundary).
pub fn impossible(what: &str, message: String) -> Error {
    Error::Numeric(NumericError::NonFinite(format!("{what}: {message}")))
}
