//! Legends drawn in a strip of their own under the chart, so that no key ever covers a mark
//! (a whisker, the last point of a sweep): every figure with a legend uses [`split`].

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::canvas::{colour, DrawResult, FONT};

/// How a key shows its series.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Swatch {
    Line,
    Dot,
    /// A thin grey reference line (the diagonal, a chosen value).
    Guide,
}

/// One key of a legend: a label beside its colour.
#[derive(Debug, Clone)]
pub(crate) struct Key {
    pub label: String,
    pub colour: RGBColor,
    pub swatch: Swatch,
}

const FONT_SIZE: u32 = 11;
const ROW: u32 = 18;
const SWATCH: i32 = 18;

/// The width a key takes: swatch, gap, text (about 0.6 em a character) and spacing.
fn key_width(k: &Key) -> u32 {
    SWATCH as u32 + 6 + (k.label.chars().count() as f64 * FONT_SIZE as f64 * 0.6).ceil() as u32 + 18
}

/// The keys laid out left to right in rows no wider than `width`: (row, x) per key.
fn layout(keys: &[Key], width: u32) -> Vec<(u32, u32)> {
    let (mut row, mut x) = (0, 0);
    keys.iter()
        .map(|k| {
            let w = key_width(k);
            if x > 0 && x + w > width {
                row += 1;
                x = 0;
            }
            let at = (row, x);
            x += w;
            at
        })
        .collect()
}

/// The height the legend of `keys` needs in a figure `width` pixels wide (0 without keys).
pub(crate) fn height(keys: &[Key], width: u32) -> u32 {
    match layout(keys, width.saturating_sub(24)).last() {
        Some((rows, _)) => (rows + 1) * ROW + 10,
        None => 0,
    }
}

/// Split `area` into the chart above and the legend of `keys` under it, drawing the legend.
pub(crate) fn split<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    keys: &[Key],
) -> Result<DrawingArea<DB, Shift>, Box<dyn std::error::Error>>
where
    DB::ErrorType: 'static,
{
    let (w, h) = area.dim_in_pixel();
    let strip = height(keys, w);
    if strip == 0 {
        return Ok(area.clone());
    }
    let (chart, bottom) = area.split_vertically(h.saturating_sub(strip));
    draw(&bottom, keys)?;
    Ok(chart)
}

fn draw<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, keys: &[Key]) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let (w, _) = area.dim_in_pixel();
    let style =
        TextStyle::from((FONT, FONT_SIZE).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
    for (k, (row, x)) in keys.iter().zip(layout(keys, w.saturating_sub(24))) {
        let (x, y) = (12 + x as i32, 4 + (row * ROW + ROW / 2) as i32);
        match k.swatch {
            Swatch::Line => area.draw(&PathElement::new(
                [(x, y), (x + SWATCH, y)],
                k.colour.stroke_width(2),
            ))?,
            Swatch::Dot => area.draw(&Circle::new((x + SWATCH / 2, y), 4, k.colour.filled()))?,
            Swatch::Guide => {
                area.draw(&PathElement::new([(x, y), (x + SWATCH, y)], BLACK.mix(0.5)))?
            }
        }
        area.draw(&Text::new(
            k.label.clone(),
            (x + SWATCH + 6, y),
            style.clone(),
        ))?;
    }
    Ok(())
}

/// One legend key per series of [`super::canvas::draw_lines`], in the same colours.
pub(crate) fn line_keys(series: &[(String, Vec<(f64, f64)>)]) -> Vec<Key> {
    series
        .iter()
        .enumerate()
        .map(|(i, (id, _))| Key {
            label: id.clone(),
            colour: colour(i),
            swatch: Swatch::Line,
        })
        .collect()
}
