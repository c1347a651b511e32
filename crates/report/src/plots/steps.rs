//! The step-by-step strip (docs/maths.md §18): one small panel per recorded step of a run.
//! Newton's and ADF's panels are in weight space, on axes shared by the whole strip so that the
//! Gaussian is seen moving and contracting: the step's 50 % and 90 % ellipses, its mean, the
//! exact posterior's contours in black behind it (a quadrature run of the same likelihood), the
//! path of Newton's iterates so far, ADF's new example as the line y_i phi_i^T w = 0. EP's
//! panels are in the updated site's direction t = y_i phi_i^T w: the approximation before the
//! update, the cavity, the tilted distribution (black, on top) and the new approximation.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::canvas::{line, look, marker, svg, DrawResult, Figure, FONT, TEXT, TITLE, WIDTH};
use super::legend::{self, Key, Swatch};
use crate::steps::{self as geometry, Polyline};
use bayeslab_core::record::{ExperimentRecord, FitStep, RunRecord, StepKind};

/// Panels per row of the strip.
pub const COLUMNS: usize = 4;
const PANEL_HEIGHT: u32 = 250;

/// How to read each kind of strip.
pub fn guide(kind: StepKind) -> &'static str {
    match kind {
        StepKind::Newton => "Each panel is one Newton iterate w_k (dot; the grey path joins the iterates so far) with the Gaussian N(w_k, H(w_k)^-1) that the curvature there defines (50 % and 90 % ellipses): the Laplace approximation the fit would give if it stopped at that step. The exact posterior's 50 / 90 / 99 % contours are black. The last panel is the mode and the Laplace approximation itself; every panel shares the axes.",
        StepKind::EpSite => "Each panel is one EP site update, in the direction t = y_i phi_i^T w of the updated row: the approximation's density of t before the update (grey, dashed), the cavity (the approximation without this row's site, blue), the tilted distribution (cavity times the row's likelihood, normalised; black) and the new approximation (orange), which matches the tilted distribution's mean and variance. Axes differ from panel to panel.",
        StepKind::AdfExample => "Each panel is the ADF posterior after n examples (50 % and 90 % ellipses, its mean a dot), the newest example's line y_i phi_i^T w = 0 in grey (weights on the far side misclassify it), and the exact posterior of all training rows in black: the ellipse contracts towards it as examples arrive, in a seeded order. Every panel shares the axes.",
    }
}

/// The strip's file stem for `run`.
pub fn stem(run: &RunRecord) -> String {
    format!("steps-{}", run.id)
}

/// One strip per run that recorded steps.
pub fn strips(r: &ExperimentRecord) -> Vec<Figure> {
    geometry::stepped_runs(r)
        .into_iter()
        .filter_map(|run| strip(r, run))
        .collect()
}

fn strip(r: &ExperimentRecord, run: &RunRecord) -> Option<Figure> {
    let record = run.steps.as_ref()?;
    let pair = geometry::pair(r);
    let names = &r.dataset.columns;
    let name = |k: usize| names.get(k).cloned().unwrap_or_else(|| format!("w{k}"));
    let exact = geometry::exact_for(r, run);
    let truth = geometry::exact_lines(exact, pair);
    let (x, y) = geometry::bounds(&record.steps, &truth, pair);
    let cut = match record.total > record.steps.len() {
        true => format!(", the first {} of {}", record.steps.len(), record.total),
        false => String::new(),
    };
    let flag = run.flag().map(|f| format!(" — {f}")).unwrap_or_default();
    let caption = format!("{}{flag}: {}{cut}", run.id, record.kind.title());
    let keys = keys(record.kind, exact);
    let rows = record.steps.len().div_ceil(COLUMNS) as u32;
    let height = 70 + rows * PANEL_HEIGHT + legend::height(&keys, WIDTH);
    let scale = r.dataset.weights_scale_short();
    let axes = match record.kind {
        StepKind::EpSite => "x: t = y_i phi_i^T w; y: density".to_string(),
        _ => format!("x: {}; y: {} ({scale})", name(pair[0]), name(pair[1])),
    };
    let text = svg((WIDTH, height), |root| {
        root.fill(&WHITE)?;
        let area = legend::split(&root, &keys)?;
        let title = format!("{caption} · {axes}");
        let area = area.titled(&title, (FONT, TITLE))?;
        let panels = area.split_evenly((rows as usize, COLUMNS));
        for (k, (step, panel)) in record.steps.iter().zip(&panels).enumerate() {
            let path: Polyline = record.steps[..=k]
                .iter()
                .filter_map(|s| s.marginal(pair).map(|(m, _)| (m[0], m[1])))
                .collect();
            match record.kind {
                StepKind::EpSite => site_panel(panel, step)?,
                kind => weight_panel(panel, kind, step, &path, &truth, pair, (x, y))?,
            }
        }
        root.present()?;
        Ok(())
    });
    let guide = match exact {
        Some(x) => format!("{} Exact: {} ({}).", guide(record.kind), x.id, x.kind),
        None if record.kind == StepKind::EpSite => guide(record.kind).to_string(),
        None => format!(
            "{} No exact posterior is drawn: the experiment has no quadrature run of this likelihood.",
            guide(record.kind)
        ),
    };
    Some(Figure {
        stem: stem(run),
        caption,
        guide,
        svg: text,
    })
}

