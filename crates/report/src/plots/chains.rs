//! A sampler's chains, as ArviZ's `plot_trace` and `plot_rank` draw them: for each of the
//! weights the record keeps (those of largest split-R-hat), every chain's trace over every
//! sweep, the burn-in shaded and the y axis scaled to the kept draws, and beside it the rank
//! plot: per chain, the histogram of its kept draws' ranks among every chain's (flat when the
//! chains have mixed).

use plotters::coord::Shift;
use plotters::prelude::*;

use super::axis::{nice_ticks, whole};
use super::canvas::{line, look, marked_points, marker, svg, Figure, FONT, TEXT, TITLE, WIDTH};
use super::legend::{self, Key, Swatch};
use bayeslab_core::record::{ChainWeight, ChainsRecord, Diagnostics, RunRecord};

/// The rows of a panel (one weight) in pixels.
const ROW: u32 = 250;
/// Width of the trace panel; the rank plot takes the rest.
const TRACE_WIDTH: u32 = 620;
/// A rank bar's height, in chain rows, at the uniform count: room above it for twice as many.
const UNIFORM: f64 = 0.45;

/// The figure of `run`'s chains; `None` for a run without them (not a sampler).
pub fn chains(run: &RunRecord) -> Option<Figure> {
    let c = run.chains.as_ref()?;
    let flag = run.flag().map(|f| format!(" — {f}")).unwrap_or_default();
    let caption = format!("Chains of {}{flag}", run.id);
    let mut keys: Vec<Key> = (0..c.chains)
        .map(|i| Key {
            label: format!("chain {i}"),
            swatch: Swatch::Series(look(i)),
        })
        .collect();
    keys.push(Key {
        label: "uniform ranks (dashed)".into(),
        swatch: Swatch::Guide,
    });
    let strip = legend::height(&keys, WIDTH);
    let height = 50 + ROW * c.weights.len() as u32 + strip;
    let text = svg((WIDTH, height), |root| {
        root.fill(&WHITE)?;
        let area = legend::split(&root, &keys)?;
        let area = area.titled(&caption, (FONT, TITLE))?;
        let rows = area.split_evenly((c.weights.len().max(1), 1));
        for (w, row) in c.weights.iter().zip(rows) {
            let (left, right) = row.split_horizontally(TRACE_WIDTH);
            trace(c, w, &left)?;
            ranks(c, w, &right)?;
        }
        root.present()?;
        Ok(())
    });
    let shown = c.weights.len();
    let of = run
        .weight_diagnostics
        .as_ref()
        .map_or(shown, |d| d.rhat.len());
    let guide = format!(
        "The {shown} weight{} of largest split-R-hat (of {of}), on the model's design scale. Left: \
         every chain's value after each sweep (one line per chain, in its colour and marker), the \
         shaded burn-in discarded and the y axis scaled to the kept draws, so that a start far \
         off leaves the chart. Right: the rank plot; each chain's kept draws ranked among all \
         chains' draws, one histogram per chain, the dashed line the height of uniform ranks. \
         Chains that have mixed overlap on the left and have flat histograms on the right; a \
         chain above or below the others piles its ranks at one end. R-hat above {} is flagged \
         NOT MIXED.",
        if shown == 1 { "" } else { "s" },
        Diagnostics::RHAT_LIMIT
    );
    Some(Figure {
        stem: format!("convergence-chains-{}", run.id),
        caption,
        guide,
        svg: text,
    })
}

/// A weight's panel title: its name and R-hat, flagged when the chains have not mixed.
fn title(w: &ChainWeight) -> String {
    match w.rhat > Diagnostics::RHAT_LIMIT {
        true => format!("{} — R-hat {:.3} NOT MIXED", w.column, w.rhat),
        false => format!("{} — R-hat {:.3}", w.column, w.rhat),
    }
}

/// The y range of the kept draws (the sweeps after the burn-in), padded by 5 %.
fn kept_range(c: &ChainsRecord, w: &ChainWeight) -> (f64, f64) {
    let (lo, hi) = w
        .trace
        .iter()
        .flat_map(|t| t.iter().zip(&w.sweeps))
        .filter(|(v, &s)| s > c.burn_in && v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), (&v, _)| {
            (a.min(v), b.max(v))
        });
    if lo > hi {
        return (-1.0, 1.0);
    }
    let pad = ((hi - lo) * 0.05).max(1e-9 * hi.abs().max(1.0));
    (lo - pad, hi + pad)
}

/// A y tick with as many decimals as a fifth of `span` needs, and never "-0.0".
fn tick(v: f64, span: f64) -> String {
    let step = (span / 5.0).abs().max(1e-12);
    let decimals = (-step.log10().floor()).max(0.0) as usize;
    let v = if v.abs() < step * 1e-6 { 0.0 } else { v };
    format!("{v:.decimals$}")
}

