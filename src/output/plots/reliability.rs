//! The reliability diagram of one run's predictive.

use plotters::prelude::*;

use super::canvas::{colour, svg, Figure, FONT};
use super::legend::{self, Key, Swatch};
use crate::record::{PredictiveRecord, RunRecord};

/// Observed frequency against mean prediction per bin, the diagonal, and the bin counts as
/// bars along the bottom (scaled so the fullest bin reaches 0.25) labelled with the count.
pub fn reliability(run: &RunRecord, p: &PredictiveRecord) -> Figure {
    let caption = format!("Reliability: {} / {}", run.id, p.name);
    let bins = &p.calibration;
    let max_count = bins.iter().map(|b| b.count).max().unwrap_or(1).max(1) as f64;
    let keys = [
        Key {
            label: "perfect calibration".into(),
            colour: BLACK,
            swatch: Swatch::Guide,
        },
        Key {
            label: format!("{} (ECE {:.3})", p.name, p.metrics.ece),
            colour: colour(3),
            swatch: Swatch::Line,
        },
    ];
    let text = svg((420, 420), |root| {
        root.fill(&WHITE)?;
        let area = legend::split(&root, &keys)?;
        let mut chart = ChartBuilder::on(&area)
            .caption(&caption, (FONT, 16))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(44)
            .build_cartesian_2d(0f64..1f64, 0f64..1f64)?;
        chart
            .configure_mesh()
            .x_desc("mean predicted probability")
            .y_desc("observed frequency")
            .light_line_style(WHITE)
            .draw()?;
        chart.draw_series(bins.iter().map(|b| {
            let h = 0.25 * b.count as f64 / max_count;
            Rectangle::new([(b.lower, 0.0), (b.upper, h)], colour(0).mix(0.18).filled())
        }))?;
        chart.draw_series(bins.iter().filter(|b| b.count > 0).map(|b| {
            let h = 0.25 * b.count as f64 / max_count;
            Text::new(
                b.count.to_string(),
                ((b.lower + b.upper) / 2.0 - 0.015, h + 0.035),
                (FONT, 10),
            )
        }))?;
        chart.draw_series(LineSeries::new([(0.0, 0.0), (1.0, 1.0)], BLACK.mix(0.5)))?;
        let pts: Vec<(f64, f64)> = bins
            .iter()
            .filter_map(|b| Some((b.mean_predicted?, b.observed_frequency?)))
            .collect();
        chart.draw_series(LineSeries::new(pts.clone(), colour(3).stroke_width(2)))?;
        chart.draw_series(pts.iter().map(|&xy| Circle::new(xy, 3, colour(3).filled())))?;
        root.present()?;
        Ok(())
    });
    Figure {
        stem: format!("reliability-{}-{}", run.id, p.name),
        caption,
        // one sentence above all of them in the report says how to read them
        guide: String::new(),
        svg: text,
    }
}
