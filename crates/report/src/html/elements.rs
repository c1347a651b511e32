//! The building blocks of an HTML page: the style sheet, escaping, prose with code spans,
//! tables and figures. report.html and the sweep page are made of them.

use std::fmt::Write;

use crate::plots::Figure;
use crate::tables::{Mark, Table};

pub const STYLE: &str = "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222;line-height:1.45}\
h1{font-size:1.6em;border-bottom:2px solid #1f77b4;padding-bottom:.2em}h2{margin-top:2em;border-bottom:1px solid #ddd}\
.table{overflow-x:auto;margin:.6em 0 1.2em}table{border-collapse:collapse;font-size:.9em}th,td{border:1px solid #ccc;padding:.25em .6em}\
td{white-space:nowrap}td.wrap{white-space:normal;min-width:20em}\
th{background:#f3f6fa}td.num{text-align:right;font-variant-numeric:tabular-nums}td.best{font-weight:bold;background:#e8f4e8}td.tie{font-style:italic}td.warn{font-weight:bold;background:#fbe9e9;color:#a00}\
.figs{display:flex;flex-wrap:wrap;gap:1em;margin:1em 0}.fig{margin:0;max-width:100%}.fig svg{max-width:100%;height:auto}.fig figcaption{font-size:.85em;color:#555}\
pre{background:#f6f8fa;padding:1em;overflow:auto;font-size:.85em}.failed{color:#b00}code{background:#f3f3f3;padding:0 .2em}";

/// Escape text for HTML element content and attribute values.
pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Prose shared with report.md as HTML: escaped, with its `code` spans as <code> (unbalanced
/// backticks are dropped).
pub fn prose(text: &str) -> String {
    let escaped = escape(text);
    if escaped.matches('`').count() % 2 == 1 {
        return escaped.replace('`', "");
    }
    escaped
        .split('`')
        .enumerate()
        .map(|(i, part)| {
            if i % 2 == 1 {
                format!("<code>{part}</code>")
            } else {
                part.to_string()
            }
        })
        .collect()
}

/// Cells longer than this (a failure message, a path) may wrap; shorter ones (names, numbers,
/// "0.26 good") stay on one line, and a table too wide for the page scrolls sideways.
const WRAP_CHARS: usize = 40;

pub fn table(s: &mut String, t: &Table) {
    s.push_str("<div class=\"table\"><table><thead><tr>");
    for h in &t.headers {
        let _ = write!(s, "<th>{}</th>", escape(h));
    }
    s.push_str("</tr></thead><tbody>\n");
    for row in &t.rows {
        s.push_str("<tr>");
        for (c, numeric) in row.iter().zip(&t.numeric) {
            let mut class = Vec::new();
            if *numeric {
                class.push("num");
            }
            match c.mark {
                Mark::Best => class.push("best"),
                Mark::Tie => class.push("tie"),
                Mark::Warn => class.push("warn"),
                Mark::Plain => {}
            }
            if c.text.chars().count() > WRAP_CHARS {
                class.push("wrap");
            }
            let attr = if class.is_empty() {
                String::new()
            } else {
                format!(" class=\"{}\"", class.join(" "))
            };
            let _ = write!(s, "<td{attr}>{}</td>", escape(&c.text));
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody></table></div>\n");
}

/// A figure inline; its caption is the title drawn inside the SVG, so the figcaption says how
/// to read it instead (nothing when the figure has no guide). The figure is no wider than its
/// drawing, so a long guide wraps under it rather than push figures side by side apart.
pub fn figure(s: &mut String, f: &Figure) {
    // plotters writes a prolog-free <svg> element, valid inline in HTML5.
    let guide = if f.guide.is_empty() {
        String::new()
    } else {
        format!("<figcaption>{}</figcaption>", prose(&f.guide))
    };
    let width = svg_width(&f.svg).map_or(String::new(), |w| {
        format!(" style=\"max-width:min({w}px,100%)\"")
    });
    let _ = writeln!(
        s,
        "<figure class=\"fig\" id=\"{}\"{width}>{}{guide}</figure>",
        escape(&f.stem),
        f.svg,
    );
}

/// The pixel width plotters gives its <svg> element.
fn svg_width(svg: &str) -> Option<u32> {
    let head = &svg[..svg.find('>')?];
    let rest = &head[head.find(" width=\"")? + 8..];
    rest[..rest.find('"')?].parse().ok()
}

pub(super) fn figures_with_prefix(s: &mut String, figures: &[Figure], prefix: &str) {
    let mine: Vec<&Figure> = figures
        .iter()
        .filter(|f| f.stem.starts_with(prefix))
        .collect();
    if mine.is_empty() {
        return;
    }
    s.push_str("<div class=\"figs\">\n");
    for f in mine {
        figure(s, f);
    }
    s.push_str("</div>\n");
}
