//! The leave-one-out table under the Results screen's metrics: the runs ranked by elpd_loo
//! (record field `loo_comparison`), each with its difference to the best and the paired
//! standard error, and its Pareto k's; the same numbers as the reports' LOO table.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Cell, Widget};

use crate::widget::table::{LabelRow, LabelTable, Value};
use bayeslab_core::record::ExperimentRecord;

/// Lines the table needs (borders and header included); 0 without a LOO.
pub fn height(record: &ExperimentRecord) -> u16 {
    match record.loo_comparison.len() {
        0 => 0,
        n => n as u16 + 3,
    }
}

pub fn render(record: &ExperimentRecord, area: Rect, buf: &mut Buffer) {
    let rows = &record.loo_comparison;
    let tied = rows.iter().skip(1).any(|c| !c.worse_beyond_noise);
    // p_loo and the whole Pareto-k text from this width; narrower, the run names keep room.
    let wide = area.width >= 110;
    // Narrow, one decimal: "-122.6 ± 68.6" fits where "-122.62 ± 68.60" was cut.
    let digits = if wide { 2 } else { 1 };
    let body = rows
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let loo = record
                .runs
                .iter()
                .find(|r| r.id == c.run)
                .and_then(|r| r.loo.as_ref());
            let k = loo.map(|l| k_text(l, wide)).unwrap_or_default();
            let reliable = loo.is_none_or(|l| l.reliable());
            let diff = match i {
                0 => "0".to_string(),
                _ => format!("{:.digits$} ± {:.digits$}", c.elpd_diff, c.total_se()),
            };
            let verdict = match (i, tied, c.worse_beyond_noise) {
                (0, false, _) if rows.len() == 1 => Value::from("only run"),
                (0, false, _) => Value::from("best")
                    .style(Style::new().fg(Color::Green).add_modifier(Modifier::BOLD)),
                (0, true, _) => Value::from("best, tied"),
                (_, _, true) => Value::from("worse").style(Style::new().fg(Color::LightRed)),
                _ => Value::from("tied"),
            };
            let k_cell = match reliable {
                true => Value::from(k),
                false => Value::from(k).style(
                    Style::new()
                        .fg(Color::LightRed)
                        .add_modifier(Modifier::BOLD),
                ),
            };
            let mut cells = vec![
                Value::from(format!("{:.digits$} ± {:.digits$}", c.elpd_loo, c.se)),
                Value::from(diff),
            ];
            if wide {
                cells.push(Value::from(format!("{:.1}", c.p_loo)));
            }
            cells.extend([verdict, k_cell]);
            LabelRow {
                label: c.run.clone(),
                label_style: Style::new(),
                cells,
            }
        })
        .collect();
    let columns: Vec<(&str, u16)> = match wide {
        true => vec![
            ("elpd_loo", 15),
            ("Δ elpd", 14),
            ("p_loo", 6),
            ("verdict", 10),
            ("Pareto k", 44),
        ],
        false => vec![
            ("elpd_loo", 13),
            ("Δ elpd", 13),
            ("verdict", 10),
            ("Pareto k", 19),
        ],
    };
    LabelTable {
        title: Line::from(" leave-one-out elpd (PSIS, training rows); worse: Δ < −2 se "),
        label_header: "run",
        columns: columns
            .into_iter()
            .map(|(h, w)| (Cell::from(h), w))
            .collect(),
        rows: body,
        first: 0,
        keys: "",
    }
    .render(area, buf);
}

/// The table in one line, where it does not fit: "leave-one-out: first gibbs -196.68 ± 11.71;
/// 4 tied with it, 0 worse; 1 with rows k > 0.7 left", shorter when `width` is narrow ("LOO:
/// first gibbs -196.7±11.7; 4 tied, 0 worse; 1 k>0.7 left"), and ending in "…" when even that
/// does not fit.
pub fn summary_line(record: &ExperimentRecord, width: usize) -> Line<'static> {
    Line::from(summary_text(&record.loo_comparison, width))
}

fn summary_text(rows: &[bayeslab_core::record::LooComparison], width: usize) -> String {
    let Some(best) = rows.first() else {
        return String::new();
    };
    let worse = rows.iter().filter(|c| c.worse_beyond_noise).count();
    let tied = rows.len().saturating_sub(1 + worse);
    let unreliable = rows.iter().filter(|c| c.unreliable_rows > 0).count();
    let long = if rows.len() == 1 {
        format!(
            "leave-one-out: {} {:.2} ± {:.2} (the only run with one)",
            best.run, best.elpd_loo, best.se
        )
    } else {
        let mut text = format!(
            "leave-one-out: first {} {:.2} ± {:.2}; {tied} tied with it, {worse} worse",
            best.run, best.elpd_loo, best.se
        );
        if unreliable > 0 {
            text.push_str(&format!("; {unreliable} with rows k > 0.7 left"));
        }
        text
    };
    if long.chars().count() <= width {
        return long;
    }
    let mut short = format!(
        "LOO: first {} {:.1}±{:.1}",
        best.run, best.elpd_loo, best.se
    );
    if rows.len() > 1 {
        short.push_str(&format!("; {tied} tied, {worse} worse"));
    }
    if unreliable > 0 {
        short.push_str(&format!("; {unreliable} k>0.7 left"));
    }
    if short.chars().count() > width {
        short = short
            .chars()
            .take(width.saturating_sub(1))
            .collect::<String>()
            + "…";
    }
    short
}

/// The rows' Pareto k's: every class with the refits where wide ("390 good, 8 BAD (8
/// refitted)"), only those above 0.7 otherwise ("8 BAD, 8 refit", or "all k ≤ 0.7").
fn k_text(l: &bayeslab_core::record::LooRecord, wide: bool) -> String {
    let refitted = l.refitted_rows.len();
    if wide {
        let all = bayeslab_report::tables::loo::k_summary(l);
        return match refitted {
            0 => all,
            n => format!("{all} ({n} refitted)"),
        };
    }
    if l.draws_from == bayeslab_core::record::LooDraws::Exact {
        return "exact".to_string();
    }
    match l.k_counts.bad + l.k_counts.very_bad {
        0 => "all k ≤ 0.7".to_string(),
        n => format!("{n} BAD, {refitted} refit"),
    }
}

#[cfg(test)]
mod tests {
    use super::summary_text;
    use bayeslab_core::record::LooComparison;

    #[test]
    fn the_one_line_summary_shortens_and_marks_a_cut_instead_of_losing_its_end() {
        let row = |run: &str, diff: f64, worse: bool, unreliable: usize| LooComparison {
            run: run.into(),
            elpd_loo: -196.68 + diff,
            se: 11.71,
            elpd_diff: diff,
            se_diff: 0.1,
            mcse_diff: 0.05,
            worse_beyond_noise: worse,
            p_loo: 8.5,
            unreliable_rows: unreliable,
        };
        let rows = vec![
            row("gibbs-logistic", 0.0, false, 0),
            row("laplace", -0.1, false, 0),
            row("probit-laplace", -9.0, true, 6),
        ];
        let text = |w: usize| summary_text(&rows, w);
        let wide = text(120);
        assert!(wide.ends_with("1 with rows k > 0.7 left"), "{wide}");
        let narrow = text(78);
        assert!(narrow.chars().count() <= 78, "{narrow}");
        assert!(narrow.ends_with("1 k>0.7 left"), "{narrow}");
        let tiny = text(30);
        assert_eq!(tiny.chars().count(), 30);
        assert!(tiny.ends_with('…'), "{tiny}");
    }
}
