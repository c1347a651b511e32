//! The evidence search's figure: evidence and held-out log-loss against the prior precision.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::canvas::{colour, svg, DrawResult, Figure, FONT, TEXT, TITLE, WIDTH};
use bayeslab_core::record::RunRecord;

/// The Laplace log evidence and the held-out log-loss against lambda (log axis), on two
/// panels sharing the axis, with the chosen lambda marked.
pub fn evidence(run: &RunRecord) -> Figure {
    let edge = run.prior_precision_edge.map_or(String::new(), |e| {
        format!(" (chosen lambda at the {})", e.mark())
    });
    let caption = format!(
        "Evidence and held-out log-loss against lambda: {}{edge}",
        run.id
    );
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
    let text = svg((WIDTH, 640), |root| {
        root.fill(&WHITE)?;
        let root = root.titled(&caption, (FONT, TITLE))?;
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
                .x_label_area_size(44)
                .y_label_area_size(90)
                .build_cartesian_2d((x0.max(1e-300)..x1).log_scale(), (y0 - pad)..(y1 + pad))?;
            chart
                .configure_mesh()
                .label_style((FONT, TEXT))
                .axis_desc_style((FONT, TEXT))
                .x_desc("lambda")
                .y_desc(name)
                .x_label_formatter(&|v| format!("{v:.0e}"))
                .draw()?;
            chart.draw_series(LineSeries::new(pts.clone(), c.stroke_width(2)).point_size(2))?;
            if let Some(l) = chosen {
                chart.draw_series(LineSeries::new(
                    [(l, y0 - pad), (l, y1 + pad)],
                    BLACK.mix(0.8).stroke_width(1),
                ))?;
                let ends = [
                    chart.backend_coord(&(l, y0 - pad)),
                    chart.backend_coord(&(l, y1 + pad)),
                ];
                chosen_label(area, ends, pts, l, (x0.max(1e-300), x1), (y0, y1))?;
            }
        }
        Ok(())
    });
    Figure {
        stem: format!("evidence-{}", run.id),
        caption,
        guide: "Top: the Laplace log evidence on the lambda grid; bottom: the held-out log-loss of the plug-in predictive at the same lambda; the vertical line: the lambda chosen by golden-section search beside the best grid point.".into(),
        svg: text,
    }
}

/// "chosen λ = …" beside the chosen line (whose pixel ends are given), on the side with more room and at the end (top or
/// bottom) away from the curve there, so that it covers no point.
fn chosen_label<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    [low_end, high_end]: [(i32, i32); 2],
    pts: &[(f64, f64)],
    l: f64,
    (left, right): (f64, f64),
    (bottom, top): (f64, f64),
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let room_right = (right / l).ln() > (l / left).ln();
    let near = pts
        .iter()
        .min_by(|a, b| (a.0 / l).ln().abs().total_cmp(&(b.0 / l).ln().abs()))
        .map_or(top, |p| p.1);
    let curve_high = near > (bottom + top) / 2.0;
    let (px, py) = if curve_high { low_end } else { high_end };
    let (bx, by) = area.get_base_pixel();
    let h = if room_right { HPos::Left } else { HPos::Right };
    let v = if curve_high { VPos::Bottom } else { VPos::Top };
    let (dx, dy) = (
        if room_right { 4 } else { -4 },
        if curve_high { -4 } else { 4 },
    );
    area.draw(&Text::new(
        format!("chosen λ = {l:.3}"),
        (px - bx + dx, py - by + dy),
        TextStyle::from((FONT, TEXT).into_font()).pos(Pos::new(h, v)),
    ))?;
    Ok(())
}
