//! A [`Table`] as a Markdown pipe table, for report.md, the lab section, the sweep page and
//! comparison.md. It lives with the table rather than in [`crate::markdown`] so that
//! the lab section, which report.md includes, can render tables without importing report.md.

use std::fmt::Write;

use super::table::{Mark, Table};

/// A marked cell in bold (Markdown has no colour); a `|` in a plain cell escaped.
pub fn table(s: &mut String, t: &Table) {
    let _ = writeln!(s, "| {} |", t.headers.join(" | "));
    let aligns: Vec<&str> = t
        .numeric
        .iter()
        .map(|&n| if n { "---:" } else { "---" })
        .collect();
    let _ = writeln!(s, "|{}|", aligns.join("|"));
    for row in &t.rows {
        let cells: Vec<String> = row
            .iter()
            .map(|c| {
                if matches!(c.mark, Mark::Best | Mark::Warn) {
                    format!("**{}**", c.text)
                } else {
                    c.text.replace('|', "\\|")
                }
            })
            .collect();
        let _ = writeln!(s, "| {} |", cells.join(" | "));
    }
    s.push('\n');
}
