//! What a family hands to the comparison: the exact posterior of one scalar parameter and
//! the approximations built from modes found by the general routine ([`super::mode`]).

use super::dist::{Dist, Map};
use super::distance_scale::DistanceScale;
use bayeslab_core::error::{Error, NumericError};
use bayeslab_core::record::{ApproxKind, GiniResult, ModeRecord};

pub struct Built {
    pub parameter: &'static str,
    pub exact_form: String,
    pub exact: Dist,
    /// (contract name, fitted form, distribution on the original scale).
    pub approximations: Vec<(ApproxKind, String, Dist)>,
    /// The same exact posterior and approximations on another scale, for the distances only.
    pub distance_scale: Option<DistanceScale>,
    pub gini: Option<GiniResult>,
    pub modes: Vec<ModeRecord>,
}

impl Built {
    /// A one-parameter posterior of theta whose distances are integrated on `map`'s scale.
    pub fn on_theta(
        exact_form: String,
        exact: Dist,
        approximations: Vec<(ApproxKind, String, Dist)>,
        map: Map,
    ) -> Built {
        let distance_scale = Some(DistanceScale::mapped(map, &exact, &approximations));
        Built {
            parameter: "theta",
            exact_form,
            exact,
            approximations,
            distance_scale,
            gini: None,
            modes: Vec::new(),
        }
    }
}

/// A case where an approximation cannot exist (for example a mode on the boundary).
pub fn impossible(what: &str, message: String) -> Error {
    Error::Numeric(NumericError::NonFinite(format!("{what}: {message}")))
}

/// An approximation the kind does not offer. Configuration validation rejects these first;
/// this keeps a direct library caller from a panic.
/// The normal (or Student-t with `t_df` degrees of freedom) at the mode of theta itself, with
/// the observed information as precision: the same for every one-parameter family.
pub fn on_theta(k: ApproxKind, m: &super::mode::Mode, t_df: f64) -> (ApproxKind, String, Dist) {
    let (mean, sd) = (m.x[0], m.variances()[0].sqrt());
    if k == ApproxKind::Normal {
        (
            ApproxKind::Normal,
            format!("theta ~ N({mean:.4}, {sd:.4}^2)"),
            Dist::Normal { mean, sd },
        )
    } else {
        (
            ApproxKind::T,
            format!("theta ~ t_{t_df}({mean:.4}, {sd:.4}^2)"),
            Dist::StudentT {
                loc: mean,
                scale: sd,
                df: t_df,
            },
        )
    }
}

pub fn unsupported(what: &str, k: ApproxKind, kind: &str) -> Error {
    impossible(
        what,
        format!(
            "approximation \"{}\" is not available for kind = \"{kind}\"",
            k.name()
        ),
    )
}
