//! polars' CSV parse errors in bayeslab's terms: the row, the column and the value, and
//! what to change, where polars names its own (Python) options.

use std::path::Path;

use polars::prelude::*;

use super::header::check_header;
use super::lines::find_record;
use super::quotes::{unclosed_error, unclosed_quote};
use super::record::split_record;
use bayeslab_core::error::Error;

/// A polars CSV error in bayeslab's terms where polars names its own (Python) options: a row
/// with more fields than the header, a value that does not fit its column's inferred type.
pub(crate) fn read_error(path: &Path, separator: u8, e: &PolarsError) -> Error {
    let text = e.to_string();
    if let Some(line) = unclosed_quote(path, separator) {
        return unclosed_error(path, line);
    }
    if text.contains("invalid utf-8") {
        let line = find_record(path, |_, line, record| {
            std::str::from_utf8(record).is_err().then_some(line)
        });
        let at = line.map_or(String::new(), |l| format!(" (first on line {l})"));
        return Error::data(
            path,
            format!(
                "the file is not UTF-8 text{at}; save it as UTF-8 (e.g. `iconv -f latin1 -t utf-8`)"
            ),
        );
    }
    if text.contains("truncate_ragged_lines") || text.contains("more fields than") {
        let header = check_header(path, separator).map_or(0, |n| n.len());
        let ragged = find_record(path, |_, line, record| {
            let n = split_record(record, separator).len();
            (n > header).then_some((line, n))
        });
        let at = ragged.map_or(String::new(), |(line, n)| {
            format!(": line {line} has {n} fields")
        });
        return Error::data(
            path,
            format!(
                "a row has more fields than the header's {header} columns{at}; remove the extra fields or quote \
                 values that contain the separator \"{}\"",
                (separator as char).escape_default()
            ),
        );
    }
    if let Some((value, dtype, column)) = parse_failure(&text) {
        let line = find_record(path, |_, line, record| {
            let fields = split_record(record, separator);
            (fields.get(column.1).map(String::as_str) == Some(value)).then_some(line)
        });
        let at = line.map_or(String::new(), |l| format!(", line {l}"));
        let fix = if dtype.starts_with('i') || dtype.starts_with('u') {
            format!(
                "{value} does not fit a 64-bit integer ({dtype}, the type inferred for the column); write it with a \
                 decimal point ({value}.0) to read the column as floating point, or fix the value"
            )
        } else {
            format!("\"{value}\" cannot be read as {dtype}, the type inferred for the column; fix the value")
        };
        return Error::data(path, format!("column \"{}\"{at}: {fix}", column.0));
    }
    // polars' advice names its Python keyword arguments, which bayeslab does not have
    let own = ["\n\nYou might want to try", "\n\nConsider setting"]
        .iter()
        .filter_map(|a| text.find(a))
        .min()
        .map_or(text.as_str(), |at| &text[..at]);
    Error::data(path, format!("cannot read as CSV: {}", own.trim_end()))
}

/// (value, dtype, (column name, 0-based column)) from polars' "could not parse `V` as dtype `T`
/// at column 'C' (column number K)".
pub(super) fn parse_failure(text: &str) -> Option<(&str, &str, (&str, usize))> {
    let rest = text.split_once("could not parse `")?.1;
    let (value, rest) = rest.split_once("` as dtype `")?;
    let (dtype, rest) = rest.split_once("` at column '")?;
    let (column, rest) = rest.split_once("' (column number ")?;
    let number: usize = rest.split_once(')')?.0.trim().parse().ok()?;
    Some((value, dtype, (column, number.checked_sub(1)?)))
}
