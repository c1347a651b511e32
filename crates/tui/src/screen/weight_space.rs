//! The weight-space panel of the Posterior screen (`w`): for one pair of weights, each
//! Gaussian approximation's ellipses holding 50 %, 90 % and 99 % of its mass, its mean marked
//! with its number, and the exact posterior's contours (a quadrature run's, else a sampler run's
//! draws', else a slice through the mode, said in red) in white on top with × at its mode; `[` / `]` pick another pair (docs/maths.md §15). The same geometry as
//! the report's figure (output/contour.rs).

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style, Stylize};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::canvas::{Canvas, Line as Segment};
use ratatui::widgets::{Block, Paragraph, Widget, Wrap};

use bayeslab_core::record::{ExactSource, ExperimentRecord};
use bayeslab_report::contour::{self, LEVELS};

/// The series' colours (the numbers at their means tell them apart without colour).
const COLOURS: [Color; 8] = [
    Color::Cyan,
    Color::Yellow,
    Color::LightGreen,
    Color::LightMagenta,
    Color::LightRed,
    Color::LightBlue,
    Color::Green,
    Color::Magenta,
];

/// The index into [`contour::pairs`] of the pair shown: the user's pick, else the default.
pub fn pair_index(r: &ExperimentRecord, pick: Option<usize>) -> usize {
    let all = contour::pairs(r.dataset.columns.len());
    let default = contour::default_pair(r)
        .and_then(|p| all.iter().position(|q| *q == p))
        .unwrap_or(0);
    pick.unwrap_or(default).min(all.len().saturating_sub(1))
}

type Polyline = Vec<(f64, f64)>;

