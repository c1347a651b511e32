//! Presentation mode (`P`) for the classroom: the picture — the weight-space picture, or the
//! input-space picture when it was chosen with `i` — fills the whole terminal, without the tab
//! bar, the status line or any other panel; `Esc` goes back. The picture is drawn by the same
//! function as on the Posterior screen, only larger.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::tui::app::App;

/// Draw the presented picture over `area` and say so; `false` when not presenting.
pub fn render(app: &App, area: Rect, buf: &mut Buffer) -> bool {
    if !app.picks.present {
        return false;
    }
    let Some(record) = app.session.as_ref().and_then(|s| s.record.as_ref()) else {
        super::placeholder(
            "no picture yet: run an experiment (r) and wait for it to finish (Esc: back)",
            area,
            buf,
        );
        return true;
    };
    match app.picks.input {
        true => super::input_space::render(record, app.picks.features, area, buf),
        false => super::weight_space::render(record, app.picks.pair, area, buf),
    }
    true
}
