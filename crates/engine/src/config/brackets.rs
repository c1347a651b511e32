//! `[method]` where `[[method]]` was meant. An experiment lists its methods (and posteriors) as
//! arrays of tables; a single-bracket header makes one plain table, which serde reports as
//! "invalid type: map, expected a sequence" — true, but it names neither the key nor the fix.

use std::path::Path;

use bayeslab_core::error::{Error, Result};

/// The top-level keys that must be arrays of tables, one table per entry.
const LISTS: [&str; 2] = ["method", "posterior"];

/// Refuse `[method]` / `[posterior]` (or `method = { ... }`) with the double-bracket fix.
pub fn check(doc: &toml::Table, text: &str, path: &Path) -> Result<()> {
    for key in LISTS {
        if let Some(toml::Value::Table(_)) = doc.get(key) {
            let header = format!("[{key}]");
            let at = text
                .lines()
                .position(|l| l.trim_start().starts_with(&header))
                .map(|i| format!(" at line {}", i + 1))
                .unwrap_or_default();
            return Err(Error::config(
                path,
                format!(
                    "`{header}`{at} is a single table, but an experiment lists each {key} in its own table: \
                     write `[[{key}]]` (double brackets), one `[[{key}]]` table per {key}"
                ),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(text: &str) -> String {
        let doc: toml::Table = toml::from_str(text).unwrap();
        check(&doc, text, Path::new("x.toml"))
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn names_the_double_brackets_and_the_line() {
        let m = message("name = \"x\"\n\n[method]\nkind = \"logistic-map\"\n");
        assert!(m.contains("`[method]` at line 3 is a single table"), "{m}");
        assert!(m.contains("write `[[method]]`"), "{m}");
        let m = message("[posterior]\nkind = \"gamma-poisson\"\n");
        assert!(m.contains("write `[[posterior]]`"), "{m}");
    }

    #[test]
    fn arrays_of_tables_pass() {
        let text = "[[method]]\nkind = \"logistic-map\"\n[[posterior]]\nkind = \"gamma-poisson\"\n";
        let doc: toml::Table = toml::from_str(text).unwrap();
        assert!(check(&doc, text, Path::new("x.toml")).is_ok());
    }
}