/// The runs of consecutive points inside [lo, hi]: a burn-in start beyond the kept draws'
/// range leaves the chart rather than squashing it.
pub(crate) fn inside(pts: &[(f64, f64)], lo: f64, hi: f64) -> Vec<Vec<(f64, f64)>> {
    let mut out: Vec<Vec<(f64, f64)>> = vec![Vec::new()];
    for &p in pts {
        if (lo..=hi).contains(&p.1) {
            out.last_mut().expect("one run at least").push(p);
        } else if !out.last().expect("one run at least").is_empty() {
            out.push(Vec::new());
        }
    }
    out.retain(|r| !r.is_empty());
    out
}

fn trace<DB: DrawingBackend>(
    c: &ChainsRecord,
    w: &ChainWeight,
    area: &DrawingArea<DB, Shift>,
) -> super::canvas::DrawResult
where
    DB::ErrorType: 'static,
{
    let (lo, hi) = kept_range(c, w);
    let sweeps = c.sweeps().max(1) as f64;
    let mut chart = ChartBuilder::on(area)
        .caption(title(w), (FONT, TEXT))
        .margin(8)
        .x_label_area_size(44)
        .y_label_area_size(80)
        .build_cartesian_2d(0f64..sweeps, lo..hi)?;
    chart
        .configure_mesh()
        .label_style((FONT, TEXT))
        .axis_desc_style((FONT, TEXT))
        .x_labels(nice_ticks(0.0, sweeps, 6, true).len())
        .x_label_formatter(&whole)
        .y_labels(5)
        .y_label_formatter(&|v: &f64| tick(*v, hi - lo))
        .x_desc(match c.burn_in {
            0 => "sweep",
            _ => "sweep (shaded: burn-in, discarded)",
        })
        .draw()?;
    if c.burn_in > 0 {
        let grey = RGBColor(200, 200, 200).mix(0.5).filled();
        chart.draw_series([Rectangle::new([(0.0, lo), (c.burn_in as f64, hi)], grey)])?;
    }
    for (i, t) in w.trace.iter().enumerate() {
        let pts: Vec<(f64, f64)> = w
            .sweeps
            .iter()
            .map(|&s| s as f64)
            .zip(t.iter().copied())
            .collect();
        for run in inside(&pts, lo, hi) {
            line(&mut chart, look(i), &run)?;
        }
        let kept: Vec<(f64, f64)> = pts
            .into_iter()
            .filter(|p| p.0 > c.burn_in as f64 && (lo..=hi).contains(&p.1))
            .collect();
        marker(&mut chart, look(i), &marked_points(&kept, i))?;
    }
    Ok(())
}

fn ranks<DB: DrawingBackend>(
    c: &ChainsRecord,
    w: &ChainWeight,
    area: &DrawingArea<DB, Shift>,
) -> super::canvas::DrawResult
where
    DB::ErrorType: 'static,
{
    let bins = w.ranks.first().map_or(1, Vec::len).max(1);
    let total = (c.draws * c.chains) as f64;
    let expected = c.draws as f64 / bins as f64;
    let chains = w.ranks.len().max(1);
    let mut chart = ChartBuilder::on(area)
        .caption("rank plot", (FONT, TEXT))
        .margin(8)
        .margin_right(30)
        .x_label_area_size(44)
        .y_label_area_size(90)
        .build_cartesian_2d(0f64..total, 0f64..chains as f64)?;
    chart
        .configure_mesh()
        .label_style((FONT, TEXT))
        .axis_desc_style((FONT, TEXT))
        .disable_y_mesh()
        .x_labels(3)
        .x_label_formatter(&whole)
        .y_labels(chains + 1)
        .y_label_formatter(&|v: &f64| match v.fract() {
            _ if *v >= chains as f64 => String::new(),
            f if f.abs() < 1e-9 => format!("chain {v:.0}"),
            _ => String::new(),
        })
        .x_desc("rank of draw")
        .draw()?;
    let width = total / bins as f64;
    for (i, counts) in w.ranks.iter().enumerate() {
        let base = i as f64;
        let colour = look(i).colour;
        chart.draw_series(counts.iter().enumerate().map(|(b, &n)| {
            let top = base + (n as f64 / expected * UNIFORM).min(0.95);
            let (x0, x1) = (b as f64 * width, (b + 1) as f64 * width);
            Rectangle::new([(x0, base), (x1, top)], colour.mix(0.7).filled())
        }))?;
        chart.draw_series(DashedLineSeries::new(
            [(0.0, base + UNIFORM), (total, base + UNIFORM)],
            6,
            4,
            BLACK.stroke_width(1),
        ))?;
    }
    Ok(())
}
