//! The Posterior screen's coefficient table (key `u`): the chosen run's mean, sd, central 95 %
//! interval, P(w > 0) and, for a logistic model, the odds ratio, on the design scale or in the
//! data's original units; the scale is named in the table's first line. The numbers are the
//! reports' (output/coefficients.rs), so screen and report cannot disagree.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style, Stylize};
use ratatui::text::Line;
use ratatui::widgets::{Cell, Paragraph, Row, Table, Widget};

use bayeslab_core::record::{ExperimentRecord, RunRecord};
use bayeslab_report::coefficients::{coefficients, has_odds, Scale};
use bayeslab_report::tables::sig;

/// The table's rows for `run` on `scale`, or why there are none.
pub fn rows(
    r: &ExperimentRecord,
    run: &RunRecord,
    scale: Scale,
) -> Result<Vec<Row<'static>>, String> {
    let odds = has_odds(run);
    let Some(cs) = coefficients(r, run, scale) else {
        return Err(match scale {
            Scale::Original if r.dataset.standardisation.is_none() => {
                "a feature map made the design columns: they have no original units".into()
            }
            Scale::Original => {
                "the design columns have no original units (centred without an intercept)".into()
            }
            Scale::Design => {
                "this run has no weights with one per design column (see the whiskers, u)".into()
            }
        });
    };
    Ok(cs
        .iter()
        .map(|c| {
            let interval = c
                .interval()
                .map_or("–".into(), |[a, b]| format!("[{}, {}]", sig(a), sig(b)));
            let mut cells = vec![
                Cell::from(c.column.clone()),
                Cell::from(Line::from(sig(c.mean)).right_aligned()),
                Cell::from(Line::from(c.sd.map_or("–".into(), sig)).right_aligned()),
                Cell::from(Line::from(interval).right_aligned()),
                Cell::from(
                    Line::from(c.p_positive().map_or("–".into(), |p| format!("{p:.3}")))
                        .right_aligned(),
                ),
            ];
            if odds {
                cells.push(Cell::from(
                    Line::from(sig(c.odds_ratio().0)).right_aligned(),
                ));
            }
            Row::new(cells)
        })
        .collect())
}

/// Draw the table of `run` on `scale` into `area`, from row `offset`.
pub fn render(
    r: &ExperimentRecord,
    run: &RunRecord,
    scale: Scale,
    offset: usize,
    area: Rect,
    buf: &mut Buffer,
) {
    let standardised = r
        .dataset
        .standardisation
        .as_ref()
        .is_some_and(|s| s.iter().any(|c| c.centre != 0.0 || c.scale != 1.0));
    let [head, body] = Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(area);
    Line::from(format!(" {} · u: next view", scale.name(standardised)))
        .fg(Color::Cyan)
        .render(head, buf);
    let rows = match rows(r, run, scale) {
        Ok(rows) => rows,
        Err(why) => {
            Paragraph::new(why).render(body, buf);
            return;
        }
    };
    let mut header = vec!["column", "mean", "sd", "95 % interval", "P(w>0)"];
    let mut widths = vec![
        Constraint::Min(8),
        Constraint::Length(10),
        Constraint::Length(10),
        Constraint::Length(22),
        Constraint::Length(7),
    ];
    if has_odds(run) {
        header.push("odds ratio");
        widths.push(Constraint::Length(10));
    }
    let header = Row::new(header.into_iter().map(Cell::from))
        .style(Style::default().add_modifier(Modifier::BOLD));
    let shown: Vec<Row> = rows.into_iter().skip(offset).collect();
    Table::new(shown, widths)
        .header(header)
        .column_spacing(1)
        .render(body, buf);
}
