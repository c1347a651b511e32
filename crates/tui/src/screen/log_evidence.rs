//! The evidence table under the Results screen's metrics: each run's own ln p(y | X) against
//! the importance-sampling estimate of the truth, the same table report.md and report.html
//! print (output/tables/log_evidence.rs), with its sentence per likelihood above it. It scrolls
//! with J/K; narrower than [`WIDE`] it drops the model column, the gaps' "± se" (the se is
//! on the estimate's row) and the words after an unreliable k-hat's BAD (it stays bold red),
//! so that every column keeps its text at 80 columns.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Cell, Paragraph, Widget};

use crate::widget::table::{LabelRow, LabelTable, Value};
use crate::widget::wrap::wrap;
use bayeslab_report::tables::{LogEvidenceTable, Mark};

/// Width from which the model column and the gaps' ± se are shown.
const WIDE: u16 = 110;

/// The shared table's columns: run, model, evidence, value, gap, verdict.
const MODEL: usize = 1;
const GAP: usize = 4;

/// Lines the pane wants at `width`: the sentences wrapped, the table's rows, its borders and
/// header.
pub fn height(table: &LogEvidenceTable, width: u16) -> u16 {
    sentence_lines(table, width).len() as u16 + table.table.rows.len() as u16 + 3
}

fn sentence_lines(table: &LogEvidenceTable, width: u16) -> Vec<String> {
    table
        .sentences
        .iter()
        .flat_map(|s| wrap(s, usize::from(width.max(10))))
        .collect()
}

/// `other`: the key that shows the gold table instead, when the two do not both fit.
pub fn render(
    table: &LogEvidenceTable,
    first: usize,
    area: Rect,
    buf: &mut Buffer,
    other: Option<&str>,
) {
    let wide = area.width >= WIDE;
    // The sentences first, but never so many that the table loses its last data row.
    let lines = sentence_lines(table, area.width);
    let room = area.height.saturating_sub(4);
    let [words, rest] = Layout::vertical([
        Constraint::Length((lines.len() as u16).min(room)),
        Constraint::Min(0),
    ])
    .areas(area);
    Paragraph::new(lines.into_iter().map(Line::from).collect::<Vec<_>>()).render(words, buf);
    let shown: Vec<usize> = (1..table.table.headers.len())
        .filter(|&c| wide || c != MODEL)
        .collect();
    let width = |c: usize| match c {
        MODEL => 8,
        2 if wide => 19,
        2 => 15,
        3 => 18,
        GAP if wide => 16,
        GAP => 8,
        _ if wide => 28,
        _ => 16,
    };
    let columns = shown
        .iter()
        .map(|&c| (Cell::from(table.table.headers[c].clone()), width(c)))
        .collect();
    let rows = table
        .table
        .rows
        .iter()
        .map(|row| {
            let estimate = row[0].text == "estimate";
            let cells = shown
                .iter()
                .map(|&c| {
                    let text = match c {
                        GAP if !wide => row[c].text.split(" ± ").next().unwrap_or("").to_string(),
                        2 if estimate && !wide => format!("IS: {}", row[MODEL].text),
                        5 if !wide => row[c].text.replace(": not reliable", ""),
                        _ => row[c].text.clone(),
                    };
                    let cell = Value::from(text);
                    match row[c].mark {
                        Mark::Warn => cell.style(
                            Style::new()
                                .fg(Color::LightRed)
                                .add_modifier(Modifier::BOLD),
                        ),
                        _ if c == 5 && row[c].text == "within error" => {
                            cell.style(Style::new().fg(Color::Green))
                        }
                        _ => cell,
                    }
                })
                .collect();
            LabelRow {
                label: row[0].text.clone(),
                label_style: match estimate {
                    true => Style::new().add_modifier(Modifier::BOLD),
                    false => Style::new(),
                },
                cells,
            }
        })
        .collect();
    LabelTable {
        title: Line::from(match other {
            None => " own ln p(y|X) vs the importance-sampling estimate ".to_string(),
            Some(key) => format!(" own ln p(y|X) vs the importance-sampling estimate · {key} "),
        }),
        label_header: "run",
        columns,
        rows,
        first,
        keys: "J/K",
    }
    .render(rest, buf);
}
