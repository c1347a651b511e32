//! The Dataset screen: the selected experiment's data as the run uses them, filled as soon as
//! the experiment is selected (the describer loads it in the background) and from the run's own
//! load once it runs. One definition with the reports (`output::tables::dataset`): the rows
//! after missing-value handling, split into training and test rows, the rows of each class by
//! name, and per feature the mean, sd, min and max over the training rows with the rows dropped
//! for a missing value. A table with categorical or imputed columns adds the encodings panel
//! below (screen/encoding.rs). Up/Down (a row) and PgUp/PgDn (ten) scroll both tables from one
//! position, each stopping at its last page, the rows in view on each border: a row step never
//! skips a row, however few a small terminal leaves in view.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style, Stylize};
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph, Row, Table, Widget, Wrap};

use crate::app::App;
use crate::picks::Picks;
use crate::preview::PreviewState;
use crate::widget::wrap::wrap;
use bayeslab_core::record::DatasetInfo;
use bayeslab_report::tables;

/// The dataset the screen shows: the running (or finished) experiment's when it is the one
/// selected, else the selected file's preview once loaded.
pub fn shown(app: &App) -> Option<&DatasetInfo> {
    let entry = app.catalog.current()?;
    let from_run = app.session.as_ref().filter(|s| s.plan.name == entry.name());
    if let Some(d) = from_run.and_then(|s| s.dataset.as_ref()) {
        return Some(d);
    }
    match &app.preview {
        Some(p) if p.path == entry.path => match &p.state {
            PreviewState::Ready(d) => Some(d),
            _ => None,
        },
        _ => None,
    }
}

pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    if let Some(d) = shown(app) {
        return render_dataset(d, &app.picks, area, buf);
    }
    let entry = app.catalog.current();
    let preview = app
        .preview
        .as_ref()
        .filter(|p| entry.is_some_and(|e| e.path == p.path));
    let text = match preview.map(|p| &p.state) {
        Some(PreviewState::Failed(e)) => {
            Paragraph::new(e.as_str())
                .wrap(Wrap { trim: false })
                .fg(Color::LightRed)
                .block(Block::bordered().title(" the dataset cannot be loaded "))
                .render(area, buf);
            return;
        }
        Some(PreviewState::NoData) => {
            "this experiment has no [data]: an approximation-lab file (r runs it; 7 shows it)"
        }
        Some(PreviewState::Loading) => "loading the selected experiment's dataset…",
        Some(PreviewState::Ready(_)) | None => "select an experiment on 1 to see its dataset",
    };
    super::placeholder(text, area, buf);
}

fn render_dataset(d: &DatasetInfo, picks: &Picks, area: Rect, buf: &mut Buffer) {
    let width = area.width as usize;
    let file = d.files.join(", ");
    let mut head = vec![
        Line::from(format!("{file} · target \"{}\"", d.target)).bold(),
        Line::from(tables::split_and_classes(d)),
    ];
    head.extend(
        d.notes
            .iter()
            .map(|n| Line::from(format!("note: {n}")).fg(Color::Yellow)),
    );
    // On a short terminal (80x24) the prose keeps one row a line, shortened with a visible
    // `…`, so the table keeps the rows; the full caption is in the reports.
    let compact = area.height < 30;
    let caption = match compact {
        true => "features: over the training rows used; dropped: rows without the value".into(),
        false => format!(
            "features: {}",
            tables::features_caption(d, |f| f.to_string())
        ),
    };
    head.push(Line::from(caption).fg(Color::Gray));
    if compact {
        // the split and class counts wrap whole: numbers are not cut
        head = head
            .into_iter()
            .enumerate()
            .map(|(i, l)| match i {
                1 => l,
                _ => {
                    let text = crate::widget::table::elide_middle(&l.to_string(), width);
                    Line::from(text).style(l.style)
                }
            })
            .collect();
    }
    let rows: usize = head.iter().map(|l| wrap(&l.to_string(), width).len()).sum();
    let [top, tables] =
        Layout::vertical([Constraint::Length(rows as u16), Constraint::Min(0)]).areas(area);
    Paragraph::new(head)
        .wrap(Wrap { trim: false })
        .render(top, buf);
    if d.encoding.is_empty() {
        return render_features(d, picks.dataset_scroll, tables, buf);
    }
    let encoded = super::encoding_rows(&d.encoding).len();
    let (features, levels) = split_height(tables.height, d.summaries.len() + 3, encoded + 3);
    let [f, e] =
        Layout::vertical([Constraint::Length(features), Constraint::Length(levels)]).areas(tables);
    render_features(d, picks.dataset_scroll, f, buf);
    super::encoding::render(&d.encoding, picks.dataset_scroll, e, buf);
}

/// Rows for the features table and the encodings panel (each wanting its rows plus border and
/// header): both whole when they fit, else shared in proportion to what they want, each kept
/// to at least a few rows in view (it scrolls) unless it wants less.
pub fn split_height(height: u16, features: usize, levels: usize) -> (u16, u16) {
    const FEW: usize = 5;
    let h = usize::from(height);
    if features + levels <= h {
        return (features as u16, (h - features) as u16);
    }
    let least_levels = levels.min(FEW).min(h);
    let share = (h * features).div_ceil(features + levels);
    let f = share
        .max(features.min(FEW))
        .min(features)
        .min(h - least_levels);
    (f as u16, (h - f) as u16)
}

fn render_features(d: &DatasetInfo, scroll: usize, area: Rect, buf: &mut Buffer) {
    let t = tables::features(d);
    let shown = area.height.saturating_sub(3) as usize;
    let first = scroll.min(t.rows.len().saturating_sub(shown));
    let rows = t
        .rows
        .iter()
        .skip(first)
        .map(|r| Row::new(r.iter().map(|c| c.text.clone()).collect::<Vec<_>>()));
    let header = Row::new(t.headers.clone()).style(Style::new().add_modifier(Modifier::BOLD));
    let mut block = Block::bordered().title(format!(
        " features over the {} training rows ",
        d.rows_train
    ));
    if t.rows.len() > shown {
        let last = (first + shown).min(t.rows.len());
        block = block.title_bottom(
            Line::from(format!(
                " rows {}–{last} of {} · j/k PgUp/PgDn ",
                first + 1,
                t.rows.len()
            ))
            .right_aligned()
            .fg(Color::Cyan),
        );
    }
    Table::new(
        rows,
        [
            Constraint::Min(12),
            Constraint::Length(10),
            Constraint::Length(10),
            Constraint::Length(10),
            Constraint::Length(10),
            Constraint::Length(7),
        ],
    )
    .header(header)
    .column_spacing(1)
    .block(block)
    .render(area, buf);
}
