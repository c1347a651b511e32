//! k-hat, the PSIS check of a Gaussian posterior, as the reports print it: the value with its
//! verdict, marked where the Gaussian should not be trusted.

use super::table::{Cell, Mark};

/// k-hat with its PSIS verdict for `draws` draws (Vehtari et al. 2024: good up to
/// min(1 - 1/log10 S, 0.7), "more draws" up to 0.7, BAD beyond).
pub fn khat_text(k: Option<f64>, draws: Option<usize>) -> String {
    match k {
        None => "–".into(),
        Some(k) => format!(
            "{k:.2} {}",
            bayeslab_core::model::importance::khat_verdict(
                k,
                draws.unwrap_or(bayeslab_core::model::importance::KHAT_DRAWS)
            )
        ),
    }
}

/// k-hat with its PSIS verdict, marked (bold, red in HTML) beyond 0.7 where the Gaussian
/// should not be trusted; "–" for runs without one.
pub fn khat_cell(k: Option<f64>, draws: Option<usize>) -> Cell {
    Cell {
        text: khat_text(k, draws),
        mark: Mark::warn_if(k.is_some_and(|k| k > bayeslab_core::model::importance::KHAT_LIMIT)),
    }
}

/// What the k-hat column means; both reports print it under the convergence table.
pub const KHAT_NOTE: &str = "k-hat: the Pareto shape of the importance ratios when the run's Gaussian posterior is the proposal for its model's exact posterior \
(PSIS), judged by the thresholds of Vehtari et al. (2024) that leave-one-out uses too: good up to min(1 − 1/log10 S, 0.7) for S draws, \
\"more draws\" up to 0.7, BAD beyond (bold), where the approximation should not be trusted. \
\"–\": no Gaussian posterior over a binary linear model's weights, or `khat_draws = 0`.";
