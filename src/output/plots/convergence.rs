//! Convergence curves from the trace: gradient norms, objectives and sampler draws.

use plotters::prelude::*;

use super::axis::{nice_ticks, whole};
use super::canvas::{draw_lines, svg, Figure, FONT};
use super::legend::{self, line_keys};
use crate::record::ExperimentRecord;

/// Which trace figure: the optimisers' gradient norms or objectives, or the samplers' E(w) at
/// each sweep's draw (kept apart: a thousand sweeps would squash a six-step Newton run).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trace {
    Gradient,
    Objective,
    Sampler,
}

/// Gradient norm (log scale: it falls over many decades under Newton) or objective per
/// iteration, one line per run.
pub fn convergence(r: &ExperimentRecord, which: Trace) -> Figure {
    let gradient = which == Trace::Gradient;
    let caption = match which {
        Trace::Gradient => "Convergence: gradient norm",
        Trace::Objective => "Convergence: objective E(w)",
        Trace::Sampler => "Samplers: E(w) at each sweep's draw (chain 0)",
    }
    .to_string();
    let series: Vec<(String, Vec<(f64, f64)>)> = r
        .runs
        .iter()
        .filter(|run| run.diagnostics.is_some() == (which == Trace::Sampler))
        .map(|run| {
            let pts = r
                .trace
                .iter()
                .filter(|t| t.run == run.id)
                .map(|t| {
                    (
                        t.iterate.iteration as f64,
                        if gradient {
                            t.iterate.grad_norm
                        } else {
                            t.iterate.objective
                        },
                    )
                })
                .filter(|(_, v)| v.is_finite() && (!gradient || *v > 0.0))
                .collect();
            (run.id.clone(), pts)
        })
        .filter(|(_, pts): &(String, Vec<(f64, f64)>)| !pts.is_empty())
        .collect();
    let all = series.iter().flat_map(|(_, p)| p.iter());
    let x_max = all.clone().map(|p| p.0).fold(1.0, f64::max);
    let (lo, hi) = all
        .map(|p| p.1)
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
            (a.min(v), b.max(v))
        });
    let keys = line_keys(&series);
    // iterations and sweeps are whole numbers: whole ticks, never a label twice
    let x_max = x_max.max(1.0);
    let ticks = nice_ticks(0.0, x_max, 11, true).len();
    let text = svg((640, 360), |root| {
        root.fill(&WHITE)?;
        let area = legend::split(&root, &keys)?;
        let mut builder = ChartBuilder::on(&area);
        builder
            .caption(&caption, (FONT, 16))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(64);
        let x_range = 0f64..x_max;
        if gradient {
            let y = (lo.max(1e-300) / 2.0)..(hi * 2.0);
            let mut chart = builder.build_cartesian_2d(x_range, y.log_scale())?;
            chart
                .configure_mesh()
                .x_desc("iteration")
                .x_labels(ticks)
                .x_label_formatter(&whole)
                .y_desc("‖g‖ (log scale)")
                .y_label_formatter(&|v| format!("{v:.0e}"))
                .draw()?;
            draw_lines(&mut chart, &series)?;
        } else {
            let pad = ((hi - lo) * 0.05).max(1e-9);
            let mut chart = builder.build_cartesian_2d(x_range, (lo - pad)..(hi + pad))?;
            chart
                .configure_mesh()
                .x_desc(if which == Trace::Sampler {
                    "sweep"
                } else {
                    "iteration"
                })
                .x_labels(ticks)
                .x_label_formatter(&whole)
                .y_desc("E(w)")
                .draw()?;
            draw_lines(&mut chart, &series)?;
        }
        root.present()?;
        Ok(())
    });
    let guide = match which {
        Trace::Gradient => "One line per optimising run; iteration 0 is the start w = 0. Newton's norm falls by orders of magnitude in its last steps.",
        Trace::Objective => "The objective each run minimises, per iteration: E(w), the negative log joint (the negative log-likelihood for an MLE); for EP and ADF, −ln Z_EP per sweep.",
        Trace::Sampler => "E(w) at the draw after each sweep of the first chain, burn-in included: a chain that has mixed wanders around a level band.",
    }
    .to_string();
    Figure {
        stem: match which {
            Trace::Gradient => "convergence-gradient".into(),
            Trace::Objective => "convergence-objective".into(),
            Trace::Sampler => "convergence-sampler".into(),
        },
        caption,
        guide,
        svg: text,
    }
}
