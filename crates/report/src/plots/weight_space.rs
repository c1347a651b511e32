//! The weight-space picture (docs/maths.md §15): for one pair of weights, each Gaussian
//! approximation's ellipses holding 50 %, 90 % and 99 % of its mass, every method overlaid in
//! its own look, and the exact posterior's contours at the same masses on top, in black, with
//! its mode marked: mean field's too-small ellipse beside the full-rank one, Laplace's ellipse
//! centred on the mode of a skewed posterior.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::canvas::{line, look, marker, svg, Figure, FONT, TEXT, TITLE, WIDTH};
use super::legend::{self, Key, Swatch};
use crate::contour::{self, LEVELS};
use bayeslab_core::record::{ExactSource, ExperimentRecord, PairDensity};

/// How to read the figure.
pub const GUIDE: &str = "Each Gaussian approximation's regions holding 50 %, 90 % and 99 % of its probability (nested ellipses in the method's colour and dash, its mean marked), and the exact posterior's regions of the same mass as thick black contours drawn on top, with × at its mode. Where a coloured ellipse is smaller than the black contour the approximation is over-confident; where it is centred away from the black mass it misplaces the posterior.";

/// The stem of the picture of `pair`.
pub fn stem([i, j]: [usize; 2]) -> String {
    format!("weight-space-{i}-{j}")
}

