//! method-kinds.md: every row of the catalogue (crates/core/src/catalog/table.rs).

use std::fmt::Write;

use bayeslab_core::catalog::{Row, COMMON_KEYS, ROWS};

use super::header;

pub fn page() -> String {
    let mut s = header(
        "Method kinds",
        "the catalogue, crates/core/src/catalog/table.rs",
    );
    let _ = writeln!(
        s,
        "Every `[[method]] kind`, with the predictives it offers (the first listed is evaluated \
         first; all are evaluated unless `predictive` names some) and the keys it accepts besides \
         {}. [Method kinds](../methods.md) explains what each fits and how; \
         [Experiment files](../experiment-keys.md) what each key means.\n",
        COMMON_KEYS.map(|k| format!("`{k}`")).join(", ")
    );
    s.push_str(
        "| kind | predictives | its own keys | posterior | log evidence | classes | streams |\n",
    );
    s.push_str("|---|---|---|---|---|---|---|\n");
    for row in &ROWS {
        let _ = writeln!(
            s,
            "| `{}` | {} | {} | {} | {} | {} | {} |",
            row.name,
            predictives(row),
            keys(row),
            posterior(row),
            log_evidence(row),
            if row.binary_only {
                "two"
            } else {
                "two or more"
            },
            if row.streams { "yes" } else { "no" }
        );
    }
    for row in &ROWS {
        let _ =
            write!(
            s,
            "\n## `{}`\n\n{}.\n\n- family: {:?}; fitting: {:?}\n- predictives: {}\n- keys: {}\n\
             - prior: {}\n- posterior: {}\n- log evidence: {}\n- classes: {}\n- streams: {}\n\
             - when the fit degenerates: {}\n",
            row.name,
            capitalised(row.summary),
            row.family,
            row.fitting,
            predictives(row),
            keys(row),
            if row.weight_prior {
                "the Gaussian `[prior] precision` on the weights"
            } else {
                "none on weights (`[prior]` does not apply)"
            },
            posterior(row),
            log_evidence(row),
            if row.binary_only { "two" } else { "two or more" },
            if row.streams {
                "yes, under `[data] streaming = true`"
            } else {
                "no (in memory only)"
            },
            row.advice
        );
        if let Some(l) = row.likelihood {
            let _ = writeln!(s, "- likelihood: {l:?}");
        }
        if row.evidence_from.is_some() {
            s.push_str("- `[prior] precision = \"evidence\"` can choose its λ\n");
        }
    }
    s
}

fn predictives(row: &Row) -> String {
    let names: Vec<String> = row
        .predictives
        .iter()
        .map(|p| format!("`{}`", p.name()))
        .collect();
    names.join(", ")
}

fn keys(row: &Row) -> String {
    if row.keys.is_empty() {
        return "none".into();
    }
    let names: Vec<String> = row.keys.iter().map(|k| format!("`{k}`")).collect();
    names.join(", ")
}

fn posterior(row: &Row) -> &'static str {
    match (row.posterior, row.class_posterior) {
        (true, _) => "over the weights",
        (false, true) => "over the class parameters",
        (false, false) => "none (a point estimate)",
    }
}

fn log_evidence(row: &Row) -> &'static str {
    row.log_evidence.map_or("none", |l| l.label(false))
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}
