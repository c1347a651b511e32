//! The Live screen's trace panel for a sampler: a legend of the chains, the split-R-hat of
//! each traced weight over the kept draws so far (flagged when above 1.01: the chains have
//! not mixed), and one chart per traced weight with a line per chain over every sweep, the
//! end of the burn-in marked by a grey vertical line and the y axis scaled to the kept draws.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style, Stylize};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Block, Chart, Dataset, GraphType, Paragraph, Widget};

use crate::chains::ChainTraces;
use crate::session::{LiveRun, RunState};
use crate::widget::log_chart::thin;
use bayeslab_core::record::Diagnostics;

/// One colour per chain, cycling after eight.
const CHAIN_COLORS: [Color; 8] = [
    Color::LightBlue,
    Color::LightGreen,
    Color::LightMagenta,
    Color::Yellow,
    Color::Cyan,
    Color::LightRed,
    Color::White,
    Color::Gray,
];

pub fn chain_color(c: usize) -> Color {
    CHAIN_COLORS[c % CHAIN_COLORS.len()]
}

/// R-hat above [`Diagnostics::RHAT_LIMIT`]: the chains have not mixed.
pub fn unmixed(rhat: f64) -> bool {
    rhat > Diagnostics::RHAT_LIMIT
}

pub(super) fn flag() -> Style {
    Style::new()
        .fg(Color::LightRed)
        .add_modifier(Modifier::BOLD)
}

/// The panel: the chains' traces, or with `ranks` their rank plots (ranks.rs).
pub fn render(run: &LiveRun, ranks: bool, area: Rect, buf: &mut Buffer) {
    let Some(t) = &run.traces else {
        return;
    };
    let block = Block::bordered().title(format!(
        " {} — {} chains, {} of {} weights (t: {}) ",
        run.id,
        t.chains.len(),
        if ranks { "rank plots" } else { "traces" },
        t.names.len(),
        if ranks { "hide" } else { "rank plots" },
    ));
    let inner = block.inner(area);
    block.render(area, buf);
    let header = pack(header(run, t), inner.width as usize);
    let [top, charts] =
        Layout::vertical([Constraint::Length(header.len() as u16), Constraint::Min(0)])
            .areas(inner);
    Paragraph::new(header).render(top, buf);
    let areas = Layout::horizontal(vec![Constraint::Fill(1); t.names.len()]).split(charts);
    for (j, &area) in areas.iter().enumerate() {
        match ranks {
            true => ranks::render(t, j, area, buf),
            false => render_weight(t, j, area, buf),
        }
    }
}

/// Pieces of text that stay on one row.
pub(super) type Chunk = Vec<Span<'static>>;

/// Lay out each paragraph's chunks in rows of at most `width` columns, two spaces apart,
/// breaking only between chunks: the header takes exactly the rows it needs.
pub(super) fn pack(paragraphs: Vec<Vec<Chunk>>, width: usize) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    for chunks in paragraphs {
        let mut row: Vec<Span> = Vec::new();
        let mut used = 0;
        for chunk in chunks {
            let w: usize = chunk.iter().map(Span::width).sum();
            if used > 0 && used + 2 + w > width {
                lines.push(Line::from(std::mem::take(&mut row)));
                used = 0;
            }
            if used > 0 {
                row.push(Span::from("  "));
                used += 2;
            }
            row.extend(chunk);
            used += w;
        }
        lines.push(Line::from(row));
    }
    lines
}

