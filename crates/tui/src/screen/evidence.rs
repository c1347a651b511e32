//! The prior precision λ that `[prior] precision = "evidence"` chose for each run, as the
//! Results header line and the Live legend both say it.

use ratatui::style::{Color, Stylize};
use ratatui::text::Line;

use bayeslab_core::record::ExperimentRecord;

/// Under `[prior] precision = "evidence"`, the lambda each run's evidence chose: "prior
/// precision chosen by evidence: logistic λ = 3.104, probit λ = 9.206".
pub fn evidence_line(record: &ExperimentRecord) -> Option<Line<'static>> {
    let chosen: Vec<String> = record
        .runs
        .iter()
        .filter(|r| !r.evidence_curve.is_empty())
        .filter_map(|r| {
            let edge = r
                .prior_precision_edge
                .map_or(String::new(), |e| format!(" (at the {}!)", e.mark()));
            Some(format!("{} λ = {}{edge}", r.id, lambda(r.prior_precision?)))
        })
        .collect();
    (!chosen.is_empty()).then(|| {
        Line::from(format!(
            "prior precision chosen by evidence: {}",
            chosen.join(", ")
        ))
        .fg(Color::Cyan)
    })
}

/// λ with four significant digits, in plain notation where that stays short.
pub fn lambda(v: f64) -> String {
    if (1e-3..1e4).contains(&v.abs()) {
        let digits = (3 - v.abs().log10().floor() as i32).max(0) as usize;
        format!("{v:.digits$}")
    } else {
        format!("{v:.3e}")
    }
}
