//! The Dataset screen's encodings panel: every level of every categorical column with its rows
//! among the training and the test rows used (the reference marked: it has no design column),
//! then each imputed column with the cells filled and its fill value, and its indicator column
//! if any. The counts are the record's (`dataset.encoding`), so before a run, when the describer
//! has loaded the file with the run's own loader and split, they are already of the training
//! rows, as after it. Drawn with the shared label table: a long level list scrolls (Up/Down,
//! k/j, with the features) with its position on the border instead of being cut, and long labels lose their
//! middle, not their end.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style, Stylize};
use ratatui::text::Line;
use ratatui::widgets::{Cell, Widget};

use crate::widget::table::{elide_middle, LabelRow, LabelTable, Value};
use bayeslab_core::record::EncodingInfo;
use bayeslab_report::tables::fill_phrase;

/// One row of the panel: a design-column-like label, two counts and what the row is.
pub struct EncodingRow {
    pub label: String,
    pub train: usize,
    pub test: usize,
    pub note: String,
    /// A reference level or an imputed column rather than a design column of its own.
    pub muted: bool,
}

/// The panel's rows: levels in column then level order, then the imputed columns.
pub fn rows(e: &EncodingInfo) -> Vec<EncodingRow> {
    let mut out = Vec::new();
    for c in &e.categorical {
        for l in &c.levels {
            let reference = l.level == c.reference;
            out.push(EncodingRow {
                label: format!("{}={}", c.column, l.level),
                train: l.train,
                test: l.test,
                note: if reference { "reference" } else { "" }.into(),
                muted: reference,
            });
        }
    }
    for i in &e.imputed {
        out.push(EncodingRow {
            label: i.column.clone(),
            train: i.filled_train,
            test: i.filled_test,
            note: format!("cells filled: {}", fill_phrase_short(i)),
            muted: false,
        });
        if let Some(ind) = &i.indicator {
            out.push(EncodingRow {
                label: ind.clone(),
                train: i.filled_train,
                test: i.filled_test,
                note: format!("1 where {} was filled", i.column),
                muted: false,
            });
        }
    }
    out
}

/// The fill without the indicator, which has a row of its own here.
fn fill_phrase_short(i: &bayeslab_core::record::ImputedInfo) -> String {
    let without = bayeslab_core::record::ImputedInfo {
        indicator: None,
        ..i.clone()
    };
    fill_phrase(&without)
}

/// Counts are at most this wide (a million rows and more still fit).
const COUNT_WIDTH: u16 = 7;
/// Labels keep at least this many characters before the note column narrows.
const LABEL_MIN: u16 = 16;

pub fn render(e: &EncodingInfo, first: usize, area: Rect, buf: &mut Buffer) {
    let rows = rows(e);
    let inner = area.width.saturating_sub(2);
    let widest = |f: fn(&EncodingRow) -> &str| {
        rows.iter().map(|r| f(r).chars().count()).max().unwrap_or(0) as u16
    };
    // Label, the two counts and the note, a space between each: the note takes what the
    // counts and the label (at least LABEL_MIN of it) leave.
    let label = widest(|r| &r.label).min(LABEL_MIN);
    let room = inner.saturating_sub(label + 2 * (COUNT_WIDTH + 1) + 1);
    let note = widest(|r| &r.note).min(room).max(1);
    let body = rows
        .into_iter()
        .map(|r| LabelRow {
            label: r.label,
            label_style: if r.muted {
                Style::new().fg(Color::Gray)
            } else {
                Style::new()
            },
            cells: vec![
                Value::from(r.train.to_string()).right_aligned(),
                Value::from(r.test.to_string()).right_aligned(),
                Value::from(elide_middle(&r.note, usize::from(note))),
            ],
        })
        .collect();
    LabelTable {
        title: Line::from(" categorical levels: rows · imputed: cells filled (train / test) ")
            .bold(),
        label_header: "column=level",
        columns: vec![
            (Cell::from(Line::from("train").right_aligned()), COUNT_WIDTH),
            (Cell::from(Line::from("test").right_aligned()), COUNT_WIDTH),
            (Cell::from("note"), note),
        ],
        rows: body,
        first,
        keys: "j/k",
    }
    .render(area, buf);
}
