//! The reliability diagram of one run: every predictive of the run overlaid on one axes (as
//! scikit-learn's CalibrationDisplay does), each bin's observed frequency with its 95 % Wilson
//! interval, the diagonal of perfect calibration, and the test rows per bin as a histogram on
//! an axis of its own below (counts never sit on the probability axis).

use plotters::prelude::*;

use super::canvas::{line, look, marker, svg, Figure, FONT, TEXT, TITLE, WIDTH};
use super::legend::{self, Key, Swatch};
use bayeslab_core::metrics::Bin;
use bayeslab_core::record::RunRecord;

/// How to read every reliability diagram (the report says it once above them).
pub const GUIDE: &str = "One diagram per run, its predictives overlaid: the observed frequency against the mean prediction in each bin (with more than two classes, how often the most probable class was right against its probability), with each bin's 95 % Wilson interval as a vertical bar; the dashed diagonal is perfect calibration, and a bin whose bar misses it is miscalibrated beyond noise. Below, on its own axis, the test rows per bin.";

/// The 95 % Wilson score interval of a frequency `f` observed in `n` rows.
pub fn wilson(f: f64, n: usize) -> (f64, f64) {
    let (n, z) = (n as f64, 1.959_963_984_540_054_f64);
    let centre = (f + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z / (1.0 + z * z / n) * (f * (1.0 - f) / n + z * z / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The points of a predictive's curve: (mean prediction, observed frequency, count) per
/// non-empty bin.
fn points(bins: &[Bin]) -> Vec<(f64, f64, usize)> {
    bins.iter()
        .filter_map(|b| Some((b.mean_predicted?, b.observed_frequency?, b.count)))
        .filter(|p| p.2 > 0)
        .collect()
}

pub fn reliability(run: &RunRecord) -> Figure {
    let flag = run.flag().map(|f| format!(" — {f}")).unwrap_or_default();
    let caption = format!("Reliability: {}{flag}", run.id);
    let mut keys = vec![Key {
        label: "perfect calibration".into(),
        swatch: Swatch::Guide,
    }];
    keys.extend(run.predictives.iter().enumerate().map(|(i, p)| Key {
        label: format!("{} (ECE {:.3})", p.name, p.metrics.ece),
        swatch: Swatch::Series(look(i)),
    }));
    let n = run.predictives.len().max(1) as f64;
    let text = svg((WIDTH, 820), |root| {
        root.fill(&WHITE)?;
        let area = legend::split(&root, &keys)?;
        let (_, h) = area.dim_in_pixel();
        let (top, bottom) = area.split_vertically(h.saturating_sub(220));
        let mut chart = ChartBuilder::on(&top)
            .caption(&caption, (FONT, TITLE))
            .margin(14)
            .x_label_area_size(30)
            .y_label_area_size(70)
            .build_cartesian_2d(0f64..1f64, 0f64..1f64)?;
        chart
            .configure_mesh()
            .y_desc("observed frequency")
            .label_style((FONT, TEXT))
            .axis_desc_style((FONT, TEXT))
            .light_line_style(WHITE)
            .draw()?;
        chart.draw_series(DashedLineSeries::new(
            [(0.0, 0.0), (1.0, 1.0)],
            6,
            4,
            BLACK.mix(0.6).stroke_width(1),
        ))?;
        for (i, p) in run.predictives.iter().enumerate() {
            let pts = points(&p.calibration);
            // the bars of the predictives of one bin side by side, not on top of each other
            let dx = (i as f64 - (n - 1.0) / 2.0) * 0.006;
            chart.draw_series(pts.iter().map(|&(x, f, c)| {
                let (lo, hi) = wilson(f, c);
                PathElement::new([(x + dx, lo), (x + dx, hi)], look(i).colour.stroke_width(1))
            }))?;
            let xy: Vec<(f64, f64)> = pts.iter().map(|&(x, f, _)| (x + dx, f)).collect();
            line(&mut chart, look(i), &xy)?;
            marker(&mut chart, look(i), &xy)?;
        }
        counts(run, &bottom)?;
        root.present()?;
        Ok(())
    });
    Figure {
        stem: format!("reliability-{}", run.id),
        caption,
        // one sentence above all of them in the report says how to read them
        guide: String::new(),
        svg: text,
    }
}

/// The histogram of test rows per bin, one bar per predictive side by side within each bin.
fn counts(
    run: &RunRecord,
    area: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
) -> super::canvas::DrawResult {
    let max = run
        .predictives
        .iter()
        .flat_map(|p| p.calibration.iter().map(|b| b.count))
        .max()
        .unwrap_or(1)
        .max(1) as f64;
    let mut chart = ChartBuilder::on(area)
        .margin(14)
        .margin_top(0)
        .x_label_area_size(50)
        .y_label_area_size(70)
        .build_cartesian_2d(0f64..1f64, 0f64..max * 1.1)?;
    chart
        .configure_mesh()
        .x_desc("mean predicted probability")
        .y_desc("test rows")
        .y_labels(4)
        .label_style((FONT, TEXT))
        .axis_desc_style((FONT, TEXT))
        .light_line_style(WHITE)
        .draw()?;
    let k = run.predictives.len().max(1) as f64;
    for (i, p) in run.predictives.iter().enumerate() {
        let c = look(i).colour;
        chart.draw_series(p.calibration.iter().filter(|b| b.count > 0).map(|b| {
            let w = (b.upper - b.lower) / k;
            let x0 = b.lower + i as f64 * w;
            Rectangle::new([(x0, 0.0), (x0 + w, b.count as f64)], c.mix(0.55).filled())
        }))?;
    }
    Ok(())
}
