//! The input-space picture (docs/maths.md §17): the training points by class, the 0.1, 0.5 and
//! 0.9 contours of p(y = 1) under the plug-in and each Bayesian predictive of the main Gaussian
//! run (and the exact run's exact predictive in black, on top), and decision boundaries drawn
//! from the posterior as thin grey lines: the Bayesian contours widen away from the data where
//! the boundaries fan out, the plug-in's do not. The view only draws: every number is the
//! engine's (run/input_space.rs).

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::canvas::{line, look, svg, Figure, FONT, TEXT, TITLE, WIDTH};
use super::legend::{self, Key, Swatch};
use crate::contour;
use bayeslab_core::record::{ExactSource, ExperimentRecord, InputSpace, PairDensity};

/// The probability levels of the contours.
pub const LEVELS: [f64; 3] = [0.1, 0.5, 0.9];
pub const STEM: &str = "input-space";

/// Each surface's contour lines at [`LEVELS`] of p(y = 1), as the report and the workbench draw
/// them.
pub fn surface_lines(s: &InputSpace) -> Vec<Vec<Vec<(f64, f64)>>> {
    s.surfaces
        .iter()
        .map(|sf| {
            // a probability surface, not a density: only its contour lines are used
            let grid = PairDensity::new(
                [0, 1],
                (s.x, s.y),
                s.points,
                sf.p.clone(),
                ExactSource::Quadrature,
            );
            LEVELS
                .iter()
                .flat_map(|l| contour::contours(&grid, *l))
                .collect()
        })
        .collect()
}

/// The figure, or `None` without an input-space record to draw.
pub fn input_space(r: &ExperimentRecord) -> Option<Figure> {
    let s = r.input_space.as_ref()?;
    if s.unavailable.is_some() || s.surfaces.is_empty() {
        return None;
    }
    let truth = |k: usize| {
        s.surfaces[k].predictive == bayeslab_core::catalog::PredictiveKind::Exact
            && s.surfaces[k].run != s.boundary_run
    };
    let lines = surface_lines(s);
    let classes = &r.dataset.classes;
    let mut keys = vec![Key {
        label: format!(
            "{} boundaries drawn from {}'s posterior",
            s.boundaries.len(),
            s.boundary_run
        ),
        swatch: Swatch::Guide,
    }];
    let mut k = 0;
    let mut series_look = Vec::new();
    for (i, sf) in s.surfaces.iter().enumerate() {
        if truth(i) {
            series_look.push(None);
            continue;
        }
        keys.push(Key {
            label: format!("{}/{}", sf.run, sf.predictive),
            swatch: Swatch::Series(look(k)),
        });
        series_look.push(Some(look(k)));
        k += 1;
    }
    for (_, sf) in s.surfaces.iter().enumerate().filter(|(i, _)| truth(*i)) {
        keys.push(Key {
            label: format!("{}/exact (the exact predictive)", sf.run),
            swatch: Swatch::Truth,
        });
    }
    let caption = format!(
        "p(y = {}) over {} and {}: contours 0.1 / 0.5 / 0.9",
        classes.get(1).cloned().unwrap_or_else(|| "1".into()),
        s.features[0],
        s.features[1]
    );
    let text = svg((WIDTH, 860), |root| {
        root.fill(&WHITE)?;
        let area = legend::split(&root, &keys)?;
        let mut chart = ChartBuilder::on(&area)
            .caption(&caption, (FONT, TITLE))
            .margin(14)
            .x_label_area_size(60)
            .y_label_area_size(90)
            .build_cartesian_2d(s.x[0]..s.x[1], s.y[0]..s.y[1])?;
        chart
            .configure_mesh()
            .label_style((FONT, TEXT))
            .axis_desc_style((FONT, TEXT))
            .x_desc(format!("{} (original units)", s.features[0]))
            .y_desc(format!("{} (original units)", s.features[1]))
            .light_line_style(WHITE)
            .draw()?;
        let grey = BLACK.mix(0.25).stroke_width(1);
        for c in &s.boundaries {
            if let Some(seg) = clip(*c, s.x, s.y) {
                chart.draw_series(LineSeries::new(seg.to_vec(), grey))?;
            }
        }
        points(&mut chart, s)?;
        for (ls, lk) in lines.iter().zip(&series_look) {
            if let Some(lk) = lk {
                for l in ls {
                    line(&mut chart, *lk, l)?;
                }
            }
        }
        for (ls, lk) in lines.iter().zip(&series_look) {
            if lk.is_none() {
                for l in ls {
                    chart.draw_series(LineSeries::new(l.clone(), BLACK.stroke_width(3)))?;
                }
            }
        }
        let style = TextStyle::from((FONT, TEXT).into_font()).pos(Pos::new(HPos::Left, VPos::Top));
        let mut notes: Vec<String> = s.chosen.iter().map(|c| c.describe()).collect();
        if !s.others_at_mean.is_empty() {
            notes.push(format!(
                "other features at their training means: {}",
                others(&s.others_at_mean)
            ));
        }
        // on a translucent white band, so that the lines and points under a note do not cross
        // its text (about 8 px a character at the figures' text size)
        for (k, note) in notes.into_iter().enumerate() {
            let (x, y) = (110, 40 + 24 * k as i32);
            let width = 8 * note.chars().count() as i32 + 8;
            area.draw(&Rectangle::new(
                [(x - 4, y - 2), (x + width, y + 21)],
                WHITE.mix(0.85).filled(),
            ))?;
            area.draw(&Text::new(note, (x, y), style.clone()))?;
        }
        root.present()?;
        Ok(())
    });
    Some(Figure {
        stem: STEM.into(),
        caption,
        guide: guide(s, classes),
        svg: text,
    })
}

