//! The estimates of the true evidence ln p(y | X) on the Live screen. After every fit, ln p(y |
//! X) is estimated by importance sampling from a Student-t around one run's Gaussian
//! (run/true_evidence.rs). The estimate belongs to no run: it is the yardstick for every run's
//! own ln p(y | X), so it gets its own line under the gauges, named as the true evidence, and
//! the run whose Gaussian proposed the draws is only named as the proposal.

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;

use crate::session::{LiveRun, Session};
use bayeslab_core::catalog::thousands;
use bayeslab_core::model::importance::khat_verdict;

/// One line per estimate under way or done, in run order, each at most `width` wide
/// (shortened in the middle with `…`, never cut).
pub(super) fn lines(session: &Session, width: u16) -> Vec<Line<'static>> {
    let fit = |l: Line<'static>| {
        let text = crate::widget::table::elide_middle(&l.to_string(), usize::from(width));
        Line::from(text).style(l.style)
    };
    session.runs.iter().filter_map(line).map(fit).collect()
}

/// "true ln p(y|X) logistic: estimating by IS, 4,000 draws around ep…" while the
/// estimate around this run is under way; once done "true ln p(y|X) logistic = -205.523 ±
/// 0.004 (IS around ep; k̂ -0.15 good)", in red when not reliable.
fn line(run: &LiveRun) -> Option<Line<'static>> {
    if let Some((model, draws)) = &run.evidence_draws {
        return Some(Line::from(format!(
            "true ln p(y|X) {model}: estimating by IS, {} draws around {}…",
            thousands(*draws),
            run.id
        )));
    }
    let e = run.estimate.as_ref()?;
    let verdict = |k: f64| match e.reliable {
        true => khat_verdict(k, e.draws).to_string(),
        false => "UNRELIABLE".to_string(),
    };
    let khat = match e.khat {
        Some(k) => format!("k̂ {k:.2} {}", verdict(k)),
        None => "k̂ –".into(),
    };
    // at most 80 characters: "IS" is importance sampling, named in full on Results
    let text = format!(
        "true ln p(y|X) {} = {:.3} ± {:.3} (IS around {}; {khat})",
        e.model, e.log_evidence, e.mcse, run.id
    );
    Some(match e.reliable {
        true => Line::from(text).style(Style::new().fg(Color::Cyan)),
        false => Line::from(text).style(
            Style::new()
                .fg(Color::LightRed)
                .add_modifier(Modifier::BOLD),
        ),
    })
}
