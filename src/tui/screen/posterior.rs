//! The Posterior screen: for the chosen run, every weight's posterior mean ± 2 sd as
//! whiskers (point estimates for runs without a posterior). When the features form a square
//! image (digits_1v8: 8x8 pixels) the pixel weights' mean and variance are also drawn as two
//! heatmaps, as in the EP lecture's MNIST figure, with the intercept beside them.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Stylize};
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph, Widget};

use crate::data::INTERCEPT;
use crate::record::RunRecord;
use crate::tui::app::App;
use crate::tui::widget::heatmap::{Heatmap, Scale};
use crate::tui::widget::whiskers::{Whisker, Whiskers};

/// The side of the square image the non-intercept weights form, if they do (at least 4x4).
pub fn image_side(columns: &[String]) -> Option<usize> {
    let n = columns.iter().filter(|c| *c != INTERCEPT).count();
    let side = (n as f64).sqrt().round() as usize;
    (side >= 4 && side * side == n).then_some(side)
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
    let Some(run) = record
        .runs
        .get(app.picks.posterior.min(record.runs.len().saturating_sub(1)))
    else {
        super::placeholder("the experiment has no runs", area, buf);
        return;
    };
    let columns = &record.dataset.columns;
    let kind = match run.kind == run.id {
        true => String::new(),
        false => format!(" ({})", run.kind),
    };
    let title = match (&run.posterior, &run.error) {
        (_, Some(e)) => format!(" {} failed: {e} ", run.id),
        (Some(_), None) if run.diagnostics.is_some_and(|d| !d.mixed()) => format!(
            " {}{kind} — posterior mean ± 2 sd from chains NOT MIXED (R-hat > 1.01) ",
            run.id
        ),
        (Some(p), None) => format!(
            " {}{kind} — posterior mean ± 2 sd, log evidence {} ",
            run.id,
            p.log_evidence
                .map(|v| format!("{v:.3}"))
                .unwrap_or_else(|| "–".into())
        ),
        (None, None) => format!(" {}{kind} — point estimate, no posterior ", run.id),
    };
    let title = match run.diagnostics.is_some_and(|d| !d.mixed()) {
        true => Line::from(title).fg(Color::LightRed),
        false => Line::from(title),
    };
    let block = Block::bordered().title(title);
    let inner = block.inner(area);
    block.render(area, buf);
    if run.weights.is_empty() {
        return;
    }
    let list = match image_side(columns) {
        Some(side) if inner.height >= side as u16 + 6 => {
            let [maps, list] =
                Layout::vertical([Constraint::Length(side as u16 + 2), Constraint::Min(0)])
                    .areas(inner);
            render_maps(run, columns, side, maps, buf);
            list
        }
        _ => inner,
    };
    let (means, sds) = match &run.posterior {
        Some(p) => (
            &p.mean,
            p.cov_diag.iter().map(|v| Some(v.max(0.0).sqrt())).collect(),
        ),
        None => (&run.weights, vec![None; run.weights.len()]),
    };
    let rows: Vec<Whisker> = columns
        .iter()
        .zip(means)
        .zip(sds)
        .map(|((name, &mean), sd)| Whisker { name, mean, sd })
        .collect();
    let offset = app
        .picks
        .scroll
        .min(rows.len().saturating_sub(list.height as usize));
    Whiskers {
        rows: &rows,
        offset,
    }
    .render(list, buf);
}

fn render_maps(run: &RunRecord, columns: &[String], side: usize, area: Rect, buf: &mut Buffer) {
    let pixels: Vec<usize> = (0..columns.len())
        .filter(|&i| columns[i] != INTERCEPT)
        .collect();
    let pick = |v: &[f64]| {
        pixels
            .iter()
            .map(|&i| v.get(i).copied().unwrap_or(f64::NAN))
            .collect::<Vec<_>>()
    };
    let w = 2 * side as u16 + 2;
    let [mean_area, var_area, note] = Layout::horizontal([
        Constraint::Length(w + 4),
        Constraint::Length(w + 8),
        Constraint::Min(0),
    ])
    .areas(area);
    let (mean, var) = match &run.posterior {
        Some(p) => (pick(&p.mean), Some(pick(&p.cov_diag))),
        None => (pick(&run.weights), None),
    };
    let map = |title: &str, values: &[f64], scale, area: Rect, buf: &mut Buffer| {
        let block = Block::bordered().title(title.to_string());
        let inner = block.inner(area);
        block.render(area, buf);
        Heatmap {
            values,
            side,
            scale,
        }
        .render(inner, buf);
    };
    map(" mean ", &mean, Scale::Diverging, mean_area, buf);
    if let Some(var) = &var {
        map(" variance ", var, Scale::Sequential, var_area, buf);
    }
    let icpt = columns.iter().position(|c| c == INTERCEPT).and_then(|i| {
        let m = run
            .posterior
            .as_ref()
            .map_or(&run.weights, |p| &p.mean)
            .get(i)?;
        Some(format!("intercept {m:+.3}"))
    });
    let lines: Vec<Line> = [
        Some("mean: red > 0, blue < 0".to_string()),
        var.as_ref()
            .map(|_| "variance: bright = uncertain".to_string()),
        icpt,
    ]
    .into_iter()
    .flatten()
    .map(|l| Line::from(l).fg(Color::Gray))
    .collect();
    Paragraph::new(lines).render(note, buf);
}
