//! The trace panel's rank plots (as ArviZ's `plot_rank`): for one traced weight, a histogram
//! per chain of its kept draws' ranks among every chain's, drawn as a row of bars in the
//! chain's colour. The bars are scaled so that uniform ranks (chains that have mixed) reach
//! half the row: a chain above or below the others fills one end and empties the other.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::{Block, Widget};

use super::{chain_color, flag, unmixed};
use crate::chains::ChainTraces;

/// Eighths of a cell, from empty to full.
const BARS: [char; 9] = [' ', '▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/// The cells of one chain's histogram `rows` high: column b from bottom to top, the bar's
/// height `count / expected` of half the rows (capped at the full height).
pub(crate) fn bars(counts: &[usize], expected: f64, rows: usize) -> Vec<Vec<char>> {
    counts
        .iter()
        .map(|&n| {
            let eighths = (n as f64 / expected.max(1e-12) * rows as f64 * 4.0).round() as usize;
            let eighths = eighths.min(rows * 8);
            (0..rows)
                .map(|r| BARS[eighths.saturating_sub(r * 8).min(8)])
                .collect()
        })
        .collect()
}

pub(super) fn render(t: &ChainTraces, j: usize, area: Rect, buf: &mut Buffer) {
    let title = match t.rhat.get(j) {
        Some(&r) if unmixed(r) => Line::from(format!(" {} ranks ", t.names[j])).style(flag()),
        _ => Line::from(format!(" {} ranks ", t.names[j])),
    };
    let block = Block::bordered().title(title);
    let inner = block.inner(area);
    block.render(area, buf);
    let chains = t.chains.len().max(1);
    // "c0 " before each row; one bin per column
    let bins = usize::from(inner.width.saturating_sub(3)).min(20);
    let ranks = t.ranks(j, bins);
    let rows = usize::from(inner.height) / chains;
    if ranks.is_empty() || rows == 0 || bins == 0 {
        Line::from("no kept draws yet").render(inner, buf);
        return;
    }
    let per_chain: usize = ranks[0].iter().sum();
    let expected = per_chain as f64 / ranks[0].len() as f64;
    for (c, counts) in ranks.iter().enumerate() {
        let top = inner.y + (c * rows) as u16;
        let style = Style::new().fg(chain_color(c));
        buf.set_string(inner.x, top + rows as u16 - 1, format!("c{c}"), style);
        for (b, column) in bars(counts, expected, rows).iter().enumerate() {
            for (r, ch) in column.iter().enumerate() {
                let y = top + (rows - 1 - r) as u16;
                buf.set_string(inner.x + 3 + b as u16, y, ch.to_string(), style);
            }
        }
    }
}
