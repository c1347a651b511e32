//! The approximation-error table under the Results screen's metrics: each approximation's
//! predictive against the gold standard (a Gibbs run) of the same experiment, with the PSIS
//! k-hat of its Gaussian posterior coloured by the PSIS thresholds (record field
//! `approximation_error`, built by src/gold.rs).

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::{Color, Modifier, Style, Stylize};
use ratatui::widgets::{Block, Cell, Row, Table, Widget};

use crate::model::importance::khat_verdict;
use crate::record::ApproximationError;

/// Width from which every column is shown; narrower screens get the compact set.
const WIDE: u16 = 110;

/// Lines the table needs for `rows` entries (borders and header included).
pub fn height(rows: usize) -> u16 {
    if rows == 0 {
        0
    } else {
        rows as u16 + 3
    }
}

pub fn render(rows: &[ApproximationError], area: Rect, buf: &mut Buffer) {
    let wide = area.width >= WIDE;
    let signed = |v: f64| format!("{v:+.4}");
    let mut headers = vec!["run/predictive", "gold", "mean|Δp|"];
    if wide {
        headers.extend(["max|Δp|", "mean KL", "Δ ECE"]);
    }
    headers.extend(["Δ logloss", "Δmean/sd", "sd ratio", "k-hat"]);
    let body = rows.iter().map(|e| {
        let mut cells = vec![
            Cell::from(format!("{}/{}", e.run, e.predictive)),
            Cell::from(e.reference.clone()),
            Cell::from(format!("{:.4}", e.mean_abs_diff)),
        ];
        if wide {
            cells.extend([
                Cell::from(format!("{:.4}", e.max_abs_diff)),
                Cell::from(format!("{:.1e}", e.mean_kl)),
                Cell::from(signed(e.ece_diff)),
            ]);
        }
        cells.extend([
            Cell::from(signed(e.log_loss_diff)),
            Cell::from(super::num(e.mean_err_sd_units)),
            Cell::from(super::num(e.sd_ratio_max)),
            khat_cell(e.khat),
        ]);
        Row::new(cells)
    });
    let mut widths = vec![Constraint::Min(14), Constraint::Length(12)];
    let numeric = if wide { 8 } else { 5 };
    widths.extend(std::iter::repeat_n(Constraint::Length(9), numeric - 1));
    widths.push(Constraint::Length(10));
    Table::new(body, widths)
        .header(Row::new(headers).style(Style::new().add_modifier(Modifier::BOLD)))
        .column_spacing(1)
        .block(
            Block::bordered()
                .title(" vs the exact posterior (Gibbs); k-hat > 0.7: distrust the Gaussian "),
        )
        .render(area, buf);
}

/// k-hat with its PSIS verdict: green below 0.5, yellow to 0.7, red beyond.
fn khat_cell(k: Option<f64>) -> Cell<'static> {
    let Some(k) = k else {
        return Cell::from("–");
    };
    let text = crate::output::tables::khat_text(Some(k));
    match khat_verdict(k) {
        "good" => Cell::from(text).fg(Color::Green),
        "ok" => Cell::from(text).fg(Color::Yellow),
        _ => Cell::from(text)
            .fg(Color::LightRed)
            .add_modifier(Modifier::BOLD),
    }
}
