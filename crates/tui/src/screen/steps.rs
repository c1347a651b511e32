//! The step-by-step mode of the Posterior screen (`s`): one recorded step of a fit at a time,
//! `n` / `N` for the next and previous, Up/Down for the run (docs/maths.md §18). Newton's
//! iterates and ADF's examples in weight space: the step's 50 % and 90 % ellipses in cyan, its
//! mean ●, Newton's path so far in grey, ADF's new example's line y_i phi_i^T w = 0 in grey, and
//! the exact posterior's contours in white; the axes are the whole run's, so that the ellipse is
//! seen moving and contracting. EP's site updates in the site's direction t = y_i phi_i^T w:
//! before (grey), cavity (cyan), tilted (white) and new (yellow). The same geometry as the
//! report's strip (output/steps.rs).

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Stylize};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::canvas::{Canvas, Context, Line as Segment};
use ratatui::widgets::{Block, Paragraph, Widget, Wrap};

use crate::picks::Picks;
use bayeslab_core::record::{ExperimentRecord, FitStep, FitSteps, RunRecord, StepKind};
use bayeslab_report::steps::{self as geometry, Polyline};

pub fn render(r: &ExperimentRecord, picks: &Picks, area: Rect, buf: &mut Buffer) {
    let runs = geometry::stepped_runs(r);
    let Some(&run) = runs.get(picks.step_run.min(runs.len().saturating_sub(1))) else {
        return super::placeholder(
            "no recorded steps: set [evaluation] record_steps = true (models with at most 3 weights; \
             Newton, EP and ADF kinds), e.g. experiments/pictures_steps.toml (s: back)",
            area,
            buf,
        );
    };
    let Some(record) = run.steps.as_ref() else {
        return;
    };
    let at = picks.step.min(record.steps.len() - 1);
    let step = &record.steps[at];
    let flag = run.flag().map(|f| format!(" {f}")).unwrap_or_default();
    let long = format!(
        " Steps of {}{flag} ({}): {} · step {}/{} · n/N step, ↑↓ run {}/{}, s: off ",
        run.id,
        run.kind,
        record.kind.title(),
        at + 1,
        record.steps.len(),
        picks.step_run.min(runs.len() - 1) + 1,
        runs.len()
    );
    let title = match long.chars().count() + 4 > area.width as usize {
        true => format!(
            " {}{flag} · step {}/{} · n/N, ↑↓ run, s ",
            run.id,
            at + 1,
            record.steps.len()
        ),
        false => long,
    };
    let block = Block::bordered().title(title).title_bottom(
        Line::from(format!(" {} ", axes(r, record.kind)))
            .right_aligned()
            .fg(Color::Cyan),
    );
    let inner = block.inner(area);
    block.render(area, buf);
    let text = describe(run, record, step);
    let rows = (text.chars().count().div_ceil(inner.width.max(1) as usize) as u16).clamp(1, 3);
    let [plot, legend, words] = Layout::vertical([
        Constraint::Min(0),
        Constraint::Length(1),
        Constraint::Length(rows),
    ])
    .areas(inner);
    match record.kind {
        StepKind::EpSite => site(step, plot, buf),
        kind => weights(r, run, record, at, kind, plot, buf),
    }
    Paragraph::new(keys(record.kind, geometry::exact_for(r, run).is_some())).render(legend, buf);
    Paragraph::new(text)
        .wrap(Wrap { trim: true })
        .render(words, buf);
}

fn axes(r: &ExperimentRecord, kind: StepKind) -> String {
    let pair = geometry::pair(r);
    let name = |k: usize| r.dataset.columns.get(k).cloned().unwrap_or_default();
    match kind {
        StepKind::EpSite => "x: t = y_i phi_i^T w · y: density".into(),
        _ => format!(
            "x {} · y {} · {}",
            name(pair[0]),
            name(pair[1]),
            r.dataset.weights_scale_short()
        ),
    }
}

fn keys(kind: StepKind, exact: bool) -> Line<'static> {
    let mut spans = match kind {
        StepKind::EpSite => vec![
            Span::from("─ before  ").fg(Color::DarkGray),
            Span::from("─ cavity  ").fg(Color::Cyan),
            Span::from("━ tilted  ").fg(Color::White).bold(),
            Span::from("─ new").fg(Color::Yellow),
        ],
        _ => vec![Span::from("◯ 50/90 % of the step's Gaussian, ● mean  ").fg(Color::Cyan)],
    };
    if kind == StepKind::AdfExample {
        spans.push(Span::from("─ new example  ").fg(Color::DarkGray));
    }
    if kind != StepKind::EpSite {
        spans.push(match exact {
            true => Span::from("━ exact").fg(Color::White).bold(),
            false => Span::from("no exact run").fg(Color::LightRed),
        });
    }
    Line::from(spans)
}

