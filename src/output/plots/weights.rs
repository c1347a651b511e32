//! The fitted weights per design column, runs side by side.

use plotters::prelude::*;

use super::canvas::{colour, legend, svg, Figure, FONT};
use crate::record::{ExperimentRecord, RunRecord};

/// Weights per design column: posterior mean ± 2 sd where a posterior exists, else the
/// point estimate; runs side by side within each column.
pub fn weights(r: &ExperimentRecord) -> Figure {
    let caption = "Weights (posterior mean ± 2 sd; points: point estimates)".to_string();
    let cols = &r.dataset.columns;
    let runs: Vec<&RunRecord> = r
        .runs
        .iter()
        .filter(|run| run.weights.len() == cols.len())
        .collect();
    let bars: Vec<Vec<(f64, f64, f64)>> = runs
        .iter()
        .map(|run| match &run.posterior {
            Some(p) => p
                .mean
                .iter()
                .zip(&p.cov_diag)
                .map(|(m, v)| (m - 2.0 * v.sqrt(), *m, m + 2.0 * v.sqrt()))
                .collect(),
            None => run.weights.iter().map(|&w| (w, w, w)).collect(),
        })
        .collect();
    let (lo, hi) = bars
        .iter()
        .flatten()
        .fold((0.0f64, 0.0f64), |(a, b), &(l, _, h)| (a.min(l), b.max(h)));
    let pad = ((hi - lo) * 0.05).max(1e-6);
    let width = (cols.len() as u32 * 22).clamp(480, 1400);
    let text = svg((width, 400), |root| {
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(&caption, (FONT, 16))
            .margin(12)
            .x_label_area_size(84)
            .y_label_area_size(56)
            .build_cartesian_2d(-0.5f64..(cols.len() as f64 - 0.5), (lo - pad)..(hi + pad))?;
        chart
            .configure_mesh()
            .x_labels(cols.len().min(70))
            .x_label_formatter(&|v| {
                let i = v.round();
                if (v - i).abs() < 1e-6 && i >= 0.0 {
                    cols.get(i as usize).cloned().unwrap_or_default()
                } else {
                    String::new()
                }
            })
            .x_label_style((FONT, 10).into_font().transform(FontTransform::Rotate90))
            .y_desc("weight")
            .draw()?;
        chart.draw_series(LineSeries::new(
            [(-0.5, 0.0), (cols.len() as f64 - 0.5, 0.0)],
            BLACK.mix(0.3),
        ))?;
        let n = runs.len().max(1) as f64;
        for (k, (run, b)) in runs.iter().zip(&bars).enumerate() {
            let c = colour(k);
            let offset = (k as f64 - (n - 1.0) / 2.0) * 0.6 / n;
            chart
                .draw_series(b.iter().enumerate().map(|(j, &(l, m, h))| {
                    ErrorBar::new_vertical(j as f64 + offset, l, m, h, c.filled(), 4)
                }))?
                .label(run.id.clone())
                .legend(move |(x, y)| Circle::new((x + 8, y), 3, c.filled()));
        }
        legend(&mut chart, SeriesLabelPosition::UpperRight)?;
        root.present()?;
        Ok(())
    });
    Figure {
        stem: "weights".into(),
        caption,
        svg: text,
    }
}
