//! The Dataset screen: the data file's schema and per-column summary (computed by polars in
//! `data::describe`), the train/test split and the class balance, and the loader's notes.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style, Stylize};
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph, Row, Table, Widget};

use crate::tui::app::App;
use crate::tui::event::DatasetView;

pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    let Some(view) = app.session.as_ref().and_then(|s| s.dataset.as_ref()) else {
        super::placeholder(
            "no dataset loaded yet: select an experiment and press r",
            area,
            buf,
        );
        return;
    };
    let [head, table] = Layout::vertical([
        Constraint::Length(4 + view.notes.len() as u16),
        Constraint::Min(0),
    ])
    .areas(area);
    render_head(view, head, buf);
    render_columns(view, table, buf);
}

fn share(k: usize, n: usize) -> String {
    format!("{k}/{n} ({:.1}%)", 100.0 * k as f64 / n.max(1) as f64)
}

fn render_head(view: &DatasetView, area: Rect, buf: &mut Buffer) {
    let rows = view.description.as_ref().map(|d| d.rows).unwrap_or(0);
    let mut lines = vec![
        Line::from(format!("{}  ({rows} rows in the file)", view.file)),
        Line::from(format!(
            "train {} rows, test {} rows; target \"{}\"",
            view.rows_train, view.rows_test, view.target
        )),
        Line::from(format!(
            "class 1 share: train {}, test {}",
            share(view.positives_train, view.rows_train),
            share(view.positives_test, view.rows_test)
        )),
    ];
    lines.extend(
        view.notes
            .iter()
            .map(|n| Line::from(format!("note: {n}")).fg(Color::Yellow)),
    );
    Paragraph::new(lines).render(area, buf);
}

fn render_columns(view: &DatasetView, area: Rect, buf: &mut Buffer) {
    let description = match &view.description {
        Ok(d) => d,
        Err(e) => {
            Paragraph::new(e.as_str())
                .fg(Color::LightRed)
                .render(area, buf);
            return;
        }
    };
    let cell = |v: Option<f64>| v.map(|v| format!("{v:.4}")).unwrap_or_else(|| "–".into());
    let rows = description.columns.iter().map(|c| {
        let role = if c.name == view.target {
            "target"
        } else if view.columns.contains(&c.name) {
            "feature"
        } else {
            "unused"
        };
        let s = c.stats;
        Row::new([
            c.name.clone(),
            c.dtype.clone(),
            role.to_string(),
            cell(s.and_then(|s| s.mean)),
            cell(s.and_then(|s| s.sd)),
            cell(s.and_then(|s| s.min)),
            cell(s.and_then(|s| s.max)),
            c.missing.to_string(),
        ])
    });
    let header = Row::new([
        "column", "type", "role", "mean", "sd", "min", "max", "missing",
    ])
    .style(Style::new().add_modifier(Modifier::BOLD));
    Table::new(
        rows,
        [
            Constraint::Min(8),
            Constraint::Length(4),
            Constraint::Length(7),
            Constraint::Length(10),
            Constraint::Length(10),
            Constraint::Length(9),
            Constraint::Length(9),
            Constraint::Length(7),
        ],
    )
    .header(header)
    .column_spacing(1)
    .block(Block::bordered().title(" columns (whole file, via polars) "))
    .render(area, buf);
}
