//! How a text cell reads as a number: one rule for every reader (the in-memory and streamed
//! loaders, `check`, the file profile), so that one odd cell gets the same verdict everywhere
//! and cannot turn a numeric column into text. The rule is in docs/reference/data-rules.md.

/// One text cell of a column that may be numeric.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TextCell {
    /// Empty, or a spelling of a missing value ([`MISSING`], any NaN spelling).
    Missing,
    /// A number, read after removing surrounding spaces; infinite for `inf`, `Infinity`,
    /// `-INF` and for a value beyond f64's range (`1e999`): the readers refuse those.
    Number(f64),
    /// Anything else.
    Text,
}

/// The spellings of a missing value besides the empty cell and NaN in any case (`nan`, `NaN`,
/// `-nan`): those of R, pandas and spreadsheets.
pub const MISSING: &[&str] = &["NA", "N/A", "n/a", "#N/A", "<NA>", "NULL", "null", "None"];

/// How `s` reads: surrounding spaces (and tabs) removed, then missing, a number, or text.
pub fn read_cell(s: &str) -> TextCell {
    let s = s.trim();
    if s.is_empty() || MISSING.contains(&s) {
        return TextCell::Missing;
    }
    // Rust's parser takes `inf`, `infinity` and `nan` in any case, with a sign: exactly the
    // spellings polars writes and reads, and Excel's and numpy's.
    match s.parse::<f64>() {
        Ok(x) if x.is_nan() => TextCell::Missing,
        Ok(x) => TextCell::Number(x),
        Err(_) => TextCell::Text,
    }
}

/// Whether every present cell of a text column reads as a number or a missing value: then the
/// column is numeric (a column with no present value is too: a chunk of a numeric column where
/// every cell is empty).
pub fn all_numbers<'a>(cells: impl IntoIterator<Item = Option<&'a str>>) -> bool {
    cells
        .into_iter()
        .flatten()
        .all(|s| read_cell(s) != TextCell::Text)
}

#[cfg(test)]
mod tests {
    use super::{all_numbers, read_cell, TextCell};

    #[test]
    fn spaces_nan_spellings_and_infinities_read_by_one_rule() {
        for s in [" 3.5", "3.5 ", "\t3.5", " 3.5 "] {
            assert_eq!(read_cell(s), TextCell::Number(3.5), "{s:?}");
        }
        for s in [
            "", "  ", "NA", "NaN", "nan", "NAN", "-nan", "N/A", "NULL", "None", " NA ",
        ] {
            assert_eq!(read_cell(s), TextCell::Missing, "{s:?}");
        }
        for s in ["inf", "INF", "Infinity", "+inf", "1e999"] {
            assert_eq!(read_cell(s), TextCell::Number(f64::INFINITY), "{s:?}");
        }
        for s in ["-inf", "-Infinity", "-1e999"] {
            assert_eq!(read_cell(s), TextCell::Number(f64::NEG_INFINITY), "{s:?}");
        }
        for s in ["x", "3,5", "1_000", "0x10", "3.5.1", "infinite"] {
            assert_eq!(read_cell(s), TextCell::Text, "{s:?}");
        }
        assert!(all_numbers([Some(" 1"), None, Some("INF")]));
        assert!(all_numbers([None, None]));
        assert!(!all_numbers([Some("1"), Some("a")]));
    }
}
