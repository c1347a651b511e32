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

use crate::catalog::thousands;
use crate::record::PassRecord;
use crate::tui::session::Session;

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
                    .filter(|p| p.read_from == crate::record::ReadFrom::Cache)
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

/// Split off the finished-pass table from the plots' area (to the right on a wide terminal,
/// below otherwise), draw it, and return what is left for the plots.
pub fn render_done(session: &Session, area: Rect, buf: &mut Buffer) -> Rect {
    let done = &session.passes.done;
    if done.is_empty() {
        return area;
    }
    // The columns fit their longest entry, so no run name is cut where the width allows.
    let run = |p: &PassRecord| p.run.clone().unwrap_or_else(|| "(every run)".into());
    let run_width = done
        .iter()
        .map(|p| run(p).chars().count())
        .max()
        .unwrap_or(0);
    let rows_width = done
        .iter()
        .map(|p| thousands(p.rows).len())
        .max()
        .unwrap_or(0);
    let (run_width, rows_width) = (run_width.max(3) as u16, rows_width.max(4) as u16);
    let (plots, table) = if area.width >= 110 {
        let w = 11 + run_width + rows_width + 5 + 7 + 4 + 2;
        let [p, t] = Layout::horizontal([Constraint::Min(0), Constraint::Length(w)]).areas(area);
        (p, t)
    } else {
        let h = (done.len() as u16 + 3).min(area.height / 3);
        let [p, t] = Layout::vertical([Constraint::Min(0), Constraint::Length(h)]).areas(area);
        (p, t)
    };
    // The latest passes, oldest first, as many as fit.
    let visible = usize::from(table.height.saturating_sub(3));
    let first = done.len().saturating_sub(visible);
    let rows = done[first..].iter().map(|p| {
        Row::new([
            Cell::from(p.purpose.clone()),
            Cell::from(run(p)),
            Cell::from(Line::from(thousands(p.rows)).right_aligned()),
            Cell::from(p.read_from.name()),
            Cell::from(Line::from(format!("{:.3}", p.seconds)).right_aligned()),
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
        Constraint::Length(5),
        Constraint::Length(7),
    ];
    Table::new(rows, widths)
        .header(header)
        .column_spacing(1)
        .block(Block::bordered().title(format!(" passes done: {}, latest last ", done.len())))
        .fg(Color::Reset)
        .render(table, buf);
    plots
}
