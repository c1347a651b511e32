//! The report's figures as SVG text, drawn with plotters' SVG backend: reliability diagrams,
//! convergence curves, posterior weights and, for 8x8 image data, weight heatmaps.

use plotters::prelude::*;

use crate::record::{ExperimentRecord, PredictiveRecord, RunRecord};

/// One figure: a file stem (for report.md's `plots/<stem>.svg`), a caption and the SVG text.
#[derive(Debug, Clone)]
pub struct Figure {
    pub stem: String,
    pub caption: String,
    pub svg: String,
}

type DrawResult = Result<(), Box<dyn std::error::Error>>;

const FONT: &str = "sans-serif";
const PALETTE: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
];

fn colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// Draw into an SVG string; a drawing failure becomes a visible note instead of a panic.
fn svg(
    size: (u32, u32),
    draw: impl FnOnce(DrawingArea<SVGBackend<'_>, plotters::coord::Shift>) -> DrawResult,
) -> String {
    let mut buf = String::new();
    let result = {
        let root = SVGBackend::with_string(&mut buf, size).into_drawing_area();
        draw(root)
    };
    match result {
        Ok(()) => buf,
        Err(e) => format!("<p class=\"plot-error\">figure could not be drawn: {e}</p>"),
    }
}

/// Every figure of a record, in report order.
pub fn figures(r: &ExperimentRecord) -> Vec<Figure> {
    let mut out = Vec::new();
    for run in &r.runs {
        for p in &run.predictives {
            out.push(reliability(run, p));
        }
    }
    let sampler = |id: &str| {
        r.runs
            .iter()
            .any(|run| run.id == id && run.diagnostics.is_some())
    };
    if r.trace
        .iter()
        .any(|t| t.iterate.iteration > 0 && !sampler(&t.run))
    {
        out.push(convergence(r, Trace::Gradient));
        out.push(convergence(r, Trace::Objective));
    }
    if r.trace.iter().any(|t| sampler(&t.run)) {
        out.push(convergence(r, Trace::Sampler));
    }
    if r.runs.iter().any(|run| !run.weights.is_empty()) {
        out.push(weights(r));
    }
    for run in &r.runs {
        if let Some(f) = heatmaps(r, run) {
            out.push(f);
        }
    }
    for run in r.runs.iter().filter(|run| !run.evidence_curve.is_empty()) {
        out.push(evidence(run));
    }
    out.extend(r.posteriors.iter().map(density));
    out
}

/// The exact posterior density and each approximation's, overlaid on the parameter's scale.
pub fn density(p: &crate::lab::PosteriorResult) -> Figure {
    use super::lab_markdown::{density_caption, density_stem};
    let caption = density_caption(p);
    let c = &p.curves;
    let mut series: Vec<(String, Vec<(f64, f64)>)> = vec![(
        "exact".into(),
        c.x.iter().copied().zip(c.exact.iter().copied()).collect(),
    )];
    for (name, ys) in &c.approximations {
        series.push((
            name.clone(),
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
    let text = svg((560, 360), |root| {
        root.fill(&WHITE)?;
        let drawable = x0 < x1 && y1 > 0.0;
        if !drawable {
            return Ok(());
        }
        let mut chart = ChartBuilder::on(&root)
            .caption(&caption, (FONT, 13))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(56)
            .build_cartesian_2d(x0..x1, 0.0..y1 * 1.08)?;
        chart
            .configure_mesh()
            .x_desc(p.parameter.as_str())
            .y_desc("density")
            .draw()?;
        draw_lines(&mut chart, &series)?;
        root.present()?;
        Ok(())
    });
    Figure {
        stem: density_stem(p),
        caption,
        svg: text,
    }
}

/// The Laplace log evidence and the held-out log-loss against lambda (log axis), on two
/// panels sharing the axis, with the chosen lambda marked.
pub fn evidence(run: &RunRecord) -> Figure {
    let caption = format!("Evidence and held-out log-loss against lambda: {}", run.id);
    let ev: Vec<(f64, f64)> = run
        .evidence_curve
        .iter()
        .filter_map(|p| Some((p.precision, p.log_evidence?)))
        .collect();
    let ll: Vec<(f64, f64)> = run
        .evidence_curve
        .iter()
        .map(|p| (p.precision, p.test_log_loss))
        .collect();
    let (x0, x1) = ll
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| {
            (a.min(p.0), b.max(p.0))
        });
    let chosen = run.prior_precision;
    let text = svg((640, 480), |root| {
        root.fill(&WHITE)?;
        let root = root.titled(&caption, (FONT, 15))?;
        let (top, bottom) = root.split_vertically(220);
        for (area, pts, name, c) in [
            (&top, &ev, "log evidence", colour(0)),
            (&bottom, &ll, "test log-loss", colour(3)),
        ] {
            if pts.is_empty() {
                continue;
            }
            let (y0, y1) = pts
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| {
                    (a.min(p.1), b.max(p.1))
                });
            let pad = ((y1 - y0) * 0.08).max(1e-6);
            let mut chart = ChartBuilder::on(area)
                .margin(10)
                .x_label_area_size(30)
                .y_label_area_size(60)
                .build_cartesian_2d((x0.max(1e-300)..x1).log_scale(), (y0 - pad)..(y1 + pad))?;
            chart
                .configure_mesh()
                .x_desc("lambda")
                .y_desc(name)
                .x_label_formatter(&|v| format!("{v:.0e}"))
                .draw()?;
            chart.draw_series(LineSeries::new(pts.clone(), c.stroke_width(2)).point_size(2))?;
            if let Some(l) = chosen {
                chart.draw_series(LineSeries::new(
                    [(l, y0 - pad), (l, y1 + pad)],
                    BLACK.mix(0.5),
                ))?;
            }
        }
        Ok(())
    });
    Figure {
        stem: format!("evidence-{}", run.id),
        caption,
        svg: text,
    }
}

/// Observed frequency against mean prediction per bin, the diagonal, and the bin counts as
/// bars along the bottom (scaled so the fullest bin reaches 0.25) labelled with the count.
pub fn reliability(run: &RunRecord, p: &PredictiveRecord) -> Figure {
    let caption = format!("Reliability: {} / {}", run.id, p.name);
    let bins = &p.calibration;
    let max_count = bins.iter().map(|b| b.count).max().unwrap_or(1).max(1) as f64;
    let text = svg((420, 400), |root| {
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(&caption, (FONT, 16))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(44)
            .build_cartesian_2d(0f64..1f64, 0f64..1f64)?;
        chart
            .configure_mesh()
            .x_desc("mean predicted probability")
            .y_desc("observed frequency")
            .light_line_style(WHITE)
            .draw()?;
        chart.draw_series(bins.iter().map(|b| {
            let h = 0.25 * b.count as f64 / max_count;
            Rectangle::new([(b.lower, 0.0), (b.upper, h)], colour(0).mix(0.18).filled())
        }))?;
        chart.draw_series(bins.iter().filter(|b| b.count > 0).map(|b| {
            let h = 0.25 * b.count as f64 / max_count;
            Text::new(
                b.count.to_string(),
                ((b.lower + b.upper) / 2.0 - 0.015, h + 0.035),
                (FONT, 10),
            )
        }))?;
        chart
            .draw_series(LineSeries::new([(0.0, 0.0), (1.0, 1.0)], BLACK.mix(0.5)))?
            .label("perfect calibration")
            .legend(|(x, y)| PathElement::new([(x, y), (x + 16, y)], BLACK.mix(0.5)));
        let pts: Vec<(f64, f64)> = bins
            .iter()
            .filter_map(|b| Some((b.mean_predicted?, b.observed_frequency?)))
            .collect();
        chart
            .draw_series(LineSeries::new(pts.clone(), colour(3).stroke_width(2)))?
            .label(format!("{} (ECE {:.3})", p.name, p.metrics.ece))
            .legend(|(x, y)| PathElement::new([(x, y), (x + 16, y)], colour(3).stroke_width(2)));
        chart.draw_series(pts.iter().map(|&xy| Circle::new(xy, 3, colour(3).filled())))?;
        legend(&mut chart, SeriesLabelPosition::UpperLeft)?;
        root.present()?;
        Ok(())
    });
    Figure {
        stem: format!("reliability-{}-{}", run.id, p.name),
        caption,
        svg: text,
    }
}

/// Gradient norm (log scale: it falls over many decades under Newton) or objective per
/// iteration, one line per run.
/// Which trace figure: the optimisers' gradient norms or objectives, or the samplers' E(w) at
/// each sweep's draw (kept apart: a thousand sweeps would squash a six-step Newton run).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trace {
    Gradient,
    Objective,
    Sampler,
}

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
    let text = svg((640, 360), |root| {
        root.fill(&WHITE)?;
        let mut builder = ChartBuilder::on(&root);
        builder
            .caption(&caption, (FONT, 16))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(64);
        let x_range = 0f64..x_max.max(1.0);
        if gradient {
            let y = (lo.max(1e-300) / 2.0)..(hi * 2.0);
            let mut chart = builder.build_cartesian_2d(x_range, y.log_scale())?;
            chart
                .configure_mesh()
                .x_desc("iteration")
                .x_label_formatter(&|v| format!("{v:.0}"))
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
                .x_label_formatter(&|v| format!("{v:.0}"))
                .y_desc("E(w)")
                .draw()?;
            draw_lines(&mut chart, &series)?;
        }
        root.present()?;
        Ok(())
    });
    Figure {
        stem: match which {
            Trace::Gradient => "convergence-gradient".into(),
            Trace::Objective => "convergence-objective".into(),
            Trace::Sampler => "convergence-sampler".into(),
        },
        caption,
        svg: text,
    }
}

