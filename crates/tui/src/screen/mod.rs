//! Drawing: a pure function of `&App`. The frame is the tab bar, the current screen and the
//! status line; the help overlay sits on top when open. One `render` per screen, in a file
//! named after it.

mod calibration;
mod dataset;
mod encoding;
mod evidence;
mod experiments;
mod formulas;
mod gold;
mod help;
mod input_space;
mod live;
mod log_evidence;
mod loo;
mod passes;
mod posterior;
mod present;
mod reparam;
mod results;
mod steps;
mod summary;
mod sweep;
mod too_small;
mod traces;
mod weight_space;

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Tabs, Widget, Wrap};

use super::app::{App, Screen};
use super::session::JobState;

pub use dataset::shown as dataset_shown;
pub use encoding::rows as encoding_rows;
pub use input_space::input_planes;
pub use posterior::rows as posterior_rows;
pub use results::{best_rows, result_rows, ResultRow};
pub use too_small::{MIN_HEIGHT, MIN_WIDTH};
pub use weight_space::pair_index;

impl Widget for &App {
    fn render(self, area: Rect, buf: &mut Buffer) {
        if too_small::too_small(area) {
            return too_small::render(area, buf);
        }
        if present::render(self, area, buf) {
            if self.help {
                help::render(self.picks.help_scroll, area, buf);
            }
            return;
        }
        let [tabs, body, status] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Min(0),
            Constraint::Length(status_height(self, area.width)),
        ])
        .areas(area);
        render_tabs(self, tabs, buf);
        match self.screen {
            Screen::Experiments => experiments::render(self, body, buf),
            Screen::Dataset => dataset::render(self, body, buf),
            Screen::Live => live::render(self, body, buf),
            Screen::Results => results::render(self, body, buf),
            Screen::Calibration => calibration::render(self, body, buf),
            Screen::Posterior => posterior::render(self, body, buf),
            Screen::Reparam => reparam::render(self, body, buf),
        }
        render_status(self, status, buf);
        if self.help {
            help::render(self.picks.help_scroll, body, buf);
        }
    }
}

fn render_tabs(app: &App, area: Rect, buf: &mut Buffer) {
    let titles = Screen::ALL
        .iter()
        .enumerate()
        .map(|(i, s)| format!("{} {}", i + 1, s.title()));
    Tabs::new(titles)
        .select(app.screen.index())
        .highlight_style(Style::new().fg(Color::Black).bg(Color::Cyan))
        .divider("│")
        .padding("", "")
        .render(area, buf);
}

/// The status line grows to three rows for a long (error) message so it stays readable.
fn status_height(app: &App, width: u16) -> u16 {
    let len = app.status.text.chars().count() + job_label(app).len() + 12;
    (len as u16).div_ceil(width.max(1)).clamp(1, 3)
}

fn job_label(app: &App) -> String {
    match &app.session {
        None => String::new(),
        Some(s) => {
            let state = match &s.state {
                JobState::Running => "running",
                JobState::Finished => "done",
                JobState::Cancelled => "cancelled",
                JobState::Failed(_) => "failed",
            };
            // A finished sweep: the point whose record 5-7 show.
            match s.shown_label() {
                Some(point) => format!("[{} {state}, {point}] ", s.plan.name),
                None => format!("[{} {state}] ", s.plan.name),
            }
        }
    }
}

fn render_status(app: &App, area: Rect, buf: &mut Buffer) {
    let style = match app.status.error {
        true => Style::new()
            .fg(Color::LightRed)
            .add_modifier(Modifier::BOLD),
        false => Style::new(),
    };
    let line = Line::from(vec![
        Span::from(job_label(app)).fg(Color::Cyan),
        Span::styled(app.status.text.clone(), style),
        Span::from("  ? keys").fg(Color::DarkGray),
    ]);
    Paragraph::new(line)
        .wrap(Wrap { trim: true })
        .render(area, buf);
}

/// A centred message for screens with nothing to show yet.
fn placeholder(text: &str, area: Rect, buf: &mut Buffer) {
    let [_, mid, _] = Layout::vertical([
        Constraint::Fill(1),
        Constraint::Length(3),
        Constraint::Fill(1),
    ])
    .areas(area);
    Paragraph::new(text)
        .centered()
        .wrap(Wrap { trim: true })
        .fg(Color::DarkGray)
        .render(mid, buf);
}

/// A number for a table cell: fixed 4 decimals, or `–` when absent.
fn num(v: Option<f64>) -> String {
    v.map(|v| format!("{v:.4}")).unwrap_or_else(|| "–".into())
}
