//! Legends drawn in a strip of their own under the chart, so that no key ever covers a mark
//! (a whisker, the last point of a sweep): every figure with a legend uses [`split`].

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::canvas::{look, DrawResult, Look, Marker, FONT, TEXT};

/// How a key shows its series.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Swatch {
    /// A series of [`super::canvas::draw_lines`]: its line (dashed or not) and its marker.
    Series(Look),
    /// A thin grey reference line (the diagonal, a chosen value).
    Guide,
    /// The truth (an exact density): a thick black line.
    Truth,
}

/// One key of a legend: a label beside its swatch (which carries the colour).
#[derive(Debug, Clone)]
pub(crate) struct Key {
    pub label: String,
    pub swatch: Swatch,
}

const FONT_SIZE: u32 = TEXT;
const ROW: u32 = 24;
const SWATCH: i32 = 30;

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
            Swatch::Series(look) => series_swatch(area, look, x, y)?,
            Swatch::Truth => area.draw(&PathElement::new(
                [(x, y), (x + SWATCH, y)],
                BLACK.stroke_width(3),
            ))?,
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

/// A series' swatch at pixel (x, y): its line, dashed as the series is, and its marker.
fn series_swatch<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    look: Look,
    x: i32,
    y: i32,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let style = look.colour.stroke_width(2);
    match look.dashed {
        true => {
            area.draw(&PathElement::new([(x, y), (x + 10, y)], style))?;
            area.draw(&PathElement::new([(x + 20, y), (x + SWATCH, y)], style))?;
        }
        false => area.draw(&PathElement::new([(x, y), (x + SWATCH, y)], style))?,
    }
    let (cx, c) = (x + SWATCH / 2, look.colour);
    match look.marker {
        Marker::Circle => area.draw(&Circle::new((cx, y), 4, c.filled()))?,
        Marker::Triangle => area.draw(&TriangleMarker::new((cx, y), 5, c.filled()))?,
        Marker::Square => area.draw(&Rectangle::new(
            [(cx - 4, y - 4), (cx + 4, y + 4)],
            c.filled(),
        ))?,
        Marker::Cross => area.draw(&Cross::new((cx, y), 5, c.stroke_width(2)))?,
    }
    Ok(())
}

/// One legend key per series of [`super::canvas::draw_lines`], in the same looks.
pub(crate) fn line_keys(series: &[(String, Vec<(f64, f64)>)]) -> Vec<Key> {
    series
        .iter()
        .enumerate()
        .map(|(i, (id, _))| Key {
            label: id.clone(),
            swatch: Swatch::Series(look(i)),
        })
        .collect()
}