/// The legend of every figure: a translucent white box with a thin border.
fn legend<'a, DB: DrawingBackend + 'a, CT: plotters::coord::CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
    position: SeriesLabelPosition,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    chart
        .configure_series_labels()
        .position(position)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK.mix(0.3))
        .label_font((FONT, 11))
        .draw()?;
    Ok(())
}

fn draw_lines<'a, DB: DrawingBackend + 'a, CT: plotters::coord::CoordTranslate<From = (f64, f64)>>(
    chart: &mut ChartContext<'a, DB, CT>,
    series: &[(String, Vec<(f64, f64)>)],
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    for (i, (id, pts)) in series.iter().enumerate() {
        let c = colour(i);
        // Mark the points of short series (iterations, swept values), not of dense curves.
        let marks = if pts.len() <= 60 { 2 } else { 0 };
        chart
            .draw_series(LineSeries::new(pts.clone(), c.stroke_width(2)).point_size(marks))?
            .label(id.clone())
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 16, y)], c.stroke_width(2)));
    }
    legend(chart, SeriesLabelPosition::UpperRight)?;
    Ok(())
}

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

/// Weights per design column: posterior mean ± 2 sd where a posterior exists, else the
/// point estimate; runs side by side within each column.
pub fn weights(r: &ExperimentRecord) -> Figure {
    let caption = "Weights (posterior mean ± 2 sd; points: point estimates)".to_string();
    let cols = &r.dataset.columns;
    let runs: Vec<&RunRecord> = r
        .runs
        .iter()
        .filter(|run| run.weights.len() == cols.len())
        .collect();
    let bars: Vec<Vec<(f64, f64, f64)>> = runs
        .iter()
        .map(|run| match &run.posterior {
            Some(p) => p
                .mean
                .iter()
                .zip(&p.cov_diag)
                .map(|(m, v)| (m - 2.0 * v.sqrt(), *m, m + 2.0 * v.sqrt()))
                .collect(),
            None => run.weights.iter().map(|&w| (w, w, w)).collect(),
        })
        .collect();
    let (lo, hi) = bars
        .iter()
        .flatten()
        .fold((0.0f64, 0.0f64), |(a, b), &(l, _, h)| (a.min(l), b.max(h)));
    let pad = ((hi - lo) * 0.05).max(1e-6);
    let width = (cols.len() as u32 * 22).clamp(480, 1400);
    let text = svg((width, 400), |root| {
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(&caption, (FONT, 16))
            .margin(12)
            .x_label_area_size(84)
            .y_label_area_size(56)
            .build_cartesian_2d(-0.5f64..(cols.len() as f64 - 0.5), (lo - pad)..(hi + pad))?;
        chart
            .configure_mesh()
            .x_labels(cols.len().min(70))
            .x_label_formatter(&|v| {
                let i = v.round();
                if (v - i).abs() < 1e-6 && i >= 0.0 {
                    cols.get(i as usize).cloned().unwrap_or_default()
                } else {
                    String::new()
                }
            })
            .x_label_style((FONT, 10).into_font().transform(FontTransform::Rotate90))
            .y_desc("weight")
            .draw()?;
        chart.draw_series(LineSeries::new(
            [(-0.5, 0.0), (cols.len() as f64 - 0.5, 0.0)],
            BLACK.mix(0.3),
        ))?;
        let n = runs.len().max(1) as f64;
        for (k, (run, b)) in runs.iter().zip(&bars).enumerate() {
            let c = colour(k);
            let offset = (k as f64 - (n - 1.0) / 2.0) * 0.6 / n;
            chart
                .draw_series(b.iter().enumerate().map(|(j, &(l, m, h))| {
                    ErrorBar::new_vertical(j as f64 + offset, l, m, h, c.filled(), 4)
                }))?
                .label(run.id.clone())
                .legend(move |(x, y)| Circle::new((x + 8, y), 3, c.filled()));
        }
        legend(&mut chart, SeriesLabelPosition::UpperRight)?;
        root.present()?;
        Ok(())
    });
    Figure {
        stem: "weights".into(),
        caption,
        svg: text,
    }
}