pub fn render(r: &ExperimentRecord, pick: Option<usize>, area: Rect, buf: &mut Buffer) {
    let all = contour::pairs(r.dataset.columns.len());
    let gaussians = contour::gaussian_runs(r);
    let exact = contour::exact(r);
    if all.is_empty() || (gaussians.is_empty() && exact.is_none()) {
        return super::placeholder(
            "no weight-space picture: it needs two weights and a run with a Gaussian posterior or a quadrature run (w: back to the whiskers)",
            area,
            buf,
        );
    }
    let at = pair_index(r, pick);
    let pair = all[at];
    let name = |k: usize| r.dataset.columns.get(k).cloned().unwrap_or_default();
    let rings: Vec<Vec<Polyline>> = gaussians
        .iter()
        .map(|run| match contour::marginal(run, pair) {
            Some((mu, s)) => LEVELS
                .iter()
                .map(|m| contour::ellipse(mu, s, *m, 120))
                .collect(),
            None => Vec::new(),
        })
        .collect();
    let density = exact.as_ref().and_then(|e| e.of(pair));
    let truth: Vec<Polyline> = density.map_or(Vec::new(), |p| {
        contour::exact_lines(p).into_iter().flatten().collect()
    });
    let (x, y) = bounds(rings.iter().flatten().chain(&truth));
    let long = format!(
        " Weight space: ({}, {}) — 50/90/99 % regions · pair {}/{} ([ ]) · w: whiskers ",
        name(pair[0]),
        name(pair[1]),
        at + 1,
        all.len()
    );
    // the short title at narrow widths, so that nothing is cut
    let title = match long.chars().count() + 4 > area.width as usize {
        true => format!(
            " ({}, {}) 50/90/99 % · pair {}/{} [ ] ",
            name(pair[0]),
            name(pair[1]),
            at + 1,
            all.len()
        ),
        false => long,
    };
    let scale = r.dataset.weights_scale_short();
    let bottom = format!(
        " x {} {:.2}…{:.2} · y {} {:.2}…{:.2} · {scale} ",
        name(pair[0]),
        x[0],
        x[1],
        name(pair[1]),
        y[0],
        y[1]
    );
    let block = Block::bordered()
        .title(title)
        .title_bottom(Line::from(bottom).right_aligned().fg(Color::Cyan));
    let inner = block.inner(area);
    block.render(area, buf);
    let mut legend: Vec<Span> = Vec::new();
    for (k, run) in gaussians.iter().enumerate() {
        let flag = run.flag().map(|f| format!(" {f}")).unwrap_or_default();
        let mf = if run.mean_field { " mean-field" } else { "" };
        legend.push(Span::styled(
            format!("{} {}{mf}{flag}  ", k + 1, run.id),
            Style::new().fg(COLOURS[k % COLOURS.len()]),
        ));
    }
    legend.push(match &exact {
        Some(e) if density.is_some() => match e.source {
            ExactSource::Quadrature => {
                Span::from(format!("━ exact ({}), × its mode", e.run)).add_modifier(Modifier::BOLD)
            }
            ExactSource::Draws => {
                Span::from(format!("━ marginal of {}'s draws, × its mode", e.run))
                    .add_modifier(Modifier::BOLD)
            }
            ExactSource::Slice => Span::from(format!(
                "━ slice through the mode, not a marginal ({}), ×",
                e.run
            ))
            .fg(Color::LightRed)
            .add_modifier(Modifier::BOLD),
        },
        Some(e) => Span::from(format!(
            "no exact contours for this pair (kept for {} pairs)",
            e.pairs.len()
        ))
        .fg(Color::LightRed),
        None => Span::from("no exact posterior: add a quadrature (≤ 3 weights) or sampler run")
            .fg(Color::LightRed),
    });
    let chars: usize = legend.iter().map(|s| s.content.chars().count()).sum();
    let rows = chars.div_ceil(inner.width.max(1) as usize).clamp(1, 4) as u16;
    let legend = Paragraph::new(Line::from(legend)).wrap(Wrap { trim: true });
    let [plot, keys] =
        Layout::vertical([Constraint::Min(0), Constraint::Length(rows)]).areas(inner);
    Canvas::default()
        .marker(Marker::Braille)
        .x_bounds(x)
        .y_bounds(y)
        .paint(|ctx| {
            for (k, run_rings) in rings.iter().enumerate() {
                let colour = COLOURS[k % COLOURS.len()];
                for ring in run_rings {
                    draw(ctx, ring, colour);
                }
            }
            ctx.layer();
            for line in &truth {
                draw(ctx, line, Color::White);
            }
            ctx.layer();
            for (k, run) in gaussians.iter().enumerate() {
                if let Some((mu, _)) = contour::marginal(run, pair) {
                    let colour = COLOURS[k % COLOURS.len()];
                    ctx.print(
                        mu[0],
                        mu[1],
                        Span::from(format!("{}", k + 1)).fg(colour).bold(),
                    );
                }
            }
            if let Some(p) = density {
                let (mx, my) = contour::mode(p);
                ctx.print(mx, my, Span::from("×").fg(Color::White).bold());
            }
        })
        .render(plot, buf);
    legend.render(keys, buf);
}

fn draw(ctx: &mut ratatui::widgets::canvas::Context<'_>, line: &[(f64, f64)], color: Color) {
    for w in line.windows(2) {
        ctx.draw(&Segment {
            x1: w[0].0,
            y1: w[0].1,
            x2: w[1].0,
            y2: w[1].1,
            color,
        });
    }
}

/// The canvas's bounds: every line, padded by 5 %.
fn bounds<'a>(lines: impl Iterator<Item = &'a Polyline>) -> ([f64; 2], [f64; 2]) {
    let (mut x, mut y) = (
        [f64::INFINITY, f64::NEG_INFINITY],
        [f64::INFINITY, f64::NEG_INFINITY],
    );
    for &(u, v) in lines
        .flatten()
        .filter(|p| p.0.is_finite() && p.1.is_finite())
    {
        x = [x[0].min(u), x[1].max(u)];
        y = [y[0].min(v), y[1].max(v)];
    }
    let pad = |r: [f64; 2]| match r[1] > r[0] {
        true => [r[0] - 0.05 * (r[1] - r[0]), r[1] + 0.05 * (r[1] - r[0])],
        false => [-1.0, 1.0],
    };
    (pad(x), pad(y))
}
