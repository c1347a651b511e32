//! The method kinds in `bayeslab run --help`, read from the catalogue: each kind with its
//! one-line summary, its predictives (the first is the default order) and its own keys.

use std::fmt::Write;

use bayeslab_core::catalog::{COMMON_KEYS, ROWS};

/// The top-level help's pointer to [`help`]: the kind names, and where their keys are listed.
pub fn pointer() -> String {
    let names: Vec<&str> = ROWS.iter().map(|r| r.name).collect();
    format!(
        "Method kinds: {}.\n`bayeslab run --help` lists every method kind with its predictives and keys.",
        names.join(", ")
    )
}

/// The "Method kinds" section of the long help.
pub fn help() -> String {
    let mut s = format!(
        "Method kinds ([[method]] kind = \"...\"; every kind also takes {}):\n",
        COMMON_KEYS[1..].join(" and ")
    );
    for row in &ROWS {
        let predictives: Vec<&str> = row.predictives.iter().map(|p| p.name()).collect();
        let keys = if row.keys.is_empty() {
            "none of its own".to_string()
        } else {
            row.keys.join(", ")
        };
        let _ = write!(
            s,
            "\n  {}  {}\n      predictives: {}\n      keys: {}\n",
            row.name,
            row.summary,
            predictives.join(", "),
            keys
        );
    }
    s
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_top_level_help_names_every_kind_and_where_its_keys_are() {
        let p = super::pointer();
        for row in &bayeslab_core::catalog::ROWS {
            assert!(p.contains(row.name), "{}", row.name);
        }
        assert!(p.contains(
            "`bayeslab run --help` lists every method kind with its predictives and keys"
        ));
    }

    #[test]
    fn every_kind_is_listed_with_its_keys() {
        let h = super::help();
        for row in &bayeslab_core::catalog::ROWS {
            assert!(h.contains(&format!("\n  {}  ", row.name)), "{}", row.name);
        }
        assert!(h.contains(
            "keys: optimizer, learning_rate, max_iter, tolerance, mc_samples, quadrature_nodes"
        ));
        assert!(h.starts_with(
            "Method kinds ([[method]] kind = \"...\"; every kind also takes id and predictive):"
        ));
    }
}
