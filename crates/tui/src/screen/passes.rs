//! The Live screen's view of a sweep and of a streamed run: above the method gauges, the sweep
//! point running ("point 3/7: prior.precision = 0.1") and a gauge for the pass over the data
//! file reading now ("fit logistic-map: pass 3, 120,000 / 400,000 rows"); beside (or below)
//! the convergence plots, every finished pass with its purpose, run, rows, where it read them
//! (`file`, or `cache`: the design cache the first training pass wrote) and seconds.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style, Stylize};
use ratatui::text::Line;
use ratatui::widgets::{Block, Cell, Gauge, Row, Table, Widget};

use crate::session::Session;
use bayeslab_core::catalog::thousands;
use bayeslab_core::record::{PassPurpose, PassRecord};

/// Rows above the gauges: one for the sweep point, one for the pass gauge; none otherwise.
pub fn head_height(session: &Session) -> u16 {
    u16::from(session.point.is_some()) + u16::from(!session.passes.is_empty())
}

pub fn render_head(session: &Session, area: Rect, buf: &mut Buffer) {
    let mut rows = area.rows();
    if let Some((at, row)) = session
        .point
        .as_ref()
        .and_then(|at| Some((at, rows.next()?)))
    {
        // after the sweep, [ ] may show another point on 4-7: say which, beside the curves'
        let other = match &session.sweep {
            Some(w) if session.shown != at.index => format!(
                " (its curves); 4-7 show point {}/{}",
                session.shown + 1,
                w.points.len()
            ),
            _ => String::new(),
        };
        Line::from(format!("sweep {}{other}", at.label()))
            .style(Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD))
            .render(row, buf);
    }
    let Some(row) = rows.next().filter(|_| !session.passes.is_empty()) else {
        return;
    };
    let passes = &session.passes;
    let (ratio, label) = match (&passes.current, passes.done.last()) {
        (Some(p), _) => (
            p.rows_read as f64 / p.rows_total.max(1) as f64,
            passes.label(p),
        ),
        (None, Some(d)) => (
            1.0,
            format!(
                "{} passes done, {} from the cache; the last: {} {}, {} rows",
                passes.done.len(),
                passes
                    .done
                    .iter()
                    .filter(|p| p.read_from == bayeslab_core::record::ReadFrom::Cache)
                    .count(),
                d.purpose,
                d.run.as_deref().unwrap_or("(every run)"),
                thousands(d.rows)
            ),
        ),
        (None, None) => (0.0, String::new()),
    };
    Gauge::default()
        .ratio(ratio.clamp(0.0, 1.0))
        .label(label)
        .gauge_style(Style::new().fg(Color::LightBlue).bg(Color::Black))
        .use_unicode(true)
        .render(row, buf);
}

/// Passes alike (same purpose, run and source) in a row: how many, their rows each and their
/// seconds summed, ordered by their latest pass.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Group {
    pub purpose: PassPurpose,
    pub run: String,
    pub rows: usize,
    pub from: &'static str,
    pub count: usize,
    pub seconds: f64,
}

/// The passes as table rows: one per pass when `room` rows hold them all, else one per group
/// of alike passes.
pub(crate) fn groups(done: &[PassRecord], room: usize) -> Vec<Group> {
    let run = |p: &PassRecord| p.run.clone().unwrap_or_else(|| "(every run)".into());
    let one = |p: &PassRecord| Group {
        purpose: p.purpose,
        run: run(p),
        rows: p.rows,
        from: p.read_from.name(),
        count: 1,
        seconds: p.seconds,
    };
    if done.len() <= room {
        return done.iter().map(one).collect();
    }
    let mut out: Vec<Group> = Vec::new();
    for p in done {
        let g = one(p);
        let same = |o: &Group| {
            (&o.purpose, &o.run, o.rows, o.from) == (&g.purpose, &g.run, g.rows, g.from)
        };
        match out.iter().position(same) {
            Some(i) => {
                let mut old = out.remove(i);
                old.count += 1;
                old.seconds += g.seconds;
                out.push(old);
            }
            None => out.push(g),
        }
    }
    out
}

/// Split off the finished-pass table from the plots' area (to the right on a wide terminal,
/// below otherwise), draw it, and return what is left for the plots. When not every pass
/// fits, alike passes share a row (`cache ×5`); when not every row fits either, the latest
/// are shown and the title says how many of how many.
pub fn render_done(session: &Session, area: Rect, buf: &mut Buffer) -> Rect {
    let done = &session.passes.done;
    if done.is_empty() {
        return area;
    }
    let wide = area.width >= 110;
    let room = match wide {
        true => usize::from(area.height.saturating_sub(3)),
        false => usize::from((area.height / 2).saturating_sub(3)),
    };
    let rows = groups(done, room);
    // The columns fit their longest entry, so no run name is cut where the width allows.
    let run_width = rows
        .iter()
        .map(|g| g.run.chars().count())
        .max()
        .unwrap_or(0);
    let rows_width = rows
        .iter()
        .map(|g| thousands(g.rows).len())
        .max()
        .unwrap_or(0);
    let from = |g: &Group| match g.count {
        1 => g.from.to_string(),
        n => format!("{} ×{n}", g.from),
    };
    let from_width = rows
        .iter()
        .map(|g| from(g).chars().count())
        .max()
        .unwrap_or(0);
    let (run_width, rows_width, from_width) = (
        run_width.max(3) as u16,
        rows_width.max(4) as u16,
        from_width.max(4) as u16,
    );
    let (plots, table) = if wide {
        let w = 11 + run_width + rows_width + from_width + 7 + 4 + 2;
        let [p, t] = Layout::horizontal([Constraint::Min(0), Constraint::Length(w)]).areas(area);
        (p, t)
    } else {
        let h = (rows.len() as u16 + 3).min(area.height / 2);
        let [p, t] = Layout::vertical([Constraint::Min(0), Constraint::Length(h)]).areas(area);
        (p, t)
    };
    // The latest rows, oldest first, as many as fit.
    let visible = usize::from(table.height.saturating_sub(3));
    let first = rows.len().saturating_sub(visible);
    let lines = rows[first..].iter().map(|g| {
        Row::new([
            Cell::from(g.purpose.name()),
            Cell::from(g.run.clone()),
            Cell::from(Line::from(thousands(g.rows)).right_aligned()),
            Cell::from(from(g)),
            Cell::from(Line::from(format!("{:.3}", g.seconds)).right_aligned()),
        ])
    });
    let header = Row::new([
        Line::from("purpose"),
        Line::from("run"),
        Line::from("rows").right_aligned(),
        Line::from("from"),
        Line::from("seconds").right_aligned(),
    ])
    .style(Style::new().add_modifier(Modifier::BOLD));
    let widths = [
        Constraint::Length(11),
        Constraint::Length(run_width),
        Constraint::Length(rows_width),
        Constraint::Length(from_width),
        Constraint::Length(7),
    ];
    let grouped = match rows.len() < done.len() {
        true => ", alike grouped",
        false => "",
    };
    let shown = match first {
        0 => String::new(),
        _ => format!(", latest {} of {} rows", rows.len() - first, rows.len()),
    };
    Table::new(lines, widths)
        .header(header)
        .column_spacing(1)
        .block(Block::bordered().title(format!(
            " passes done: {}{grouped}{shown}, latest last ",
            done.len()
        )))
        .fg(Color::Reset)
        .render(table, buf);
    plots
}
