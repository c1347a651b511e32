//! The approximation-error table under the Results screen's metrics: each approximation's
//! predictive against the gold standard (a sampler or quadrature run) of the same experiment, with the PSIS
//! k-hat of its Gaussian posterior coloured by the PSIS thresholds (record field
//! `approximation_error`, built by crates/engine/src/run/gold.rs); it scrolls with PgUp/PgDn.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Cell, Widget};

use crate::widget::table::{LabelRow, LabelTable, Value};
use bayeslab_core::numeric::psis::KClass;
use bayeslab_core::record::ApproximationError;

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

/// `other`: the key that shows the evidence table instead, when the two do not both fit.
/// How the gold runs that `rows` refer to reached the exact posterior, for the table's title:
/// `Gibbs`, `HMC`, `quadrature`, or several joined by `/`.
pub fn sources(rows: &[ApproximationError], runs: &[bayeslab_core::record::RunRecord]) -> String {
    let mut names: Vec<&str> = rows
        .iter()
        .filter_map(|e| runs.iter().find(|r| r.id == e.reference))
        .filter_map(|r| r.kind.family().gold_name())
        .collect();
    names.sort_unstable();
    names.dedup();
    names.join("/")
}

pub fn render(
    rows: &[ApproximationError],
    first: usize,
    area: Rect,
    buf: &mut Buffer,
    other: Option<&str>,
    gold: &str,
) {
    let wide = area.width >= WIDE;
    let signed = |v: f64| format!("{v:+.4}");
    let gold_width = rows
        .iter()
        .map(|e| e.reference.chars().count())
        .max()
        .unwrap_or(0)
        .clamp(4, 12) as u16;
    let mut columns = vec![("gold", gold_width), ("mean|Δp|", 9)];
    if wide {
        columns.extend([("max|Δp|", 9), ("mean KL", 9), ("Δ ECE", 9)]);
    }
    columns.extend([("Δ logloss", 9), ("Δmean/sd", 9), ("sd ratio", 9)]);
    columns.push(("k-hat", 9));
    let body = rows
        .iter()
        .map(|e| {
            let mut cells = vec![
                Value::from(e.reference.clone()),
                Value::from(format!("{:.4}", e.mean_abs_diff)),
            ];
            if wide {
                cells.extend([
                    Value::from(format!("{:.4}", e.max_abs_diff)),
                    Value::from(format!("{:.1e}", e.mean_kl)),
                    Value::from(signed(e.ece_diff)),
                ]);
            }
            cells.extend([
                Value::from(signed(e.log_loss_diff)),
                Value::from(super::num(e.mean_err_sd_units)),
                Value::from(super::num(e.sd_ratio_max)),
                khat_cell(e.khat, e.khat_draws),
            ]);
            LabelRow {
                label: format!("{}/{}", e.run, e.predictive),
                label_style: Style::new(),
                cells,
            }
        })
        .collect();
    LabelTable {
        title: Line::from(match other {
            None => {
                format!(" vs the exact posterior ({gold}); k-hat > 0.7: distrust the Gaussian ")
            }
            Some(key) => {
                format!(" vs the exact posterior ({gold}); k-hat > 0.7: distrust · {key} ")
            }
        }),
        label_header: "run/predictive",
        columns: columns
            .into_iter()
            .map(|(h, w)| (Cell::from(h), w))
            .collect(),
        rows: body,
        first,
        keys: "PgUp/PgDn",
    }
    .render(area, buf);
}

/// k-hat with its PSIS verdict for its draws (Vehtari et al. 2024): green when good, yellow
/// when more draws are needed, beyond 0.7 `BAD` in bold red.
pub(super) fn khat_cell(k: Option<f64>, draws: Option<usize>) -> Value {
    let Some(k) = k else {
        return Value::from("–");
    };
    let class = KClass::of(
        k,
        draws.unwrap_or(bayeslab_core::model::importance::KHAT_DRAWS),
    );
    let text = format!("{k:.2} {}", class.label());
    match class {
        KClass::Good => Value::from(text).style(Style::new().fg(Color::Green)),
        KClass::MoreDraws => Value::from(text).style(Style::new().fg(Color::Yellow)),
        _ => Value::from(text).style(
            Style::new()
                .fg(Color::LightRed)
                .add_modifier(Modifier::BOLD),
        ),
    }
}
