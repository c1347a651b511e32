//! The scale on which a posterior's distances are integrated, when it is not the original
//! one. It sits below both [`super::family`], which builds it, and [`super::summary`], which
//! integrates on it.

use super::dist::{Dist, Map};
use bayeslab_core::record::ApproxKind;

/// KL, TV and Hellinger are invariant under a smooth monotone change of variable (the
/// Jacobian cancels in q/p and moves p dx to p' du), so they may be integrated on whichever
/// scale the densities are smooth and well resolved. The Gini coefficient needs this: near
/// G = 1 the map G -> sigma loses all precision, while on log sigma² both densities are
/// smooth.
pub struct DistanceScale {
    pub name: &'static str,
    pub exact: Dist,
    /// One per approximation, in the same order.
    pub approximations: Vec<Dist>,
}

impl DistanceScale {
    /// Everything carried to the working scale u = map(theta).
    pub fn mapped(map: Map, exact: &Dist, approximations: &[(ApproxKind, String, Dist)]) -> Self {
        let to = |d: &Dist| Dist::Mapped {
            base: Box::new(d.clone()),
            map,
        };
        DistanceScale {
            name: map.name(),
            exact: to(exact),
            approximations: approximations.iter().map(|a| to(&a.2)).collect(),
        }
    }
}