/// The chain legend and progress; the live R-hat per traced weight and their maximum; for a
/// finished run the record's R-hat and ESS over all weights.
fn header(run: &LiveRun, t: &ChainTraces) -> Vec<Vec<Chunk>> {
    let s = t.schedule;
    let grey = |text: String| vec![Span::from(text).fg(Color::DarkGray)];
    let mut legend: Vec<Chunk> = (0..t.chains.len())
        .map(|c| {
            vec![
                Span::from("━━").fg(chain_color(c)),
                Span::from(format!("{c}")),
            ]
        })
        .collect();
    legend.push(grey(format!("sweep {}/{}", t.sweeps(), s.sweeps())));
    legend.push(grey(format!("burn-in {}", s.burn_in)));
    if s.thin > 1 {
        legend.push(grey(format!("thin {}", s.thin)));
    }
    legend.push(grey(format!("{} kept/chain", t.kept())));
    if s.burn_in > 0 {
        legend.push(grey(
            "traces: grey line ends the burn-in, y spans the kept draws".into(),
        ));
    }
    let mut rhat: Vec<Chunk> = vec![vec![Span::from("split-R-hat")]];
    match t.rhat_max() {
        None => rhat.push(vec![Span::from(format!(
            "– until every chain has 4 kept draws (after sweep {})",
            s.burn_in
        ))]),
        Some(max) => {
            for (name, &r) in t.names.iter().zip(&t.rhat) {
                let value = Span::from(format!("{r:.3}"));
                let value = if unmixed(r) {
                    value.style(flag())
                } else {
                    value
                };
                rhat.push(vec![Span::from(format!("{name} ")), value]);
            }
            rhat.push(vec![Span::from(format!("max {max:.3} ")), verdict(max)]);
            rhat.push(grey(format!("({} draws/chain)", t.rhat_draws)));
        }
    }
    let mut paragraphs = vec![legend, rhat];
    if let (Some(d), RunState::Done(_)) = (run.diagnostics, &run.state) {
        paragraphs.push(vec![
            vec![Span::from("all weights:")],
            vec![Span::from(format!("split-R-hat max {:.3}", d.rhat_max))],
            vec![
                Span::from(format!("bulk ESS min {:.0} ", d.ess_min)),
                verdict(d.rhat_max),
            ],
        ]);
        if let Some(h) = d.hmc {
            let line = Span::from(format!("HMC {}", h.words()));
            let line = if h.divergent > 0 {
                line.style(flag())
            } else {
                line
            };
            paragraphs.push(vec![vec![line]]);
        }
    }
    paragraphs
}

fn verdict(rhat: f64) -> Span<'static> {
    if unmixed(rhat) {
        Span::styled(format!("NOT MIXED (> {})", Diagnostics::RHAT_LIMIT), flag())
    } else {
        Span::from("mixed").fg(Color::Green)
    }
}

/// Three y ticks that fit in six columns.
fn tick(v: f64) -> String {
    match v.abs() {
        a if a >= 100.0 => format!("{v:.0}"),
        a if a >= 10.0 => format!("{v:.1}"),
        _ => format!("{v:.2}"),
    }
}

/// Traced weight `j`: one line per chain against the sweep.
fn render_weight(t: &ChainTraces, j: usize, area: Rect, buf: &mut Buffer) {
    let budget = 2 * area.width as usize;
    let lines: Vec<Vec<(f64, f64)>> = t
        .chains
        .iter()
        .map(|c| {
            let pts: Vec<(f64, f64)> = c
                .trace
                .iter()
                .map(|(i, w)| ((i + 1) as f64, w[j]))
                .filter(|p| p.1.is_finite())
                .collect();
            thin(&pts, budget)
        })
        .collect();
    // the y axis spans the kept draws once there are any: the over-dispersed starts of the
    // burn-in would squash them into a row or two (the burn-in runs off the chart instead)
    let burn = t.schedule.burn_in as f64;
    let kept = lines.iter().flatten().any(|p| p.0 > burn);
    let (lo, hi) = lines
        .iter()
        .flatten()
        .filter(|p| !kept || p.0 > burn)
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| {
            (a.min(p.1), b.max(p.1))
        });
    let title = match t.rhat.get(j) {
        Some(&r) if unmixed(r) => Line::from(format!(" {} ", t.names[j])).style(flag()),
        _ => Line::from(format!(" {} ", t.names[j])),
    };
    let block = Block::bordered().title(title);
    if lo > hi {
        let inner = block.inner(area);
        block.render(area, buf);
        Line::from("no draws yet").render(inner, buf);
        return;
    }
    let pad = ((hi - lo) * 0.05).max(1e-3 * hi.abs().max(1.0));
    let (lo, hi) = (lo - pad, hi + pad);
    let burn_in = t.schedule.burn_in as f64;
    let marker = [(burn_in, lo), (burn_in, hi)];
    let mut datasets: Vec<Dataset> = Vec::new();
    if t.schedule.burn_in > 0 {
        datasets.push(
            Dataset::default()
                .marker(Marker::Braille)
                .graph_type(GraphType::Line)
                .style(Style::new().fg(Color::DarkGray))
                .data(&marker),
        );
    }
    datasets.extend(lines.iter().enumerate().map(|(c, pts)| {
        Dataset::default()
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(Style::new().fg(chain_color(c)))
            .data(pts)
    }));
    let sweeps = t.schedule.sweeps();
    Chart::new(datasets)
        .block(block)
        .x_axis(
            Axis::default()
                .bounds([0.0, sweeps.max(1) as f64])
                .labels(["0".to_string(), format!("{sweeps}")]),
        )
        .y_axis(Axis::default().bounds([lo, hi]).labels([
            tick(lo),
            tick((lo + hi) / 2.0),
            tick(hi),
        ]))
        .render(area, buf);
}

mod ranks;
#[cfg(test)]
mod tests;