/// What the step is, in numbers.
fn describe(run: &RunRecord, record: &FitSteps, step: &FitStep) -> String {
    let sd = |k: usize| step.cov[k][k].max(0.0).sqrt();
    let mean: Vec<String> = (0..step.mean.len())
        .map(|k| format!("{:.3}±{:.3}", step.mean[k], sd(k)))
        .collect();
    let head = match (record.kind, &step.site) {
        (StepKind::AdfExample, Some(s)) => {
            format!("n = {} (newest: row {})", step.index, s.row + 1)
        }
        (kind, _) => geometry::panel_title(kind, step),
    };
    let cut = match record.total > record.steps.len() {
        true => format!(
            " (first {} of {} recorded)",
            record.steps.len(),
            record.total
        ),
        false => String::new(),
    };
    let last = step.index == record.steps.last().map_or(0, |s| s.index);
    let end = match (record.kind, last && record.total == record.steps.len()) {
        (StepKind::Newton, true) => " — the mode: this is the Laplace approximation".to_string(),
        (_, true) => format!(" — the {} posterior", run.id),
        _ => String::new(),
    };
    match &step.site {
        Some(s) => format!(
            "{head}{cut}: cavity N({:.3}, {:.3}), tilted mean {:.3} var {:.3}; after: w = {}{end}",
            s.cavity[0],
            s.cavity[1],
            s.tilted[0],
            s.tilted[1],
            mean.join(", ")
        ),
        None => format!("{head}{cut}: w = {}{end}", mean.join(", ")),
    }
}

fn weights(
    r: &ExperimentRecord,
    run: &RunRecord,
    record: &FitSteps,
    at: usize,
    kind: StepKind,
    area: Rect,
    buf: &mut Buffer,
) {
    let pair = geometry::pair(r);
    let truth = geometry::exact_lines(geometry::exact_for(r, run), pair);
    let (x, y) = geometry::bounds(&record.steps, &truth, pair);
    let step = &record.steps[at];
    let rings = geometry::ellipses(step, pair, 120);
    let path: Polyline = record.steps[..=at]
        .iter()
        .filter_map(|s| s.marginal(pair).map(|(m, _)| (m[0], m[1])))
        .collect();
    let line = step
        .site
        .as_ref()
        .and_then(|s| geometry::example_line(s, x, y));
    Canvas::default()
        .marker(Marker::Braille)
        .x_bounds(x)
        .y_bounds(y)
        .paint(|ctx| {
            for l in &truth {
                draw(ctx, l, Color::White);
            }
            ctx.layer();
            if let Some(l) = &line {
                draw(ctx, l, Color::DarkGray);
            }
            if kind == StepKind::Newton {
                draw(ctx, &path, Color::DarkGray);
            }
            for ring in &rings {
                draw(ctx, ring, Color::Cyan);
            }
            ctx.layer();
            if let Some(&(u, v)) = path.last() {
                ctx.print(u, v, Span::from("●").fg(Color::Cyan).bold());
            }
        })
        .render(area, buf);
}

fn site(step: &FitStep, area: Rect, buf: &mut Buffer) {
    let Some(c) = geometry::site_curves(step, 160) else {
        return;
    };
    let top = [&c.old, &c.cavity, &c.tilted, &c.new]
        .iter()
        .flat_map(|l| l.iter().map(|p| p.1))
        .fold(0.0, f64::max);
    let (lo, hi) = (c.cavity[0].0, c.cavity[c.cavity.len() - 1].0);
    Canvas::default()
        .marker(Marker::Braille)
        .x_bounds([lo, hi])
        .y_bounds([0.0, top * 1.05])
        .paint(|ctx| {
            draw(ctx, &c.old, Color::DarkGray);
            draw(ctx, &c.cavity, Color::Cyan);
            ctx.layer();
            draw(ctx, &c.tilted, Color::White);
            ctx.layer();
            draw(ctx, &c.new, Color::Yellow);
        })
        .render(area, buf);
}

fn draw(ctx: &mut Context<'_>, line: &[(f64, f64)], color: Color) {
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