/// For 8x8 pixel data (columns p0..p63), the posterior mean and variance of the pixel
/// weights as two heatmaps (blue negative, red positive for the mean).
pub fn heatmaps(r: &ExperimentRecord, run: &RunRecord) -> Option<Figure> {
    let post = run.posterior.as_ref()?;
    let index: Vec<usize> = (0..64)
        .map(|k| r.dataset.columns.iter().position(|c| *c == format!("p{k}")))
        .collect::<Option<_>>()?;
    let mean: Vec<f64> = index.iter().map(|&i| post.mean[i]).collect();
    let var: Vec<f64> = index.iter().map(|&i| post.cov_diag[i]).collect();
    let caption = format!(
        "Pixel weights of {}: posterior mean (left) and variance (right)",
        run.id
    );
    let text = svg((640, 340), |root| {
        root.fill(&WHITE)?;
        let root = root.titled(&caption, (FONT, 15))?;
        let [left, right] = {
            let parts = root.split_evenly((1, 2));
            [parts[0].clone(), parts[1].clone()]
        };
        let m = mean.iter().fold(1e-12f64, |a, v| a.max(v.abs()));
        draw_grid(
            &left,
            &mean,
            |v| diverging(v / m),
            &format!("mean (±{m:.3})"),
        )?;
        let vmax = var.iter().fold(1e-12f64, |a, v| a.max(*v));
        draw_grid(
            &right,
            &var,
            |v| sequential(v / vmax),
            &format!("variance (max {vmax:.3})"),
        )?;
        Ok(())
    });
    Some(Figure {
        stem: format!("heatmaps-{}", run.id),
        caption,
        svg: text,
    })
}

