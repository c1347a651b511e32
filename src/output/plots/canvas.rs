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
pub(super) const PALETTE: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
];

pub(super) fn colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
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

/// One line per series, its points marked when they are few; the legend is the caller's
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
        let c = colour(i);
        // Mark the points of short series (iterations, swept values), not of dense curves.
        let marks = if pts.len() <= 60 { 2 } else { 0 };
        chart.draw_series(LineSeries::new(pts.clone(), c.stroke_width(2)).point_size(marks))?;
    }
    Ok(())
}
