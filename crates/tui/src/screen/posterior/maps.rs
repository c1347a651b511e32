//! The Posterior screen's heatmaps for weights that form a square image (digits_1v8: 8x8
//! pixels): the posterior mean and variance of the pixel weights, as in the EP lecture's MNIST
//! figure, with the intercept beside them.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Stylize};
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph, Widget};

use crate::widget::heatmap::{Heatmap, Scale};
use bayeslab_core::record::RunRecord;
use bayeslab_data::INTERCEPT;

pub fn render(run: &RunRecord, columns: &[String], side: usize, area: Rect, buf: &mut Buffer) {
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
