//! The Posterior screen: for the chosen run, every weight's posterior mean ± 2 sd as
//! whiskers (point estimates for runs without a posterior) on one labelled scale shared by all
//! runs, names shortened only as far as they stay distinct, a multiclass run's weights in one
//! block per class, scrolled with PgUp/PgDn and the rows in view in the bottom border. A
//! generative run has no weights: the screen says what it fitted instead. When the features
//! form a square image (digits_1v8: 8x8 pixels) the two heatmaps of `maps.rs` sit above.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Stylize};
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph, Widget, Wrap};

use crate::app::App;
use crate::picks::Picture;
use crate::widget::whiskers::{visible, Whiskers};
use bayeslab_core::catalog::{MethodKind, PredictiveKind};
use bayeslab_data::INTERCEPT;

mod coefficients;
mod maps;
mod weights;

/// The side of the square image the non-intercept weights form, if they do (at least 4x4).
pub fn image_side(columns: &[String]) -> Option<usize> {
    let n = columns.iter().filter(|c| *c != INTERCEPT).count();
    let side = (n as f64).sqrt().round() as usize;
    (side >= 4 && side * side == n).then_some(side)
}

/// How many rows the Posterior list of run `at` has (weights and class headings), which bounds
/// its scroll position.
pub fn rows(record: &bayeslab_core::record::ExperimentRecord, at: usize) -> usize {
    let at = at.min(record.runs.len().saturating_sub(1));
    record
        .runs
        .get(at)
        .map_or(0, |run| weights::rows(record, run, 12).0.len())
}

pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let Some(record) = app.session.as_ref().and_then(|s| s.record.as_ref()) else {
        super::placeholder(
            "no posterior yet: run an experiment (r) and wait for it to finish",
            area,
            buf,
        );
        return;
    };
    if app.picks.picture != Picture::Whiskers {
        return super::present::picture(record, &app.picks, app.picks.picture, area, buf);
    }
    let n = record.runs.len();
    let at = app.picks.posterior.min(n.saturating_sub(1));
    let Some(run) = record.runs.get(at) else {
        super::placeholder("the experiment has no runs", area, buf);
        return;
    };
    let columns = &record.dataset.columns;
    let kind = match run.kind.name() == run.id {
        true => String::new(),
        false => format!(" ({})", run.kind),
    };
    let head = format!(" {}{kind} [{}/{n}]", run.id, at + 1);
    let no_weights = run.weights.is_empty() && run.posterior.is_none();
    let title = match (&run.posterior, &run.error) {
        (_, Some(e)) => format!("{head} failed: {e} "),
        (Some(_), None) if run.diagnostics.is_some_and(|d| !d.mixed()) => {
            format!("{head} — posterior from chains NOT MIXED (R-hat > 1.01) ")
        }
        (_, None) if run.flag().is_some() => format!(
            "{head} — {}: the last iterate's weights ",
            run.flag().unwrap_or_default()
        ),
        (Some(p), None) => format!(
            "{head} — posterior, {} {} ",
            evidence_name(run),
            p.log_evidence
                .map(|v| format!("{v:.3}"))
                .unwrap_or_else(|| "–".into())
        ),
        (None, None) if no_weights => format!("{head} — a generative classifier: no weights "),
        (None, None) => format!("{head} — point estimate (no posterior) "),
    };
    // A title wider than the border keeps its start (the run and its flag) and ends in `…`.
    let room = usize::from(area.width.saturating_sub(2));
    let title = match title.chars().count() > room {
        true => format!(
            "{}… ",
            title
                .chars()
                .take(room.saturating_sub(2))
                .collect::<String>()
        ),
        false => title,
    };
    let title = match run.flag().is_some() {
        true => Line::from(title).fg(Color::LightRed),
        false => Line::from(title),
    };
    let mut block = Block::bordered().title(title);
    let inner = block.inner(area);
    if no_weights {
        block.render(area, buf);
        if run.error.is_none() {
            Paragraph::new(generative_text(run.kind))
                .wrap(Wrap { trim: true })
                .render(inner, buf);
        }
        return;
    }
    let list = match image_side(columns) {
        Some(side) if inner.height >= side as u16 + 6 => {
            let [maps, list] =
                Layout::vertical([Constraint::Length(side as u16 + 2), Constraint::Min(0)])
                    .areas(inner);
            maps::render(run, columns, side, maps, buf);
            list
        }
        _ => inner,
    };
    if app.picks.coefficients > 0 {
        let scale = match app.picks.coefficients {
            1 => bayeslab_report::coefficients::Scale::Design,
            _ => bayeslab_report::coefficients::Scale::Original,
        };
        block.render(area, buf);
        coefficients::render(record, run, scale, app.picks.scroll, list, buf);
        return;
    }
    let (rows, label) = weights::rows(record, run, list.width as usize / 3);
    let shown = visible(list.height);
    let offset = app.picks.scroll.min(rows.len().saturating_sub(shown));
    let drawn = record.runs.iter().filter(|r| !r.weights.is_empty()).count();
    // which scale the weights are on: standardised or original units
    let scale = record.dataset.weights_scale_short();
    let mut bottom = match drawn {
        _ if app.sweep().is_some() => format!(" {scale}, one scale for every point (↑/↓ run) "),
        1 => format!(" {scale}; one run with weights (↑/↓ run) "),
        _ => format!(" {scale}, shared by {drawn} runs (↑/↓ run) "),
    };
    if rows.len() > shown {
        let last = (offset + shown).min(rows.len());
        bottom = format!(
            "{bottom}· rows {}–{last} of {} (PgUp/PgDn) ",
            offset + 1,
            rows.len()
        );
    }
    block = block.title_bottom(Line::from(bottom).right_aligned().fg(Color::Cyan));
    block.render(area, buf);
    // a sweep's points share one scale, so that the shrinkage it exists to show is visible
    let extent = match app.sweep() {
        Some(sweep) => sweep
            .points
            .iter()
            .map(|p| weights::shared_extent(&p.record))
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), (lo, hi)| {
                (a.min(lo), b.max(hi))
            }),
        None => weights::shared_extent(record),
    };
    Whiskers {
        rows: &rows,
        offset,
        extent,
        label,
    }
    .render(list, buf);
}

/// What the run's own ln p(y | X) is called: "log evidence" for the Laplace evidence and
/// ln Z_EP, but a variational run's is a lower bound and says so ("ELBO", "JJ bound"), from
/// its kind's catalogue row.
fn evidence_name(run: &bayeslab_core::record::RunRecord) -> &'static str {
    match run.kind.log_evidence() {
        Some(e) if e.lower_bound() => e.label(run.mean_field),
        _ => "log evidence",
    }
}

/// What a generative kind fitted, in place of whiskers: it has no weights on the design
/// columns. The Bayesian kinds have a closed-form posterior over each class's parameters (for
/// `gaussian-generative` a Normal-inverse-Wishart over its mean and covariance), which the
/// record does not keep; the plug-in kinds have maximum-likelihood estimates.
fn generative_text(kind: MethodKind) -> String {
    let k = kind;
    let summary = k.row().summary;
    let what = match k.supports(PredictiveKind::Exact) {
        true => {
            "A Bayesian generative classifier, fitted in closed form: its posterior is over \
                 the class probabilities and each class's density parameters (not over weights \
                 on the design columns), and it predicts with the exact posterior predictive"
        }
        false => {
            "A plug-in generative classifier, fitted in closed form: maximum-likelihood \
                  estimates of each class's mean and covariance, no posterior"
        }
    };
    format!(
        "{kind}: {summary}.\n\n{what}. There are no weights to draw here; its predictions are on \
         4 Results and 5 Calibration."
    )
}
