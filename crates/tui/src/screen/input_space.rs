//! The input-space panel of the Posterior screen (`i`): for one pair of features, the training
//! points by class (o and +), each predictive's 0.1 / 0.5 / 0.9 contours of p(y = 1) (the
//! exact one in white on top) and the decision boundaries drawn from the main run's posterior
//! (dim); the default pair is the two features of largest |posterior mean weight|, which the
//! panel says, `[` / `]` pick another pair among the four largest, the other features held at
//! their training means, which the panel says too (docs/maths.md §17). The same numbers as the report's figure: the record's
//! `input_space` and `input_space_pairs`.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style, Stylize};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::canvas::{Canvas, Context, Line as Segment};
use ratatui::widgets::{Block, Paragraph, Widget, Wrap};

use bayeslab_core::record::{ExperimentRecord, InputSpace};
use bayeslab_report::plots::clip;

/// The predictives' colours, in surface order (the exact one is white).
const COLOURS: [Color; 6] = [
    Color::Yellow,
    Color::Cyan,
    Color::LightGreen,
    Color::LightMagenta,
    Color::LightBlue,
    Color::LightRed,
];

/// Every pair of features the record drew: the report's first, then the others.
pub fn input_planes(r: &ExperimentRecord) -> Vec<&InputSpace> {
    r.input_space
        .iter()
        .filter(|s| s.unavailable.is_none() && !s.surfaces.is_empty())
        .chain(&r.input_space_pairs)
        .collect()
}

/// Whether surface `k` is the exact run's exact predictive, drawn as the truth.
fn is_truth(s: &InputSpace, k: usize) -> bool {
    s.surfaces[k].predictive == bayeslab_core::catalog::PredictiveKind::Exact
        && s.surfaces[k].run != s.boundary_run
}

pub fn render(r: &ExperimentRecord, pick: usize, area: Rect, buf: &mut Buffer) {
    let planes = input_planes(r);
    if planes.is_empty() {
        let why = r
            .input_space
            .as_ref()
            .and_then(|s| s.unavailable.clone())
            .unwrap_or_else(|| "it needs two features held in memory".into());
        let text = format!("no input-space picture: {why} (i: back to the whiskers)");
        return super::placeholder(&text, area, buf);
    }
    let at = pick.min(planes.len() - 1);
    let s = planes[at];
    // p(y = 1) at 0.1 / 0.5 / 0.9, as the report draws it (not the 50/90/99 % mass levels
    // of weight space's densities)
    let lines = bayeslab_report::plots::surface_lines(s);
    let block = Block::bordered()
        .title(title(s, at, planes.len(), area.width))
        .title_bottom(Line::from(bottom(s)).right_aligned().fg(Color::Cyan));
    let inner = block.inner(area);
    block.render(area, buf);
    let legend = legend(r, s);
    let width = inner.width.max(1) as usize;
    let rows: usize = legend
        .iter()
        .map(|l| l.width().div_ceil(width).max(1))
        .sum();
    let rows = rows.clamp(1, 6) as u16;
    let [plot, keys] =
        Layout::vertical([Constraint::Min(0), Constraint::Length(rows)]).areas(inner);
    Canvas::default()
        .marker(Marker::Braille)
        .x_bounds(s.x)
        .y_bounds(s.y)
        .paint(|ctx| {
            for c in &s.boundaries {
                if let Some([p, q]) = clip(*c, s.x, s.y) {
                    ctx.draw(&Segment::new(p.0, p.1, q.0, q.1, Color::DarkGray));
                }
            }
            ctx.layer();
            let approximations = lines.iter().enumerate().filter(|(i, _)| !is_truth(s, *i));
            for (k, (_, ls)) in approximations.enumerate() {
                for l in ls {
                    draw(ctx, l, COLOURS[k % COLOURS.len()]);
                }
            }
            ctx.layer();
            for (_, ls) in lines.iter().enumerate().filter(|(i, _)| is_truth(s, *i)) {
                for l in ls {
                    draw(ctx, l, Color::White);
                }
            }
            ctx.layer();
            for row in &s.rows {
                let (mark, colour) = match row[2] >= 0.5 {
                    true => ("+", Color::LightRed),
                    false => ("o", Color::LightBlue),
                };
                ctx.print(row[0], row[1], Span::from(mark).fg(colour).bold());
            }
        })
        .render(plot, buf);
    Paragraph::new(legend)
        .wrap(Wrap { trim: true })
        .render(keys, buf);
}

/// The title, short at narrow widths so that nothing is cut.
fn title(s: &InputSpace, at: usize, n: usize, width: u16) -> String {
    let (a, b) = (&s.features[0], &s.features[1]);
    let long = format!(
        " Input space: p(y=1) over ({a}, {b}) — contours 0.1/0.5/0.9 · pair {}/{n} ([ ]) · i: whiskers ",
        at + 1
    );
    match long.chars().count() + 4 > width as usize {
        true => format!(" ({a}, {b}) 0.1/0.5/0.9 · pair {}/{n} [ ] ", at + 1),
        false => long,
    }
}

/// The bottom border: the axes' ranges in original units.
fn bottom(s: &InputSpace) -> String {
    format!(
        " x {} {:.1}…{:.1} · y {} {:.1}…{:.1} · original units ",
        s.features[0], s.x[0], s.x[1], s.features[1], s.y[0], s.y[1]
    )
}

/// Each predictive in its colour, the truth, the points and boundaries, and the features held
/// at their means (the second line).
fn legend<'a>(r: &ExperimentRecord, s: &'a InputSpace) -> Vec<Line<'a>> {
    let class = |k: usize| r.dataset.classes.get(k).cloned().unwrap_or_default();
    let mut spans = vec![
        Span::from(format!("o {} ", class(0))).fg(Color::LightBlue),
        Span::from(format!("+ {}  ", class(1))).fg(Color::LightRed),
    ];
    let mut k = 0;
    for (i, sf) in s.surfaces.iter().enumerate() {
        if is_truth(s, i) {
            continue;
        }
        spans.push(Span::styled(
            format!("{}/{}  ", sf.run, sf.predictive),
            Style::new().fg(COLOURS[k % COLOURS.len()]),
        ));
        k += 1;
    }
    for sf in s
        .surfaces
        .iter()
        .enumerate()
        .filter(|(i, _)| is_truth(s, *i))
    {
        spans.push(Span::from(format!("━ {}/exact  ", sf.1.run)).add_modifier(Modifier::BOLD));
    }
    spans.push(
        Span::from(format!(
            "grey: {} boundaries from {}'s posterior",
            s.boundaries.len(),
            s.boundary_run
        ))
        .fg(Color::DarkGray),
    );
    let held = match s.others_at_mean.is_empty() {
        true => "no other features".to_string(),
        false => format!(
            "other features at their training means: {}",
            bayeslab_report::plots::held_features(&s.others_at_mean)
        ),
    };
    let mut lines = vec![Line::from(spans)];
    if let Some(c) = &s.chosen {
        let left_out = c.left_out().map(|l| format!(" · {l}")).unwrap_or_default();
        lines.push(Line::from(format!("{}{left_out}", c.describe())).fg(Color::Cyan));
    }
    lines.push(Line::from(held).fg(Color::Cyan));
    lines
}

fn draw(ctx: &mut Context<'_>, line: &[(f64, f64)], color: Color) {
    for w in line.windows(2) {
        ctx.draw(&Segment::new(w[0].0, w[0].1, w[1].0, w[1].1, color));
    }
}
