//! The predictive formulas as report figures (docs/maths.md §16): the logistic sigmoid against
//! the probit curve Phi(sqrt(pi/8) a) that approximates it, and the moderated predictive
//! E[sigma(a)], a ~ N(mu_a, s^2), against the activation variance s^2 at a fixed mu_a, each
//! approximation (probit, MacKay, Monte Carlo) beside the exact integral. The curves are
//! `output::formulas`' (the workbench's `f` panel draws the same ones); this file only draws
//! them.

use plotters::prelude::*;

use super::canvas::{draw_lines, look, marker, svg, Figure, FONT, TEXT, TITLE, WIDTH};
use super::legend::{self, line_keys, Key, Swatch};
use crate::formulas::{self as curves, Curve, Series, LINK_RANGE, MAX_VAR, MC_DRAWS, MU_A};

/// Both figures.
pub fn formulas(seed: u64) -> Vec<Figure> {
    vec![link(), moderated(seed)]
}

/// The series as the legend and `draw_lines` take them: (label, points).
fn named<'a>(series: impl IntoIterator<Item = &'a Series>) -> Vec<(String, Vec<(f64, f64)>)> {
    series
        .into_iter()
        .map(|s| (s.curve.label(), s.points.clone()))
        .collect()
}

fn link() -> Figure {
    let curves = curves::link();
    let series = named([&curves.sigmoid, &curves.probit]);
    let caption = "σ(a) against Φ(√(π/8)·a)".to_string();
    let keys = line_keys(&series);
    let text = svg((WIDTH, 520), |root| {
        root.fill(&WHITE)?;
        let area = legend::split(&root, &keys)?;
        let mut chart = ChartBuilder::on(&area)
            .caption(&caption, (FONT, TITLE))
            .margin(14)
            .x_label_area_size(55)
            .y_label_area_size(80)
            .build_cartesian_2d(-LINK_RANGE..LINK_RANGE, 0.0..1.0)?;
        chart
            .configure_mesh()
            .label_style((FONT, TEXT))
            .axis_desc_style((FONT, TEXT))
            .x_desc("activation a = xᵀw")
            .y_desc("p(y = 1)")
            .draw()?;
        draw_lines(&mut chart, &series)?;
        root.present()?;
        Ok(())
    });
    Figure {
        stem: "predictive-formulas-link".into(),
        caption,
        guide: format!(
            "The two curves never differ by more than {:.3}: the probit curve with slope √(π/8) \
             at 0 stands in for the sigmoid, and it can be integrated against a Gaussian in \
             closed form, which is where the probit and MacKay predictives come from.",
            curves.gap
        ),
        svg: text,
    }
}

fn moderated(seed: u64) -> Figure {
    let curves = curves::moderated(seed);
    let series = named(&curves.approximations);
    let exact = curves.exact.points.clone();
    let mc = &curves.mc;
    let mut keys = line_keys(&series);
    keys.push(Key {
        label: Curve::MonteCarlo.label(),
        swatch: Swatch::Series(look(2)),
    });
    keys.push(Key {
        label: Curve::PlugIn.label(),
        swatch: Swatch::Guide,
    });
    keys.push(Key {
        label: Curve::Exact.label(),
        swatch: Swatch::Truth,
    });
    let caption =
        format!("The moderated predictive at μ_a = {MU_A} against the activation variance s²");
    let text = svg((WIDTH, 560), |root| {
        root.fill(&WHITE)?;
        let area = legend::split(&root, &keys)?;
        let mut chart = ChartBuilder::on(&area)
            .caption(&caption, (FONT, TITLE))
            .margin(14)
            .x_label_area_size(55)
            .y_label_area_size(80)
            .build_cartesian_2d(0.0..MAX_VAR, 0.5..0.9)?;
        chart
            .configure_mesh()
            .label_style((FONT, TEXT))
            .axis_desc_style((FONT, TEXT))
            .x_desc("variance s² of the activation a ~ N(μ_a, s²)")
            .y_desc("p(y = 1)")
            .draw()?;
        chart.draw_series(DashedLineSeries::new(
            [(0.0, curves.plug_in), (MAX_VAR, curves.plug_in)],
            6,
            4,
            BLACK.mix(0.6).stroke_width(1),
        ))?;
        draw_lines(&mut chart, &series)?;
        let c = look(2).colour;
        chart.draw_series(mc.iter().map(|p| {
            let bar = [(p.var, p.mean - 2.0 * p.se), (p.var, p.mean + 2.0 * p.se)];
            PathElement::new(bar, c.stroke_width(2))
        }))?;
        marker(
            &mut chart,
            look(2),
            &mc.iter().map(|p| (p.var, p.mean)).collect::<Vec<_>>(),
        )?;
        chart.draw_series(LineSeries::new(exact.clone(), BLACK.stroke_width(3)))?;
        root.present()?;
        Ok(())
    });
    Figure {
        stem: "predictive-formulas-moderated".into(),
        caption,
        guide: format!(
            "With no uncertainty in the activation (s² = 0) every predictive is the plug-in σ(μ_a); \
             as s² grows the exact predictive is pulled towards 1/2, and a point far from the data \
             (large s²) gets a moderated prediction. Probit and MacKay follow the exact curve within \
             0.02 (probit is furthest at small s², where σ and Φ(√(π/8)·a) differ most); Monte Carlo scatters around it by its standard error ({MC_DRAWS} draws, \
             the bars ± 2 MCSE, seeded from the experiment's seed)."
        ),
        svg: text,
    }
}
