//! Results of an approximation lab (no `[[method]]`, only `[[posterior]]` tables): no
//! classifier to score, so the screen says so and shows what the lab found instead — for each
//! posterior and subset, the approximation closest to the exact posterior and the farthest,
//! by KL(exact ‖ approximation) — and where to look next (7 Reparam draws them).

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style, Stylize};
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph, Row, Table, Widget, Wrap};

use crate::widget::names::fit;
use bayeslab_core::record::PosteriorResult;

/// An approximation's name and its KL from the exact density.
type NamedKl<'a> = (&'a str, f64);

/// The closest and the farthest approximation of `p` by KL: (name, KL) each.
pub(crate) fn extremes(p: &PosteriorResult) -> Option<(NamedKl<'_>, NamedKl<'_>)> {
    let by_kl = |a: &&bayeslab_core::record::ApproxResult,
                 b: &&bayeslab_core::record::ApproxResult| a.kl.total_cmp(&b.kl);
    let best = p.approximations.iter().min_by(by_kl)?;
    let worst = p.approximations.iter().max_by(by_kl)?;
    Some(((best.name.name(), best.kl), (worst.name.name(), worst.kl)))
}

pub(super) fn render(posteriors: &[PosteriorResult], area: Rect, buf: &mut Buffer) {
    let note = "An approximation lab: no classifier runs, so no log-loss, Brier or calibration \
                to score. What it found is below; 7 Reparam draws each approximation over the \
                exact density (←/→ subset, ↑/↓ posterior), e exports the report.";
    // the note's rows when wrapped inside the borders, one spare for word breaks
    let inner = usize::from(area.width.saturating_sub(2)).max(1);
    let rows = (note.chars().count().div_ceil(inner) + 1) as u16;
    let [top, table] =
        Layout::vertical([Constraint::Length(rows + 2), Constraint::Fill(1)]).areas(area);
    Paragraph::new(note)
        .wrap(Wrap { trim: true })
        .fg(Color::Gray)
        .block(Block::bordered().title(" Results "))
        .render(top, buf);
    let ids: Vec<&str> = posteriors.iter().map(|p| p.id.as_str()).collect();
    let id_width = usize::from(area.width.saturating_sub(2 + 5 + 2 * 19 + 4)).clamp(8, 28);
    let short = fit(&ids, id_width);
    let rows = posteriors.iter().zip(short).map(|(p, id)| {
        let (best, worst) = match extremes(p) {
            Some(((b, bk), (w, wk))) => (
                format!("{} {bk:.4}", fit(&[b], 11)[0]),
                format!("{} {wk:.4}", fit(&[w], 11)[0]),
            ),
            None => ("–".into(), "–".into()),
        };
        Row::new([id, p.n.to_string(), best, worst])
    });
    let header = Row::new(["posterior", "n", "closest   KL", "farthest  KL"])
        .style(Style::new().add_modifier(Modifier::BOLD));
    Table::new(
        rows,
        [
            Constraint::Length(id_width as u16),
            Constraint::Length(5),
            Constraint::Length(18),
            Constraint::Length(18),
        ],
    )
    .header(header)
    .column_spacing(1)
    .block(Block::bordered().title(Line::from(
        " each [[posterior]]: its approximations by KL(exact ‖ approx) ",
    )))
    .render(table, buf);
}
