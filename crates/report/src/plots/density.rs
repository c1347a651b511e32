//! The approximation lab's figure: exact and approximate posterior densities overlaid.

use plotters::prelude::*;

use super::canvas::{draw_lines, svg, Figure, FONT, TEXT, TITLE, WIDTH};
use super::legend::{self, line_keys};

/// The exact posterior density and each approximation's, overlaid on the parameter's scale.
pub fn density(p: &bayeslab_core::record::PosteriorResult) -> Figure {
    use crate::lab_markdown::{density_caption, density_stem};
    let caption = density_caption(p);
    let c = &p.curves;
    let mut series: Vec<(String, Vec<(f64, f64)>)> = vec![(
        "exact".into(),
        c.x.iter().copied().zip(c.exact.iter().copied()).collect(),
    )];
    for (name, ys) in &c.approximations {
        series.push((
            name.name().to_string(),
            c.x.iter().copied().zip(ys.iter().copied()).collect(),
        ));
    }
    let finite = |v: &f64| v.is_finite();
    let (x0, x1) =
        c.x.iter()
            .filter(|v| finite(v))
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
                (a.min(*v), b.max(*v))
            });
    let y1 = series
        .iter()
        .flat_map(|(_, p)| p.iter().map(|q| q.1))
        .filter(finite)
        .fold(0.0, f64::max);
    // the truth last, on top, in its own style: thick black, no marker
    let exact = series.remove(0);
    let mut keys = line_keys(&series);
    keys.push(super::legend::Key {
        label: "exact (the truth)".into(),
        swatch: super::legend::Swatch::Truth,
    });
    let text = svg((WIDTH, 520), |root| {
        root.fill(&WHITE)?;
        let drawable = x0 < x1 && y1 > 0.0;
        if !drawable {
            return Ok(());
        }
        let area = legend::split(&root, &keys)?;
        let mut chart = ChartBuilder::on(&area)
            .caption(&caption, (FONT, TITLE))
            .margin(12)
            .x_label_area_size(50)
            .y_label_area_size(90)
            .build_cartesian_2d(x0..x1, 0.0..y1 * 1.08)?;
        chart
            .configure_mesh()
            .label_style((FONT, TEXT))
            .axis_desc_style((FONT, TEXT))
            .x_desc(p.parameter.as_str())
            .y_desc("density")
            .draw()?;
        draw_lines(&mut chart, &series)?;
        chart.draw_series(LineSeries::new(exact.1.clone(), BLACK.stroke_width(3)))?;
        root.present()?;
        Ok(())
    });
    Figure {
        stem: density_stem(p),
        caption,
        guide:
            "The exact posterior density and each approximation's, on the parameter's own scale."
                .into(),
        svg: text,
    }
}