/// The other features' names, the first three and how many more (the figure's and the
/// workbench's note).
pub fn others(names: &[String]) -> String {
    match names.len() {
        0..=3 => names.join(", "),
        n => format!("{} and {} more", names[..3].join(", "), n - 3),
    }
}

fn guide(s: &InputSpace, classes: &[String]) -> String {
    let c = |k: usize| classes.get(k).cloned().unwrap_or_else(|| k.to_string());
    let rows = match s.rows.len() < s.rows_total {
        true => format!(
            "{} of the {} training rows (evenly spaced)",
            s.rows.len(),
            s.rows_total
        ),
        false => format!("the {} training rows", s.rows_total),
    };
    let held = match s.others_at_mean.is_empty() {
        true => String::new(),
        false => format!(
            " The other features are held at their training means ({}).",
            others(&s.others_at_mean)
        ),
    };
    let held = match &s.chosen {
        Some(c) => format!(
            " The pair drawn is {}{}.{held}",
            c.describe().trim_start_matches("pair: "),
            c.left_out()
                .map(|l| format!("; {l} (one value in at least 90 % of the training rows)"))
                .unwrap_or_default()
        ),
        None => held,
    };
    let (lo, hi) = s
        .surfaces
        .iter()
        .flat_map(|sf| sf.p.iter())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| {
            (a.min(*p), b.max(*p))
        });
    let missing: Vec<String> = LEVELS
        .iter()
        .filter(|l| **l < lo || **l > hi)
        .map(|l| format!("{l}"))
        .collect();
    let range =
        match missing.is_empty() {
            true => String::new(),
            false => format!(
            " On this grid p(y = {}) stays between {lo:.2} and {hi:.2}, so the {} {} not drawn.",
            c(1),
            missing.join(" and "),
            if missing.len() == 1 { "contour is" } else { "contours are" }
        ),
        };
    format!(
        "Points: {rows}, ○ {} and × {}.{held}{range} Each predictive's contours of p(y = {}) at 0.1, 0.5 and 0.9, \
         computed on a {}×{} grid by the run's own predictor; the thin grey lines are decision \
         boundaries (p = 1/2 under the plug-in) of weights drawn from {}'s Gaussian posterior. \
         Where the boundaries fan out, away from the data, a Bayesian predictive's 0.1 and 0.9 \
         contours move apart (it is less sure), while the plug-in's stay parallel at a fixed \
         distance: it is as confident far from the data as near it.",
        c(0),
        c(1),
        c(1),
        s.points,
        s.points,
        s.boundary_run
    )
}

/// The training points: class 0 as hollow circles, class 1 as crosses.
fn points<DB: DrawingBackend>(
    chart: &mut ChartContext<
        '_,
        DB,
        Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
    >,
    s: &InputSpace,
) -> super::canvas::DrawResult
where
    DB::ErrorType: 'static,
{
    let ink = RGBColor(60, 60, 60);
    chart.draw_series(
        s.rows
            .iter()
            .filter(|r| r[2] < 0.5)
            .map(|r| Circle::new((r[0], r[1]), 4, ink.stroke_width(1))),
    )?;
    chart.draw_series(
        s.rows
            .iter()
            .filter(|r| r[2] >= 0.5)
            .map(|r| Cross::new((r[0], r[1]), 4, ink.stroke_width(1))),
    )?;
    Ok(())
}

/// The part of the line c0 + cx x + cy y = 0 inside the box, if any.
pub fn clip(c: [f64; 3], x: [f64; 2], y: [f64; 2]) -> Option<[(f64, f64); 2]> {
    let mut pts: Vec<(f64, f64)> = Vec::new();
    let inside = |v: f64, r: [f64; 2]| v >= r[0] - 1e-12 && v <= r[1] + 1e-12;
    if c[2].abs() > 1e-300 {
        for xv in x {
            let yv = -(c[0] + c[1] * xv) / c[2];
            if inside(yv, y) {
                pts.push((xv, yv));
            }
        }
    }
    if c[1].abs() > 1e-300 {
        for yv in y {
            let xv = -(c[0] + c[2] * yv) / c[1];
            if inside(xv, x) {
                pts.push((xv, yv));
            }
        }
    }
    pts.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    pts.dedup_by(|a, b| (a.0 - b.0).abs() < 1e-12 && (a.1 - b.1).abs() < 1e-12);
    match pts.len() {
        n if n >= 2 => Some([pts[0], pts[n - 1]]),
        _ => None,
    }
}