/// The figure for `pair`, or `None` without any Gaussian run or exact density to draw.
pub fn weight_space(r: &ExperimentRecord, pair: [usize; 2]) -> Option<Figure> {
    let gaussians = contour::gaussian_runs(r);
    let source = contour::exact(r);
    let exact = source.as_ref().and_then(|e| e.of(pair).map(|p| (e, p)));
    if gaussians.is_empty() && exact.is_none() {
        return None;
    }
    let names = &r.dataset.columns;
    let name = |k: usize| names.get(k).cloned().unwrap_or_else(|| format!("w{k}"));
    let ellipses: Vec<Vec<Vec<(f64, f64)>>> = gaussians
        .iter()
        .map(|run| match contour::marginal(run, pair) {
            Some((mu, s)) => LEVELS
                .iter()
                .map(|m| contour::ellipse(mu, s, *m, 180))
                .collect(),
            None => Vec::new(),
        })
        .collect();
    let exact_lines: Vec<Vec<Vec<(f64, f64)>>> =
        exact.map_or(Vec::new(), |(_, p)| contour::exact_lines(p));
    let (x, y) = extent(&ellipses, &exact_lines);
    let mut keys: Vec<Key> = gaussians
        .iter()
        .enumerate()
        .map(|(k, run)| Key {
            label: label(run),
            swatch: Swatch::Series(look(k)),
        })
        .collect();
    if let Some((e, _)) = exact {
        keys.push(Key {
            label: truth_label(e),
            swatch: Swatch::Truth,
        });
    }
    let slice = exact.is_some_and(|(e, _)| e.source == ExactSource::Slice);
    let caption = format!(
        "Posterior of ({}, {}): 50 / 90 / 99 % regions{}",
        name(pair[0]),
        name(pair[1]),
        if slice {
            " — black: a slice through the mode, not a marginal"
        } else {
            ""
        }
    );
    let scale = r.dataset.weights_scale_short();
    let text = svg((WIDTH, 860), |root| {
        root.fill(&WHITE)?;
        let area = legend::split(&root, &keys)?;
        let mut chart = ChartBuilder::on(&area)
            .caption(&caption, (FONT, TITLE))
            .margin(14)
            .x_label_area_size(60)
            .y_label_area_size(90)
            .build_cartesian_2d(x[0]..x[1], y[0]..y[1])?;
        chart
            .configure_mesh()
            .label_style((FONT, TEXT))
            .axis_desc_style((FONT, TEXT))
            .x_desc(format!("{} ({scale})", name(pair[0])))
            .y_desc(format!("{} ({scale})", name(pair[1])))
            .light_line_style(WHITE)
            .draw()?;
        for (k, (run, rings)) in gaussians.iter().zip(&ellipses).enumerate() {
            for ring in rings {
                line(&mut chart, look(k), ring)?;
            }
            if let Some((mu, _)) = contour::marginal(run, pair) {
                marker(&mut chart, look(k), &[(mu[0], mu[1])])?;
            }
        }
        // the truth last, on top, in its own style
        let style =
            TextStyle::from((FONT, TEXT).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
        for (m, lines) in LEVELS.iter().zip(&exact_lines) {
            for l in lines {
                chart.draw_series(LineSeries::new(l.clone(), BLACK.stroke_width(3)))?;
            }
            if let Some(right) = lines.iter().flatten().max_by(|a, b| a.0.total_cmp(&b.0)) {
                chart.draw_series([Text::new(
                    format!("{:.0} %", m * 100.0),
                    *right,
                    style.clone(),
                )])?;
            }
        }
        if let Some((_, p)) = exact {
            chart.draw_series([Cross::new(contour::mode(p), 9, BLACK.stroke_width(3))])?;
        }
        root.present()?;
        Ok(())
    });
    let guide = match (exact, &source) {
        (Some((e, p)), _) => format!("{GUIDE} {}", source_guide(e.source, p)),
        (None, Some(e)) => format!(
            "{GUIDE} No exact contours for this pair: {} keeps them for the {} pairs of \
             largest posterior correlation only.",
            e.source.label(),
            e.pairs.len()
        ),
        (None, None) => format!(
            "{GUIDE} No exact posterior is drawn: this experiment has no quadrature run (a \
             [[method]] of kind logistic-quadrature or probit-quadrature, possible with at most \
             three weights), no exact sampler run (Gibbs or HMC) whose draws give the marginal, and no \
             converged MAP (Laplace) run to slice through."
        ),
    };
    Some(Figure {
        stem: stem(pair),
        caption,
        guide,
        svg: text,
    })
}

/// The legend's label of the exact contours, by where they came from.
fn truth_label(e: &contour::Exact<'_>) -> String {
    match e.source {
        ExactSource::Quadrature => format!("exact: {} (2-D marginal; × its mode)", e.run),
        ExactSource::Draws => format!(
            "exact: 2-D marginal of {}'s draws (kernel density; × its mode)",
            e.run
        ),
        ExactSource::Slice => format!(
            "slice through the mode, not a marginal (other weights at {}'s mode; ×)",
            e.run
        ),
    }
}

/// What the guide adds about the exact contours' source.
fn source_guide(source: ExactSource, p: &PairDensity) -> String {
    match source {
        ExactSource::Quadrature => {
            "The black contours are the exact marginal, computed by quadrature.".into()
        }
        ExactSource::Draws => format!(
            "The black contours are the 2-D marginal of the gold run's {} kept draws: a \
             Gaussian kernel density estimate (Scott's bandwidth, {:.3} by {:.3}), each \
             contour at the density level whose region holds 50 %, 90 % or 99 % of the \
             draws (docs/maths.md §19); they carry Monte-Carlo error.",
            p.draws.unwrap_or(0),
            p.bandwidth.map_or(f64::NAN, |b| b[0]),
            p.bandwidth.map_or(f64::NAN, |b| b[1]),
        ),
        ExactSource::Slice => "The black contours are NOT the marginal: no quadrature or \
             sampler (Gibbs, HMC) run, so they show the posterior of this pair with every other weight \
             held at the mode (a slice through the mode, normalised over the plotted box). \
             A slice is narrower than the marginal when the pair is correlated with the \
             other weights: compare the ellipses' shape and place with it, not their size \
             (docs/maths.md §19)."
            .into(),
    }
}

/// A run's legend label: its id, kind, and flag when it did not converge.
fn label(run: &bayeslab_core::record::RunRecord) -> String {
    let mf = if run.mean_field { ", mean field" } else { "" };
    let flag = run.flag().map(|f| format!(" — {f}")).unwrap_or_default();
    format!("{} ({}{mf}){flag}", run.id, run.kind)
}

/// The axes' ranges: every ellipse and exact contour, padded by 5 %.
fn extent(a: &[Vec<Vec<(f64, f64)>>], b: &[Vec<Vec<(f64, f64)>>]) -> ([f64; 2], [f64; 2]) {
    let pts = a.iter().chain(b).flatten().flatten();
    let (mut x, mut y) = (
        [f64::INFINITY, f64::NEG_INFINITY],
        [f64::INFINITY, f64::NEG_INFINITY],
    );
    for (u, v) in pts.filter(|p| p.0.is_finite() && p.1.is_finite()) {
        x = [x[0].min(*u), x[1].max(*u)];
        y = [y[0].min(*v), y[1].max(*v)];
    }
    let pad = |r: [f64; 2]| match r[1] > r[0] {
        true => [r[0] - 0.05 * (r[1] - r[0]), r[1] + 0.05 * (r[1] - r[0])],
        false => [-1.0, 1.0],
    };
    (pad(x), pad(y))
}
