//! What every figure shares: the [`Figure`] it becomes, the SVG surface it is drawn on, the
//! palette, the font and lines (legends: [`super::legend`]; ticks: [`super::axis`]).

use plotters::prelude::*;

/// One figure: a file stem (for report.md's `plots/<stem>.svg`), a caption (the title drawn
/// in the SVG, and report.md's alt text), a guide saying how to read it (report.html's
/// figcaption, which would otherwise repeat the title) and the SVG text.
#[derive(Debug, Clone)]
pub struct Figure {
    pub stem: String,
    pub caption: String,
    pub guide: String,
    pub svg: String,
}

pub(super) type DrawResult = Result<(), Box<dyn std::error::Error>>;

pub(super) const FONT: &str = "sans-serif";
/// Every figure's width in pixels: the width of report.html's text column, so that a figure
/// is drawn at 100 % and its text keeps its size.
pub(crate) const WIDTH: u32 = 1000;
/// The smallest text of a figure (ticks, legends, labels): plotters writes a font size s as
/// s / 1.24 px, so 18 is 14.5 px at 100 % zoom.
pub(crate) const TEXT: u32 = 18;
/// Titles.
pub(crate) const TITLE: u32 = 22;
/// Sixteen colours (Tableau 10, then six darker or brighter ones), so that the series of a
/// figure differ in colour up to sixteen; [`Look`] adds a marker and a dash, so that colour is
/// never the only cue.
pub(super) const PALETTE: [RGBColor; 16] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
    RGBColor(0, 0, 128),
    RGBColor(128, 0, 0),
    RGBColor(0, 110, 110),
    RGBColor(204, 153, 0),
    RGBColor(100, 60, 140),
    RGBColor(0, 0, 0),
];

pub(super) fn colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// The shape marking a series' points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Marker {
    Circle,
    Triangle,
    Square,
    Cross,
}

/// How series `i` of a figure is drawn: a colour, a marker and a line that is solid or dashed.
/// Series 0–15 have sixteen colours; the marker cycles every four and the dash every eight, so
/// that without colour sixteen series still fall into eight (marker, dash) looks, and two series
/// of one colour (the 17th and the 1st) differ in dash or marker.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Look {
    pub colour: RGBColor,
    pub marker: Marker,
    pub dashed: bool,
}

pub(crate) fn look(i: usize) -> Look {
    const MARKERS: [Marker; 4] = [
        Marker::Circle,
        Marker::Triangle,
        Marker::Square,
        Marker::Cross,
    ];
    Look {
        colour: colour(i),
        marker: MARKERS[(i + i / 16) % 4],
        dashed: (i / 8) % 2 == 1,
    }
}

/// Draw `look`'s marker at pixel-free coordinates `at` on `chart`.
pub(super) fn marker<'a, DB, CT>(
    chart: &mut ChartContext<'a, DB, CT>,
    look: Look,
    at: &[(f64, f64)],
) -> DrawResult
where
    DB: DrawingBackend + 'a,
    DB::ErrorType: 'static,
    CT: plotters::coord::CoordTranslate<From = (f64, f64)>,
{
    let c = look.colour;
    match look.marker {
        Marker::Circle => {
            chart.draw_series(at.iter().map(|&p| Circle::new(p, 4, c.filled())))?;
        }
        Marker::Triangle => {
            chart.draw_series(at.iter().map(|&p| TriangleMarker::new(p, 5, c.filled())))?;
        }
        Marker::Square => {
            chart
                .draw_series(at.iter().map(|&p| {
                    EmptyElement::at(p) + Rectangle::new([(-4, -4), (4, 4)], c.filled())
                }))?;
        }
        Marker::Cross => {
            chart.draw_series(at.iter().map(|&p| Cross::new(p, 5, c.stroke_width(2))))?;
        }
    }
    Ok(())
}

/// Draw one series' line (solid or dashed) in `look`.
pub(super) fn line<'a, DB, CT>(
    chart: &mut ChartContext<'a, DB, CT>,
    look: Look,
    pts: &[(f64, f64)],
) -> DrawResult
where
    DB: DrawingBackend + 'a,
    DB::ErrorType: 'static,
    CT: plotters::coord::CoordTranslate<From = (f64, f64)>,
{
    let style = look.colour.stroke_width(2);
    match look.dashed {
        true => chart.draw_series(DashedLineSeries::new(pts.to_vec(), 8, 5, style))?,
        false => chart.draw_series(LineSeries::new(pts.to_vec(), style))?,
    };
    Ok(())
}

/// Where series `i` of a long curve is marked: about ten of its points, shifted by `i` so that
/// coincident series show their markers side by side rather than on top of each other.
pub(super) fn marked_points(pts: &[(f64, f64)], i: usize) -> Vec<(f64, f64)> {
    if pts.len() <= 30 {
        return pts.to_vec();
    }
    let step = pts.len() / 10;
    let shift = (i * step / 5) % step.max(1);
    pts.iter()
        .skip(shift)
        .step_by(step.max(1))
        .copied()
        .collect()
}

/// Draw into an SVG string; a drawing failure becomes a visible note instead of a panic.
pub(super) fn svg(
    size: (u32, u32),
    draw: impl FnOnce(DrawingArea<SVGBackend<'_>, plotters::coord::Shift>) -> DrawResult,
) -> String {
    let mut buf = String::new();
    let result = {
        let root = SVGBackend::with_string(&mut buf, size).into_drawing_area();
        draw(root)
    };
    match result {
        Ok(()) => buf,
        Err(e) => format!("<p class=\"plot-error\">figure could not be drawn: {e}</p>"),
    }
}

/// One line per series in its [`Look`], every point marked when they are few and about ten
/// when they are many; the legend is the caller's
/// ([`super::legend::line_keys`] in a [`super::legend::split`] strip).
pub(super) fn draw_lines<
    'a,
    DB: DrawingBackend + 'a,
    CT: plotters::coord::CoordTranslate<From = (f64, f64)>,
>(
    chart: &mut ChartContext<'a, DB, CT>,
    series: &[(String, Vec<(f64, f64)>)],
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    for (i, (_, pts)) in series.iter().enumerate() {
        line(chart, look(i), pts)?;
        marker(chart, look(i), &marked_points(pts, i))?;
    }
    Ok(())
}
