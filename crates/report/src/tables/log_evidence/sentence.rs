//! The evidence table's sentence per likelihood: in words, which approximation's own
//! ln p(y | X) is closest to the estimate and how far the furthest is.

use super::super::khat::khat_text;
use bayeslab_core::model::importance::KHAT_LIMIT;
use bayeslab_core::record::{EvidenceEstimate, RunRecord};

/// A gap within this many standard errors of the estimate is "within error".
pub(super) const WITHIN_SE: f64 = 2.0;

/// One run's comparison with its model's estimate.
pub(super) struct Compared<'a> {
    pub run: &'a RunRecord,
    pub label: &'static str,
    pub gap: f64,
}

/// In words: which approximation is closest to the estimate and how far the furthest is.
pub(super) fn sentence(est: &EvidenceEstimate, compared: &[Compared]) -> String {
    let model = &est.model;
    if !est.reliable {
        return format!(
            "{model}: the estimate is not reliable (k-hat {} above {KHAT_LIMIT}), so the approximations are not ranked against it.",
            khat_text(est.khat, Some(est.draws))
        );
    }
    let by_gap = |a: &&Compared, b: &&Compared| a.gap.abs().total_cmp(&b.gap.abs());
    let (Some(closest), Some(furthest)) = (
        compared.iter().min_by(by_gap),
        compared.iter().max_by(by_gap),
    ) else {
        return format!(
            "{model}: no run of this model at λ = {} to compare with the estimate.",
            short(est.prior_precision)
        );
    };
    let within = |c: &Compared| match c.gap.abs() <= WITHIN_SE * est.mcse {
        true => " (within error)",
        false => "",
    };
    let side = |c: &Compared| if c.gap < 0.0 { "below" } else { "above" };
    if compared.len() == 1 {
        return format!(
            "{model}: the {} ({}) is {:.4} {} the estimate{}.",
            closest.label,
            closest.run.id,
            closest.gap.abs(),
            side(closest),
            within(closest)
        );
    }
    let mut s = format!(
        "{model}: the {} ({}) is closest to the estimate, {:.4} {} it{}",
        closest.label,
        closest.run.id,
        closest.gap.abs(),
        side(closest),
        within(closest)
    );
    s += &format!(
        "; the {} ({}) is furthest, {:.4} {}{}",
        furthest.label,
        furthest.run.id,
        furthest.gap.abs(),
        side(furthest),
        within(furthest)
    );
    s + "."
}

/// λ or β as written in an experiment: `1`, `0.1`, `2.5e-4`.
pub(super) fn short(v: f64) -> String {
    format!("{v}")
}
