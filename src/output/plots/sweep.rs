//! A sweep's figure: one metric against the swept value.

use plotters::prelude::*;

use super::canvas::{draw_lines, svg, Figure, FONT};

/// A metric against a swept value, one line per run and predictive; a log x axis when the
/// values are positive and span two decades or more.
pub fn against(key: &str, metric: &str, series: &[(String, Vec<(f64, f64)>)]) -> Figure {
    let caption = format!("{metric} against {key}");
    let all = series.iter().flat_map(|(_, p)| p.iter());
    let (x0, x1) = all
        .clone()
        .map(|p| p.0)
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
            (a.min(v), b.max(v))
        });
    let (y0, y1) = all
        .map(|p| p.1)
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
            (a.min(v), b.max(v))
        });
    let ypad = ((y1 - y0) * 0.08).max(1e-6);
    let log_x = x0 > 0.0 && x1 / x0 >= 100.0;
    let text = svg((560, 360), |root| {
        root.fill(&WHITE)?;
        let mut builder = ChartBuilder::on(&root);
        builder
            .caption(&caption, (FONT, 16))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(56);
        let y = (y0 - ypad)..(y1 + ypad);
        if log_x {
            let mut chart = builder.build_cartesian_2d((x0 / 1.5..x1 * 1.5).log_scale(), y)?;
            chart
                .configure_mesh()
                .x_desc(key)
                .y_desc(metric)
                .x_label_formatter(&|v| format!("{v:e}"))
                .draw()?;
            draw_lines(&mut chart, series)?;
        } else {
            let xpad = ((x1 - x0) * 0.05).max(1e-6);
            let mut chart = builder.build_cartesian_2d((x0 - xpad)..(x1 + xpad), y)?;
            chart.configure_mesh().x_desc(key).y_desc(metric).draw()?;
            draw_lines(&mut chart, series)?;
        }
        root.present()?;
        Ok(())
    });
    let slug: String = metric
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    Figure {
        stem: format!("sweep-{slug}"),
        caption,
        svg: text,
    }
}
