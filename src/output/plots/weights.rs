//! The fitted weights per design column, runs side by side: one panel per class for softmax,
//! and the columns wrapped into several panels when they would not fit the page.

use plotters::prelude::*;

use super::axis::{category_labels, text_width, upright};
use super::canvas::{colour, svg, Figure, FONT};
use super::legend::{self, Key, Swatch};
use crate::output::blocks::{ClassBlocks, Slot};
use crate::record::{ExperimentRecord, RunRecord};

/// The widest figure report.html shows unscaled (its page is 1100 px wide).
const MAX_WIDTH: u32 = 1040;
/// Pixels left of the first column: the y axis, its labels and description.
const Y_AXIS: u32 = 84;
const LABEL_SIZE: u32 = 10;

/// One panel: a class block (or the one binary block) over a run of design columns.
struct Panel {
    class: usize,
    columns: std::ops::Range<usize>,
    title: Option<String>,
}

/// Weights per design column: posterior mean ± 2 sd where a posterior exists, else the point
/// estimate; runs side by side within each column, every class's block in a panel of its own
/// on one shared scale.
pub fn weights(r: &ExperimentRecord) -> Figure {
    let caption = "Weights (posterior mean ± 2 sd; points: point estimates)".to_string();
    let blocks = ClassBlocks::of(r);
    let runs: Vec<&RunRecord> = r
        .runs
        .iter()
        .filter(|run| !run.weights.is_empty())
        .collect();
    // per run, (class, column) -> (low, mean, high)
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

    // a column's pixels: roomy when there is room, narrower (down to 6 a run) before the
    // columns wrap into a second panel
    let room = MAX_WIDTH - Y_AXIS - 24;
    let tight = (6 * runs.len() as u32 + 4).max(16);
    let slot = (8 * runs.len() as u32 + 8).max(22);
    let slot = if d as u32 * slot > room && d as u32 * tight <= room {
        room / d as u32
    } else {
        slot
    };
    let fit = (room / slot).max(1) as usize;
    let chunks = d.div_ceil(fit).max(1);
    let per = d.div_ceil(chunks).max(1);
    let panels: Vec<Panel> = blocks
        .shown()
        .flat_map(|class| {
            let blocks = &blocks;
            let runs = &runs;
            (0..chunks).map(move |c| {
                let columns = c * per..((c + 1) * per).min(d);
                let mut title = Vec::new();
                if blocks.labelled {
                    title.push(blocks.label(class));
                }
                if chunks > 1 {
                    title.push(format!(
                        "columns {}–{} of {d}",
                        columns.start + 1,
                        columns.end
                    ));
                }
                let reference: Vec<&str> = runs
                    .iter()
                    .filter(|run| blocks.slot(run, class, 0) == Slot::Reference)
                    .map(|run| run.id.as_str())
                    .collect();
                if !reference.is_empty() {
                    title.push(format!(
                        "reference class of {}: fixed at 0",
                        reference.join(", ")
                    ));
                }
                Panel {
                    class,
                    columns,
                    title: (!title.is_empty()).then(|| title.join("; ")),
                }
            })
        })
        .collect();

    let width = (Y_AXIS + 24 + per as u32 * slot).clamp(560, MAX_WIDTH);
    // the pixels each column gets once the figure is at least 560 wide
    let spacing = (width - Y_AXIS - 24) / per as u32;
    let longest = blocks
        .columns
        .iter()
        .map(|c| c.chars().count())
        .max()
        .unwrap_or(1);
    let label_area = if upright(&blocks.columns, LABEL_SIZE, spacing) {
        text_width(longest, LABEL_SIZE) + 18
    } else {
        26
    };
    let keys: Vec<Key> = runs
        .iter()
        .enumerate()
        .map(|(k, run)| Key {
            label: run.id.clone(),
            colour: colour(k),
            swatch: Swatch::Dot,
        })
        .collect();
    let panel_height = 230 + label_area + if panels[0].title.is_some() { 20 } else { 0 };
    let height = 36 + panels.len() as u32 * panel_height + legend::height(&keys, width);
    let text = svg((width, height), |root| {
        root.fill(&WHITE)?;
        let area = legend::split(&root, &keys)?;
        let area = area.titled(&caption, (FONT, 16))?;
        for (panel, p) in area.split_evenly((panels.len(), 1)).iter().zip(&panels) {
            let n = p.columns.len();
            let mut builder = ChartBuilder::on(panel);
            builder
                .margin(8)
                .x_label_area_size(label_area)
                .y_label_area_size(Y_AXIS - 28);
            if let Some(t) = &p.title {
                builder.caption(t, (FONT, 13));
            }
            let mut chart =
                builder.build_cartesian_2d(-0.5f64..(n as f64 - 0.5), (lo - pad)..(hi + pad))?;
            chart
                .configure_mesh()
                .disable_x_mesh()
                .x_labels(0)
                .y_desc("weight")
                .draw()?;
            // a faint line per column, so each group of whiskers reads as one column
            for j in 0..n {
                let x = j as f64;
                chart.draw_series(LineSeries::new(
                    [(x, lo - pad), (x, hi + pad)],
                    BLACK.mix(0.08),
                ))?;
            }
            chart.draw_series(LineSeries::new(
                [(-0.5, 0.0), (n as f64 - 0.5, 0.0)],
                BLACK.mix(0.3),
            ))?;
            let m = runs.len().max(1) as f64;
            for (k, run) in runs.iter().enumerate() {
                let c = colour(k);
                let offset = (k as f64 - (m - 1.0) / 2.0) * 0.6 / m;
                chart.draw_series(p.columns.clone().enumerate().filter_map(|(x, j)| {
                    let (l, mid, h) = bar(run, p.class, j)?;
                    Some(ErrorBar::new_vertical(
                        x as f64 + offset,
                        l,
                        mid,
                        h,
                        c.filled(),
                        4,
                    ))
                }))?;
            }
            let labels: Vec<(i32, String)> = p
                .columns
                .clone()
                .enumerate()
                .map(|(x, j)| {
                    let (px, _) = chart.backend_coord(&(x as f64, lo - pad));
                    (px, blocks.columns[j].clone())
                })
                .collect();
            let (_, axis_y) = chart.backend_coord(&(0.0, lo - pad));
            category_labels(panel, &labels, axis_y, spacing, LABEL_SIZE)?;
        }
        root.present()?;
        Ok(())
    });
    let mut guide = "Each run in its colour, side by side within a design column; a run without a posterior shows its point estimate alone.".to_string();
    if blocks.labelled {
        guide.push_str(" One panel per class, all on one scale: softmax's weights for that class.");
    }
    if chunks > 1 {
        guide.push_str(" The columns wrap over several panels, all on one scale.");
    }
    Figure {
        stem: "weights".into(),
        caption,
        guide,
        svg: text,
    }
}
