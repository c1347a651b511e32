//! The Experiments screen: the experiment files on the left, the selected file's text on the
//! right, and under it whether it validates — for a bad file, the engine's message, which
//! names the file, the key and the fix. The text wraps to its pane and, when longer, scrolls
//! (PgUp/PgDn) with the rows in view shown in its bottom border.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, List, ListItem, ListState, Paragraph, StatefulWidget, Widget, Wrap};

use crate::app::App;
use crate::widget::wrap::wrap;

pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let [list, right] =
        Layout::horizontal([Constraint::Length(24), Constraint::Min(0)]).areas(area);
    render_list(app, list, buf);
    let Some(entry) = app.catalog.current() else {
        super::placeholder("no experiment files in experiments/", right, buf);
        return;
    };
    let (title, body, color) = match &entry.plan {
        Ok(plan) => (" valid ", super::summary::plan_summary(plan), Color::Green),
        Err(e) => (
            " invalid — fix the file, then r re-reads it ",
            e.clone(),
            Color::LightRed,
        ),
    };
    let check_height = (wrapped_lines(&body, right.width.saturating_sub(2)) + 2)
        .min(right.height / 2)
        .max(3);
    let [preview, check] =
        Layout::vertical([Constraint::Min(0), Constraint::Length(check_height)]).areas(right);
    let text = match &entry.text {
        Ok(t) => t.as_str(),
        Err(e) => e.as_str(),
    };
    render_text(text, &entry.path.display().to_string(), app, preview, buf);
    Paragraph::new(body)
        .wrap(Wrap { trim: true })
        .block(
            Block::bordered()
                .title(title)
                .border_style(Style::new().fg(color)),
        )
        .render(check, buf);
}

/// The file's text wrapped to the pane from the scrolled-to row, with the rows in view and the
/// keys in the bottom border when it does not fit.
fn render_text(text: &str, path: &str, app: &App, area: Rect, buf: &mut Buffer) {
    // A wrapped line's continuation rows start with a grey ↪, so they do not read as lines of
    // the file.
    let width = area.width.saturating_sub(4) as usize;
    let rows: Vec<Line> = text
        .lines()
        .flat_map(|l| {
            wrap(l, width)
                .into_iter()
                .enumerate()
                .map(|(i, row)| match i {
                    0 => Line::from(row),
                    _ => Line::from(vec![Span::from("↪ ").fg(Color::DarkGray), Span::from(row)]),
                })
        })
        .collect();
    let total = rows.len();
    let shown = area.height.saturating_sub(2) as usize;
    let first = app.picks.text_scroll.min(total.saturating_sub(shown));
    let mut block = Block::bordered().title(format!(" {path} "));
    if total > shown {
        let last = (first + shown).min(total);
        block = block.title_bottom(
            Line::from(format!(
                " rows {}–{last} of {total} · PgUp/PgDn scroll ",
                first + 1
            ))
            .right_aligned()
            .fg(Color::Cyan),
        );
    }
    Paragraph::new(rows.into_iter().skip(first).collect::<Vec<_>>())
        .block(block)
        .render(area, buf);
}

fn render_list(app: &App, area: Rect, buf: &mut Buffer) {
    let items = app.catalog.entries.iter().map(|e| {
        let mark = if e.plan.is_ok() { "  " } else { "✗ " };
        let line = Line::from(format!("{mark}{}", e.name()));
        match e.plan {
            Ok(_) => ListItem::new(line),
            Err(_) => ListItem::new(line.fg(Color::LightRed)),
        }
    });
    let mut state = ListState::default().with_selected(Some(app.catalog.selected));
    StatefulWidget::render(
        List::new(items)
            .block(Block::bordered().title(" experiments "))
            .highlight_style(Style::new().add_modifier(Modifier::REVERSED))
            .highlight_symbol("▶"),
        area,
        buf,
        &mut state,
    );
}

/// Rows `text` takes when wrapped at `width` (an estimate by characters, enough to size a box).
fn wrapped_lines(text: &str, width: u16) -> u16 {
    let w = width.max(1) as usize;
    text.lines()
        .map(|l| l.chars().count().div_ceil(w).max(1) as u16)
        .sum()
}