fn keys(kind: StepKind, exact: Option<&RunRecord>) -> Vec<Key> {
    let key = |label: &str, swatch| Key {
        label: label.to_string(),
        swatch,
    };
    match kind {
        StepKind::EpSite => vec![
            key("before the update", Swatch::Series(grey())),
            key("cavity", Swatch::Series(look(0))),
            key("new approximation", Swatch::Series(look(1))),
            key("tilted: cavity x likelihood", Swatch::Truth),
        ],
        _ => {
            let mut keys = vec![key(
                "the step's Gaussian: 50 / 90 % ellipses",
                Swatch::Series(look(0)),
            )];
            if kind == StepKind::AdfExample {
                keys.push(key(
                    "the new example's line y_i phi_i^T w = 0",
                    Swatch::Guide,
                ));
            }
            if exact.is_some() {
                keys.push(key("exact posterior: 50 / 90 / 99 %", Swatch::Truth));
            }
            keys
        }
    }
}

fn grey() -> super::canvas::Look {
    super::canvas::Look {
        colour: RGBColor(120, 120, 120),
        marker: super::canvas::Marker::Circle,
        dashed: true,
    }
}

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;

fn weight_panel(
    panel: &Area<'_>,
    kind: StepKind,
    step: &FitStep,
    path: &[(f64, f64)],
    truth: &[Polyline],
    pair: [usize; 2],
    (x, y): ([f64; 2], [f64; 2]),
) -> DrawResult {
    let mut chart = small_chart(panel, geometry::panel_title(kind, step), x, y)?;
    if let Some(l) = step
        .site
        .as_ref()
        .and_then(|s| geometry::example_line(s, x, y))
    {
        chart.draw_series(DashedLineSeries::new(
            l,
            6,
            4,
            RGBColor(150, 150, 150).stroke_width(2),
        ))?;
    }
    for l in truth {
        chart.draw_series(LineSeries::new(l.clone(), BLACK.stroke_width(2)))?;
    }
    if kind == StepKind::Newton && path.len() > 1 {
        chart.draw_series(LineSeries::new(
            path.to_vec(),
            RGBColor(150, 150, 150).stroke_width(1),
        ))?;
    }
    for ring in geometry::ellipses(step, pair, 120) {
        line(&mut chart, look(0), &ring)?;
    }
    if let Some(&at) = path.last() {
        marker(&mut chart, look(0), &[at])?;
    }
    Ok(())
}

/// A panel of the strip: its title, x over `x` and y over `y`, three labels on each axis.
fn small_chart<'a, 'b>(
    panel: &'a Area<'b>,
    title: String,
    x: [f64; 2],
    y: [f64; 2],
) -> Result<Chart<'a, 'b>, DrawingAreaErrorKind<std::io::Error>> {
    let mut chart = ChartBuilder::on(panel)
        .caption(title, (FONT, TEXT))
        .margin(6)
        .x_label_area_size(28)
        .y_label_area_size(44)
        .build_cartesian_2d(x[0]..x[1], y[0]..y[1])?;
    chart
        .configure_mesh()
        .x_labels(3)
        .y_labels(3)
        .label_style((FONT, TEXT))
        .light_line_style(WHITE)
        .draw()?;
    Ok(chart)
}

type Chart<'a, 'b> = ChartContext<
    'a,
    SVGBackend<'b>,
    Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
>;

fn site_panel(panel: &Area<'_>, step: &FitStep) -> DrawResult {
    let Some(c) = geometry::site_curves(step, 200) else {
        return Ok(());
    };
    let top = [&c.old, &c.cavity, &c.tilted, &c.new]
        .iter()
        .flat_map(|l| l.iter().map(|p| p.1))
        .fold(0.0, f64::max);
    let (lo, hi) = (c.cavity[0].0, c.cavity[c.cavity.len() - 1].0);
    let title = geometry::panel_title(StepKind::EpSite, step);
    let mut chart = small_chart(panel, title, [lo, hi], [0.0, top * 1.05])?;
    line(&mut chart, grey(), &c.old)?;
    line(&mut chart, look(0), &c.cavity)?;
    // the tilted distribution thick, the Gaussian matched to it over it, so that both show
    chart.draw_series(LineSeries::new(c.tilted.clone(), BLACK.stroke_width(3)))?;
    line(&mut chart, look(1), &c.new)?;
    Ok(())
}
