//! Presentation mode (`P`) for the classroom: the picture — the weight-space picture, or the
//! input-space picture or the predictive formulas when chosen with `i` or `f` — fills the
//! whole terminal, without the tab bar, the status line or any other panel; `Esc` goes back.
//! The picture is drawn by the same function as on the Posterior screen, only larger.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::app::App;
use crate::picks::{Picks, Picture};
use bayeslab_core::record::ExperimentRecord;

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
    picture(record, &app.picks, app.picks.picture.presented(), area, buf);
    true
}

/// One picture of the record, as the Posterior screen and the presentation draw it.
pub fn picture(r: &ExperimentRecord, picks: &Picks, which: Picture, area: Rect, buf: &mut Buffer) {
    match which {
        Picture::Steps => super::steps::render(r, picks, area, buf),
        Picture::InputSpace => super::input_space::render(r, picks.features, area, buf),
        Picture::Formulas => super::formulas::render(r, area, buf),
        Picture::WeightSpace | Picture::Whiskers => {
            super::weight_space::render(r, picks.pair, area, buf)
        }
    }
}
