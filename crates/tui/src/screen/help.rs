//! The `?` overlay: every key binding from [`BINDINGS`](crate::keys::BINDINGS), one row
//! each, its keys and description wrapped to the popup's width so no binding is cut, and scrolled
//! (`↑`/`↓`, `PgUp`/`PgDn`) when the rows do not all fit; the title says which rows are shown.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::{Color, Style, Stylize};
use ratatui::text::Text;
use ratatui::widgets::{Block, Clear, Row, Table, Widget};

use crate::keys::BINDINGS;
use crate::widget::wrap::wrap;

const KEYS: u16 = 16;
const WHERE: u16 = 12;

/// The first binding shown: `scroll`, or less so that the popup is filled to the last row.
fn first_shown(heights: &[u16], scroll: usize, rows: u16) -> usize {
    let mut fit = heights.len();
    let mut used = 0;
    while fit > 0 && used + heights[fit - 1] <= rows {
        fit -= 1;
        used += heights[fit];
    }
    scroll.min(fit)
}

pub fn render(scroll: usize, area: Rect, buf: &mut Buffer) {
    let w = 100.min(area.width);
    let what_width = w.saturating_sub(2 + KEYS + WHERE + 2) as usize;
    let labels: Vec<Vec<String>> = BINDINGS
        .iter()
        .map(|b| wrap(b.label, KEYS as usize))
        .collect();
    let whats: Vec<Vec<String>> = BINDINGS.iter().map(|b| wrap(b.what, what_width)).collect();
    let heights: Vec<u16> = labels
        .iter()
        .zip(&whats)
        .map(|(l, w)| l.len().max(w.len()) as u16)
        .collect();
    let total: u16 = heights.iter().sum();
    let h = (total + 2).min(area.height);
    let first = first_shown(&heights, scroll, h.saturating_sub(2));
    let mut last = first;
    let mut used = 0;
    while last < heights.len() && used + heights[last] <= h.saturating_sub(2) {
        used += heights[last];
        last += 1;
    }
    let popup = Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    );
    Clear.render(popup, buf);
    let rows = BINDINGS
        .iter()
        .zip(labels.iter().zip(&whats))
        .zip(&heights)
        .skip(first)
        .map(|((b, (label, what)), &h)| {
            Row::new([
                Text::from(label.join("\n")),
                Text::from(b.context.name()),
                Text::from(what.join("\n")),
            ])
            .height(h)
        });
    let title = match (first, last) {
        (0, l) if l == BINDINGS.len() => " keys (Esc or ? closes) ".to_string(),
        (f, l) => format!(
            " keys {}–{l} of {} (↑/↓ PgUp/PgDn scroll; Esc or ? closes) ",
            f + 1,
            BINDINGS.len()
        ),
    };
    Table::new(
        rows,
        [
            Constraint::Length(KEYS),
            Constraint::Length(WHERE),
            Constraint::Fill(1),
        ],
    )
    .block(
        Block::bordered()
            .title(title)
            .border_style(Style::new().fg(Color::Cyan)),
    )
    .bg(Color::Reset)
    .render(popup, buf);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_rows_fill_the_popup() {
        // Rows of heights 1, 2, 1, 1 in 3 rows: from the third on fits; scrolling further stops there.
        assert_eq!(first_shown(&[1, 2, 1, 1], 9, 3), 2);
        assert_eq!(first_shown(&[1, 2, 1, 1], 1, 3), 1);
        assert_eq!(first_shown(&[1, 1], 5, 10), 0);
    }
}
