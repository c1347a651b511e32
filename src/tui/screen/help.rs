//! The `?` overlay: every key binding from [`BINDINGS`](crate::tui::keys::BINDINGS).

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::{Color, Style, Stylize};
use ratatui::widgets::{Block, Clear, Row, Table, Widget};

use crate::tui::keys::BINDINGS;

pub fn render(area: Rect, buf: &mut Buffer) {
    let h = (BINDINGS.len() as u16 + 2).min(area.height);
    let w = 78.min(area.width);
    let popup = Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    );
    Clear.render(popup, buf);
    let rows = BINDINGS
        .iter()
        .map(|b| Row::new([b.label, b.context.name(), b.what]));
    Table::new(
        rows,
        [
            Constraint::Length(16),
            Constraint::Length(12),
            Constraint::Fill(1),
        ],
    )
    .block(
        Block::bordered()
            .title(" keys (Esc or ? closes) ")
            .border_style(Style::new().fg(Color::Cyan)),
    )
    .bg(Color::Reset)
    .render(popup, buf);
}
