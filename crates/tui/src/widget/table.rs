//! The workbench's tables: a label column (run/predictive ids) followed by fixed-width value
//! columns, scrolled from a first row with the position always in view. Two things a plain
//! ratatui `Table` gets wrong on a small terminal are fixed here once, for every screen:
//! rows that do not fit are hidden with no sign of them (the border now reads
//! "rows 1–8 of 12 ↓ j/k"), and labels wider than their column lose their end, so that
//! `probit-laplace/plugin`, `/mc` and `/exact` all read `probit-laplace` (labels are now
//! shortened in the middle, keeping what tells them apart: see [`fit_labels`]).

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Cell, Row, Table, Widget};

/// One row: its label (elided to fit when needed) and its value cells.
pub struct LabelRow {
    pub label: String,
    pub label_style: Style,
    pub cells: Vec<Value>,
}

/// A value cell: its text, its style and whether it is right-aligned. Text wider than its
/// column is shortened in the middle with `…`, never cut silently (`-28.3649 ± 0.080` for a
/// standard error of 0.0805 would read as a different number).
#[derive(Debug, Clone, PartialEq)]
pub struct Value {
    pub text: String,
    pub style: Style,
    pub right: bool,
}

impl Value {
    pub fn style(mut self, style: Style) -> Self {
        self.style = style;
        self
    }

    pub fn right_aligned(mut self) -> Self {
        self.right = true;
        self
    }

    fn cell(self, width: u16) -> Cell<'static> {
        let line = Line::from(elide_middle(&self.text, usize::from(width)));
        let line = match self.right {
            true => line.right_aligned(),
            false => line,
        };
        Cell::from(line).style(self.style)
    }
}

impl From<String> for Value {
    fn from(text: String) -> Self {
        Value {
            text,
            style: Style::new(),
            right: false,
        }
    }
}

impl From<&str> for Value {
    fn from(text: &str) -> Self {
        Value::from(text.to_string())
    }
}

pub struct LabelTable<'a> {
    pub title: Line<'a>,
    pub label_header: &'a str,
    /// The value columns' headers and widths, in order.
    pub columns: Vec<(Cell<'a>, u16)>,
    pub rows: Vec<LabelRow>,
    /// The first row asked for; drawn as late as keeps the last page full.
    pub first: usize,
    /// The keys that scroll this table, named in the position note.
    pub keys: &'a str,
}

/// Spaces between columns.
const SPACING: u16 = 1;

/// The first row to show so that `first` is honoured but the last page stays full.
pub fn first_row(first: usize, rows: usize, visible: usize) -> usize {
    first.min(rows.saturating_sub(visible))
}

/// "rows 1–8 of 12 ↓ j/k" when some rows are out of view, else `None`; the arrows say on
/// which side the hidden ones are.
pub fn position(first: usize, visible: usize, rows: usize, keys: &str) -> Option<String> {
    if rows <= visible {
        return None;
    }
    let last = (first + visible).min(rows);
    let arrows = match (first > 0, last < rows) {
        (true, true) => "↑↓",
        (true, false) => "↑",
        _ => "↓",
    };
    let keys = match keys {
        "" => String::new(),
        keys => format!(" {keys}"),
    };
    Some(format!(
        " rows {}–{last} of {rows} {arrows}{keys} ",
        (first + 1).min(last)
    ))
}

/// Shorten `text` to `width` characters by replacing its middle with `…` (keeping a little
/// more of the head), or return it as it is when it fits.
pub fn elide_middle(text: &str, width: usize) -> String {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() <= width {
        return text.to_string();
    }
    if width <= 1 {
        return "…".chars().take(width).collect();
    }
    let keep = width - 1;
    let tail = keep / 2;
    let head = keep - tail;
    let mut out: String = chars[..head].iter().collect();
    out.push('…');
    out.extend(&chars[chars.len() - tail..]);
    out
}

