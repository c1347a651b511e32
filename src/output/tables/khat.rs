//! k-hat, the PSIS check of a Gaussian posterior, as the reports print it: the value with its
//! verdict, marked where the Gaussian should not be trusted.

use super::table::{Cell, Mark};

/// k-hat with its PSIS verdict: good below 0.5, ok to 0.7, untrustworthy above.
pub fn khat_text(k: Option<f64>) -> String {
    match k {
        None => "–".into(),
        Some(k) => format!("{k:.2} {}", crate::model::importance::khat_verdict(k)),
    }
}

/// k-hat with its PSIS verdict, marked (bold, red in HTML) beyond 0.7 where the Gaussian
/// should not be trusted; "–" for runs without one.
pub fn khat_cell(k: Option<f64>) -> Cell {
    Cell {
        text: khat_text(k),
        mark: Mark::warn_if(k.is_some_and(|k| k > crate::model::importance::KHAT_LIMIT)),
    }
}

/// What the k-hat column means; both reports print it under the convergence table.
pub const KHAT_NOTE: &str = "k-hat: the Pareto shape of the importance ratios when the run's Gaussian posterior is the proposal for its model's exact posterior \
(PSIS): good up to 0.5, ok up to 0.7, BAD beyond (bold), where the approximation should not be trusted. \
\"–\": no Gaussian posterior over a binary linear model's weights, or `khat_draws = 0`.";
