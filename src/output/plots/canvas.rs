//! What every figure shares: the [`Figure`] it becomes, the SVG surface it is drawn on, the
//! palette, the font, legends and lines.

use plotters::prelude::*;

/// One figure: a file stem (for report.md's `plots/<stem>.svg`), a caption and the SVG text.
#[derive(Debug, Clone)]
pub struct Figure {
    pub stem: String,
    pub caption: String,
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

/// The legend of every figure: a translucent white box with a thin border.
pub(super) fn legend<'a, DB: DrawingBackend + 'a, CT: plotters::coord::CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
    position: SeriesLabelPosition,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    chart
        .configure_series_labels()
        .position(position)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK.mix(0.3))
        .label_font((FONT, 11))
        .draw()?;
    Ok(())
}

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
    for (i, (id, pts)) in series.iter().enumerate() {
        let c = colour(i);
        // Mark the points of short series (iterations, swept values), not of dense curves.
        let marks = if pts.len() <= 60 { 2 } else { 0 };
        chart
            .draw_series(LineSeries::new(pts.clone(), c.stroke_width(2)).point_size(marks))?
            .label(id.clone())
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 16, y)], c.stroke_width(2)));
    }
    legend(chart, SeriesLabelPosition::UpperRight)?;
    Ok(())
}
