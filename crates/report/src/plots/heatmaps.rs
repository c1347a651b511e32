//! Weight heatmaps for 8x8 pixel data: the posterior mean and variance per pixel.

use plotters::prelude::*;

use super::canvas::{svg, DrawResult, Figure, FONT, TEXT, TITLE, WIDTH};
use bayeslab_core::record::{ExperimentRecord, RunRecord};

/// For 8x8 pixel data (columns p0..p63), the posterior mean and variance of the pixel
/// weights as two heatmaps (blue negative, red positive for the mean).
pub fn heatmaps(r: &ExperimentRecord, run: &RunRecord) -> Option<Figure> {
    let post = run.posterior.as_ref()?;
    let index: Vec<usize> = (0..64)
        .map(|k| r.dataset.columns.iter().position(|c| *c == format!("p{k}")))
        .collect::<Option<_>>()?;
    let mean: Vec<f64> = index.iter().map(|&i| post.mean[i]).collect();
    let var: Vec<f64> = index.iter().map(|&i| post.cov_diag[i]).collect();
    let caption = format!(
        "Pixel weights of {}: posterior mean (left) and variance (right)",
        run.id
    );
    let text = svg((WIDTH, 520), |root| {
        root.fill(&WHITE)?;
        let root = root.titled(&caption, (FONT, TITLE))?;
        let [left, right] = {
            let parts = root.split_evenly((1, 2));
            [parts[0].clone(), parts[1].clone()]
        };
        let m = mean.iter().fold(1e-12f64, |a, v| a.max(v.abs()));
        draw_grid(
            &left,
            &mean,
            |v| diverging(v / m),
            &format!("mean (±{m:.3})"),
        )?;
        let vmax = var.iter().fold(1e-12f64, |a, v| a.max(*v));
        draw_grid(
            &right,
            &var,
            |v| sequential(v / vmax),
            &format!("variance (max {vmax:.3})"),
        )?;
        Ok(())
    });
    Some(Figure {
        stem: format!("heatmaps-{}", run.id),
        caption,
        guide: "Each cell is one pixel's weight, laid out as the 8×8 image: where the classifier looks, and how sure it is there.".into(),
        svg: text,
    })
}

fn draw_grid<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    values: &[f64],
    colour_of: impl Fn(f64) -> RGBColor,
    label: &str,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let mut chart = ChartBuilder::on(area)
        .caption(label, (FONT, TEXT))
        .margin(14)
        .build_cartesian_2d(0f64..8f64, 0f64..8f64)?;
    chart.draw_series((0..64).map(|k| {
        let (row, col) = ((k / 8) as f64, (k % 8) as f64);
        // row 0 is the top of the image
        Rectangle::new(
            [(col, 7.0 - row), (col + 1.0, 8.0 - row)],
            colour_of(values[k]).filled(),
        )
    }))?;
    Ok(())
}

/// Blue (-1) through white (0) to red (+1).
fn diverging(t: f64) -> RGBColor {
    let t = t.clamp(-1.0, 1.0);
    let (r, g, b) = if t < 0.0 {
        (1.0 + t, 1.0 + t, 1.0)
    } else {
        (1.0, 1.0 - t, 1.0 - t)
    };
    RGBColor((r * 255.0) as u8, (g * 255.0) as u8, (b * 255.0) as u8)
}

/// White (0) to dark purple (1).
fn sequential(t: f64) -> RGBColor {
    let t = t.clamp(0.0, 1.0);
    RGBColor(
        (255.0 - 180.0 * t) as u8,
        (255.0 - 230.0 * t) as u8,
        (255.0 - 120.0 * t) as u8,
    )
}