/// `run/predictive` shortened in the run part only, so the predictive (the part that tells a
/// run's rows apart) stays whole: `probit-…/plugin`.
fn elide_run(label: &str, width: usize) -> String {
    match label.rsplit_once('/') {
        Some((run, predictive)) if predictive.chars().count() + 3 <= width => {
            let room = width - predictive.chars().count() - 1;
            format!("{}/{predictive}", elide_middle(run, room))
        }
        _ => elide_middle(label, width),
    }
}

/// The labels shortened to at most `width` characters each, keeping them distinct where the
/// originals are: first by eliding the middle of the run part of `run/predictive` labels,
/// then, when that merges two of them, the middle of the whole label; the end of a label is
/// never what is lost.
pub fn fit_labels(labels: &[String], width: usize) -> Vec<String> {
    if labels.iter().all(|l| l.chars().count() <= width) {
        return labels.to_vec();
    }
    let distinct = |out: &[String]| {
        (0..labels.len()).all(|i| (0..i).all(|j| labels[i] == labels[j] || out[i] != out[j]))
    };
    let by_run: Vec<String> = labels.iter().map(|l| elide_run(l, width)).collect();
    if distinct(&by_run) {
        return by_run;
    }
    let whole: Vec<String> = labels.iter().map(|l| elide_middle(l, width)).collect();
    if distinct(&whole) {
        return whole;
    }
    // They differ only in the middle: drop what each shares with its nearest neighbour.
    let chars: Vec<Vec<char>> = labels.iter().map(|l| l.chars().collect()).collect();
    let shared = |a: &[char], b: &[char]| a.iter().zip(b).take_while(|(x, y)| x == y).count();
    chars
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let cut = (0..chars.len())
                .filter(|&j| chars[j] != *l)
                .map(|j| shared(l, &chars[j]))
                .max()
                .unwrap_or(0);
            match cut {
                0 => elide_middle(&labels[i], width),
                cut => elide_middle(&format!("…{}", l[cut..].iter().collect::<String>()), width),
            }
        })
        .collect()
}