fn draw_grid<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    values: &[f64],
    colour_of: impl Fn(f64) -> RGBColor,
    label: &str,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let mut chart = ChartBuilder::on(area)
        .caption(label, (FONT, 12))
        .margin(14)
        .build_cartesian_2d(0f64..8f64, 0f64..8f64)?;
    chart.draw_series((0..64).map(|k| {
        let (row, col) = ((k / 8) as f64, (k % 8) as f64);
        // row 0 is the top of the image
        Rectangle::new(
            [(col, 7.0 - row), (col + 1.0, 8.0 - row)],
            colour_of(values[k]).filled(),
        )
    }))?;
    Ok(())
}

/// Blue (-1) through white (0) to red (+1).
fn diverging(t: f64) -> RGBColor {
    let t = t.clamp(-1.0, 1.0);
    let (r, g, b) = if t < 0.0 {
        (1.0 + t, 1.0 + t, 1.0)
    } else {
        (1.0, 1.0 - t, 1.0 - t)
    };
    RGBColor((r * 255.0) as u8, (g * 255.0) as u8, (b * 255.0) as u8)
}

/// White (0) to dark purple (1).
fn sequential(t: f64) -> RGBColor {
    let t = t.clamp(0.0, 1.0);
    RGBColor(
        (255.0 - 180.0 * t) as u8,
        (255.0 - 230.0 * t) as u8,
        (255.0 - 120.0 * t) as u8,
    )
}
