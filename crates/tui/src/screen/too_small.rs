//! What the workbench draws on a terminal smaller than it needs: one message with the size
//! needed and the size now, instead of screens squeezed into a garbled layout. Every frame is
//! drawn from the current size, so the workbench comes back as soon as the terminal grows.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Stylize};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget, Wrap};

/// The smallest terminal every screen is laid out for.
pub const MIN_WIDTH: u16 = 80;
pub const MIN_HEIGHT: u16 = 24;

/// Whether `area` is too small for the screens.
pub fn too_small(area: Rect) -> bool {
    area.width < MIN_WIDTH || area.height < MIN_HEIGHT
}

pub fn render(area: Rect, buf: &mut Buffer) {
    let lines = vec![
        Line::from("terminal too small").bold().fg(Color::LightRed),
        Line::from(format!(
            "the workbench needs at least {MIN_WIDTH}x{MIN_HEIGHT}; this one is {}x{}",
            area.width, area.height
        )),
        Line::from("enlarge the window (it redraws at once) or press q to quit").fg(Color::Gray),
    ];
    let top = area.height.saturating_sub(lines.len() as u16 + 1) / 2;
    let text = Rect {
        y: area.y + top,
        height: area.height - top,
        ..area
    };
    Paragraph::new(lines)
        .centered()
        .wrap(Wrap { trim: true })
        .render(text, buf);
}
