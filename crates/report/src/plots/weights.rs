//! The fitted weights as a horizontal forest plot: one row per design column with its name on
//! the y axis (horizontal, however many columns), the weight on the x axis, and every run's
//! posterior mean ± 2 sd (or its point estimate) side by side within the row, each run in its
//! own colour and marker. A softmax run's classes get one panel each, on one shared scale.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::axis::text_width;
use super::canvas::{look, marker, svg, Figure, FONT, TEXT, TITLE, WIDTH};
use super::legend::{self, Key, Swatch};
use crate::blocks::{ClassBlocks, Slot};
use bayeslab_core::record::{ExperimentRecord, RunRecord};

/// Pixels per run within a column's row, and around each row.
const PER_RUN: u32 = 12;
const ROW_PAD: u32 = 12;

/// Weights per design column: posterior mean ± 2 sd where a posterior exists, else the point
/// estimate; every class's block in a panel of its own, all on one scale, which the caption
/// names (standardised or original units).
pub fn weights(r: &ExperimentRecord) -> Figure {
    let scale = r.dataset.weights_scale_short();
    let caption =
        format!("Weights, {scale} (posterior mean ± 2 sd; points alone: point estimates)");
    let blocks = ClassBlocks::of(r);
    let runs: Vec<&RunRecord> = r
        .runs
        .iter()
        .filter(|run| !run.weights.is_empty())
        .collect();
    let bar = |run: &RunRecord, class: usize, j: usize| match blocks.slot(run, class, j) {
        Slot::At(i) => Some(match &run.posterior {
            Some(p) => {
                let sd = p.cov_diag[i].sqrt();
                (p.mean[i] - 2.0 * sd, p.mean[i], p.mean[i] + 2.0 * sd)
            }
            None => (run.weights[i], run.weights[i], run.weights[i]),
        }),
        _ => None,
    };
    let d = blocks.columns.len();
    let (lo, hi) = runs
        .iter()
        .flat_map(|run| {
            blocks
                .shown()
                .flat_map(move |c| (0..d).map(move |j| (run, c, j)))
        })
        .filter_map(|(run, c, j)| bar(run, c, j))
        .fold((0.0f64, 0.0f64), |(a, b), (l, _, h)| (a.min(l), b.max(h)));
    let pad = ((hi - lo) * 0.05).max(1e-6);
    let keys: Vec<Key> = runs
        .iter()
        .enumerate()
        .map(|(k, run)| Key {
            label: match run.flag() {
                Some(f) => format!("{} ({f})", run.id),
                None => run.id.clone(),
            },
            swatch: Swatch::Series(super::canvas::Look {
                dashed: false,
                ..look(k)
            }),
        })
        .collect();
    let longest = blocks.columns.iter().map(|c| c.chars().count()).max();
    let names = text_width(longest.unwrap_or(1), TEXT) + 16;
    let row = ROW_PAD + PER_RUN * runs.len().max(1) as u32;
    let classes: Vec<usize> = blocks.shown().collect();
    let titled = blocks.labelled;
    let panel = d.max(1) as u32 * row + 60 + if titled { 28 } else { 0 };
    let height = 40 + classes.len() as u32 * panel + legend::height(&keys, WIDTH);
    let text = svg((WIDTH, height), |root| {
        root.fill(&WHITE)?;
        let area = legend::split(&root, &keys)?;
        let area = area.titled(&caption, (FONT, TITLE))?;
        for (area, &class) in area.split_evenly((classes.len(), 1)).iter().zip(&classes) {
            let mut builder = ChartBuilder::on(area);
            builder
                .margin(10)
                .x_label_area_size(46)
                .y_label_area_size(names);
            if titled {
                let reference: Vec<&str> = runs
                    .iter()
                    .filter(|run| blocks.slot(run, class, 0) == Slot::Reference)
                    .map(|run| run.id.as_str())
                    .collect();
                let title = match reference.is_empty() {
                    true => blocks.label(class),
                    false => format!(
                        "{}; reference class of {}: fixed at 0",
                        blocks.label(class),
                        reference.join(", ")
                    ),
                };
                builder.caption(title, (FONT, TEXT + 1));
            }
            let mut chart =
                builder.build_cartesian_2d((lo - pad)..(hi + pad), -0.5f64..(d as f64 - 0.5))?;
            chart
                .configure_mesh()
                .disable_y_mesh()
                .y_labels(0)
                .x_desc(format!("weight ({scale})"))
                .label_style((FONT, TEXT))
                .axis_desc_style((FONT, TEXT))
                .draw()?;
            chart.draw_series(LineSeries::new(
                [(0.0, -0.5), (0.0, d as f64 - 0.5)],
                BLACK.mix(0.35),
            ))?;
            // the first column on top, as a table reads
            let y = |j: usize| (d - 1 - j) as f64;
            let m = runs.len().max(1) as f64;
            for (k, run) in runs.iter().enumerate() {
                let offset = -((k as f64 - (m - 1.0) / 2.0) * 0.7 / m);
                let c = look(k).colour;
                let at: Vec<(f64, f64, f64, f64)> = (0..d)
                    .filter_map(|j| {
                        let (l, mid, h) = bar(run, class, j)?;
                        Some((l, mid, h, y(j) + offset))
                    })
                    .collect();
                chart.draw_series(at.iter().map(|&(l, _, h, yy)| {
                    PathElement::new([(l, yy), (h, yy)], c.stroke_width(2))
                }))?;
                let mids: Vec<(f64, f64)> = at.iter().map(|&(_, mid, _, yy)| (mid, yy)).collect();
                let look = super::canvas::Look {
                    dashed: false,
                    ..look(k)
                };
                marker(&mut chart, look, &mids)?;
            }
            let style =
                TextStyle::from((FONT, TEXT).into_font()).pos(Pos::new(HPos::Right, VPos::Center));
            let (bx, by) = area.get_base_pixel();
            for (j, name) in blocks.columns.iter().enumerate() {
                let (px, py) = chart.backend_coord(&(lo - pad, y(j)));
                area.draw(&Text::new(
                    name.clone(),
                    (px - bx - 8, py - by),
                    style.clone(),
                ))?;
            }
        }
        root.present()?;
        Ok(())
    });
    let mut guide = format!(
        "One row per design column, its name on the left; each run in its colour and marker, side by side within the row: the posterior mean with a bar of ± 2 sd, or a point estimate alone. On the {}.",
        r.dataset.weights_scale()
    );
    if blocks.labelled {
        guide.push_str(" One panel per class, all on one scale: softmax's weights for that class.");
    }
    Figure {
        stem: "weights".into(),
        caption,
        guide,
        svg: text,
    }
}