impl Widget for LabelTable<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        // a title wider than the border loses its middle to `…`, never its end silently
        let room = usize::from(area.width.saturating_sub(2));
        let title = match self.title.width() > room {
            true => Line::from(elide_middle(&self.title.to_string(), room)).style(self.title.style),
            false => self.title,
        };
        let mut block = Block::bordered().title(title);
        let inner = block.inner(area);
        let visible = usize::from(inner.height.saturating_sub(1));
        let n = self.rows.len();
        let first = first_row(self.first, n, visible);
        // Without the keys when the full note would be cut.
        let fits = |note: &String| note.chars().count() <= usize::from(inner.width);
        let note = position(first, visible, n, self.keys)
            .filter(fits)
            .or_else(|| position(first, visible, n, ""));
        if let Some(note) = note {
            block = block.title_bottom(Line::from(note).right_aligned());
        }
        let fixed: u16 = self.columns.iter().map(|(_, w)| w + SPACING).sum();
        let longest = self
            .rows
            .iter()
            .map(|r| r.label.chars().count())
            .chain([self.label_header.chars().count()])
            .max()
            .unwrap_or(0);
        let label_width = (longest as u16)
            .min(inner.width.saturating_sub(fixed))
            .max(1);
        let labels: Vec<String> = self.rows.iter().map(|r| r.label.clone()).collect();
        let labels = fit_labels(&labels, usize::from(label_width));
        let header = Row::new(
            std::iter::once(Cell::from(elide_middle(
                self.label_header,
                usize::from(label_width),
            )))
            .chain(self.columns.iter().map(|(c, _)| c.clone())),
        )
        .style(Style::new().add_modifier(Modifier::BOLD));
        let widths: Vec<Constraint> = std::iter::once(Constraint::Length(label_width))
            .chain(self.columns.iter().map(|&(_, w)| Constraint::Length(w)))
            .collect();
        let body = self
            .rows
            .into_iter()
            .zip(labels)
            .skip(first)
            .take(visible)
            .map(|(row, label)| {
                let cells = row
                    .cells
                    .into_iter()
                    .zip(&self.columns)
                    .map(|(v, (_, w))| v.cell(*w));
                Row::new(std::iter::once(Cell::from(label).style(row.label_style)).chain(cells))
            });
        Table::new(body, widths)
            .header(header)
            .column_spacing(SPACING)
            .block(block)
            .render(area, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn labels_keep_what_tells_them_apart() {
        let labels = strings(&[
            "probit-laplace/plugin",
            "probit-laplace/mc",
            "probit-laplace/exact",
            "bernoulli-naive-bayes/exact",
        ]);
        let fit = fit_labels(&labels, 14);
        assert_eq!(
            fit,
            strings(&[
                "pro…ace/plugin",
                "probi…place/mc",
                "prob…ace/exact",
                "bern…yes/exact"
            ])
        );
        assert!(fit.iter().all(|l| l.chars().count() <= 14));
        // Run ids that differ only in the middle fall back to eliding the whole label.
        let labels = strings(&["logistic-aaaa-laplace/exact", "logistic-bbbb-laplace/exact"]);
        let fit = fit_labels(&labels, 16);
        assert_eq!(fit, strings(&["…aaaa-la…e/exact", "…bbbb-la…e/exact"]));
        // What fits is left alone.
        assert_eq!(fit_labels(&labels, 40), labels);
    }

    #[test]
    fn elision_keeps_both_ends() {
        assert_eq!(elide_middle("bernoulli-naive-bayes", 9), "bern…ayes");
        assert_eq!(elide_middle("short", 9), "short");
        assert_eq!(elide_middle("abc", 1), "…");
        assert_eq!(elide_middle("abc", 0), "");
    }

    #[test]
    fn the_position_names_the_rows_in_view_and_where_the_rest_are() {
        assert_eq!(
            position(0, 8, 12, "j/k").as_deref(),
            Some(" rows 1–8 of 12 ↓ j/k ")
        );
        assert_eq!(
            position(2, 8, 12, "j/k").as_deref(),
            Some(" rows 3–10 of 12 ↑↓ j/k ")
        );
        assert_eq!(
            position(4, 8, 12, "j/k").as_deref(),
            Some(" rows 5–12 of 12 ↑ j/k ")
        );
        assert_eq!(position(0, 12, 12, "j/k"), None);
        assert_eq!(first_row(10, 12, 8), 4);
    }

    #[test]
    fn a_short_table_shows_its_position_and_fitted_labels() {
        let rows = (0..12)
            .map(|i| LabelRow {
                label: format!("probit-laplace/p{i}"),
                label_style: Style::new(),
                cells: vec![Value::from(format!("{i}"))],
            })
            .collect();
        let table = LabelTable {
            title: Line::from(" t "),
            label_header: "run/predictive",
            columns: vec![(Cell::from("v"), 3)],
            rows,
            first: 3,
            keys: "j/k",
        };
        let mut buf = Buffer::empty(Rect::new(0, 0, 20, 6));
        table.render(buf.area, &mut buf);
        let text: Vec<String> = (0..6)
            .map(|y| (0..20).map(|x| buf[(x, y)].symbol()).collect())
            .collect();
        // 3 rows in view: rows 4-6, labels shortened in the run part.
        assert!(text[2].starts_with("│probi…place/p3 3"), "{text:?}");
        assert!(text[5].ends_with("rows 4–6 of 12 ↑↓ ┘"), "{text:?}");
    }

    #[test]
    fn a_value_wider_than_its_column_is_shortened_with_a_mark() {
        let table = LabelTable {
            title: Line::from(" t "),
            label_header: "run",
            columns: vec![(Cell::from("ln p"), 16)],
            rows: vec![LabelRow {
                label: "estimate".into(),
                label_style: Style::new(),
                cells: vec![Value::from("-28.3649 ± 0.0805")],
            }],
            first: 0,
            keys: "",
        };
        let mut buf = Buffer::empty(Rect::new(0, 0, 28, 4));
        table.render(buf.area, &mut buf);
        let row: String = (0..28).map(|x| buf[(x, 2)].symbol()).collect();
        // 17 characters in 16: the middle (" ±") gives way to `…`, both numbers stay whole
        assert!(row.contains("-28.3649… 0.0805"), "{row}");
    }
}
