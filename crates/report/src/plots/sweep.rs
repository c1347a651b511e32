//! A sweep's figure: one metric against the swept value.

use plotters::prelude::*;

use super::axis::nice_ticks;
use super::canvas::{draw_lines, svg, Figure, FONT, TEXT, TITLE, WIDTH};
use super::legend::{self, line_keys};

/// The most decades a log x axis spans; wider sweeps are drawn against log10 of the value.
const MAX_LOG_DECADES: f64 = 30.0;

/// Whether two series have the same points, to the pixel (a relative 1e-9).
pub fn coincide(a: &[(f64, f64)], b: &[(f64, f64)]) -> bool {
    let close = |x: f64, y: f64| (x - y).abs() <= 1e-9 * x.abs().max(y.abs()).max(1e-12);
    !a.is_empty()
        && a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(p, q)| close(p.0, q.0) && close(p.1, q.1))
}

/// A metric against a swept value, one line per run and predictive; a log x axis when the
/// values are positive and span two decades or more.
pub fn against(key: &str, metric: &str, series: &[(String, Vec<(f64, f64)>)]) -> Figure {
    let positive = series.iter().flat_map(|(_, p)| p.iter()).all(|p| p.0 > 0.0);
    let (lo, hi) = series
        .iter()
        .flat_map(|(_, p)| p.iter())
        .fold((f64::INFINITY, 0.0f64), |(a, b), p| {
            (a.min(p.0), b.max(p.0))
        });
    if positive && (hi.log10() - lo.log10()) > MAX_LOG_DECADES {
        // A log axis over hundreds of decades (1e-300 to 1e300) takes plotters minutes to lay
        // out: plot log10 of the value on a linear axis instead, and say so in its name.
        let logged: Vec<(String, Vec<(f64, f64)>)> = series
            .iter()
            .map(|(n, p)| (n.clone(), p.iter().map(|&(x, y)| (x.log10(), y)).collect()))
            .collect();
        return against(&format!("log10 {key}"), metric, &logged);
    }
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
    let mut keys = line_keys(series);
    // a series drawn under an identical one would be invisible: its key says where it is
    for (i, key) in keys.iter_mut().enumerate() {
        if let Some(j) = (0..i).find(|&j| coincide(&series[i].1, &series[j].1)) {
            key.label = format!("{} (= {}, under it)", key.label, series[j].0);
        }
    }
    // a sweep over counts (samples, draws) gets whole ticks
    let whole = series
        .iter()
        .flat_map(|(_, p)| p.iter())
        .all(|p| p.0 == p.0.round());
    let text = svg((WIDTH, 520), |root| {
        root.fill(&WHITE)?;
        let area = legend::split(&root, &keys)?;
        let mut builder = ChartBuilder::on(&area);
        builder
            .caption(&caption, (FONT, TITLE))
            .margin(12)
            .x_label_area_size(50)
            .y_label_area_size(90);
        let y = (y0 - ypad)..(y1 + ypad);
        if log_x {
            let mut chart = builder.build_cartesian_2d((x0 / 1.5..x1 * 1.5).log_scale(), y)?;
            chart
                .configure_mesh()
                .label_style((FONT, TEXT))
                .axis_desc_style((FONT, TEXT))
                .x_desc(key)
                .y_desc(metric)
                .x_label_formatter(&|v| format!("{v:e}"))
                .draw()?;
            draw_lines(&mut chart, series)?;
        } else {
            let xpad = ((x1 - x0) * 0.05).max(1e-6);
            let x = (x0 - xpad)..(x1 + xpad);
            let mut chart = builder.build_cartesian_2d(x.clone(), y)?;
            let mut mesh = chart.configure_mesh();
            mesh.x_desc(key)
                .y_desc(metric)
                .label_style((FONT, TEXT))
                .axis_desc_style((FONT, TEXT));
            if whole {
                mesh.x_labels(nice_ticks(x.start, x.end, 11, true).len())
                    .x_label_formatter(&super::axis::whole);
            }
            mesh.draw()?;
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
        guide: "One line per run and predictive, one point per swept value.".into(),
        svg: text,
    }
}
