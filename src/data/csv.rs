//! CSV details both readers share (the in-memory [`super::table`] and the streamed
//! [`super::chunks`]): the header as a CSV record (quoted names may hold the separator), the
//! repeated-name and wrong-separator checks, the file line of a data row (quoted fields may hold
//! newlines), and polars' parse errors translated into bayeslab's terms.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;

use polars::prelude::*;

use crate::error::{Error, Result};

/// How every CSV is parsed: a header row, `separator` between fields, types inferred from
/// every row, and empty cells and `NA` as missing.
pub(super) fn options(separator: u8) -> CsvReadOptions {
    CsvReadOptions::default()
        .with_has_header(true)
        .with_infer_schema_length(None)
        .map_parse_options(|o| {
            o.with_separator(separator)
                .with_null_values(Some(NullValues::AllColumns(vec!["NA".into(), "".into()])))
        })
}

/// Read one CSV record (a line, continued while a double quote is open) and append it to
/// `out`; the number of lines it spans (0 at the end of the input).
pub(super) fn read_record(reader: &mut impl BufRead, out: &mut Vec<u8>) -> std::io::Result<usize> {
    let mut lines = 0;
    let mut in_quotes = false;
    loop {
        let start = out.len();
        if reader.read_until(b'\n', out)? == 0 {
            return Ok(lines);
        }
        lines += 1;
        let quotes = memchr::memchr_iter(b'"', &out[start..]).count();
        in_quotes ^= quotes % 2 == 1;
        if !in_quotes {
            return Ok(lines);
        }
    }
}

/// The fields of one record: split at `separator` outside double quotes, quotes removed
/// (`""` inside quotes is one quote), the line end dropped and unquoted fields trimmed.
pub(super) fn split_record(record: &[u8], separator: u8) -> Vec<String> {
    let text = String::from_utf8_lossy(record);
    let text = text.trim_end_matches(['\n', '\r']);
    let sep = separator as char;
    let mut fields = Vec::new();
    let mut field = String::new();
    let (mut quoted, mut in_quotes) = (false, false);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if in_quotes && chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            '"' => {
                in_quotes = !in_quotes;
                quoted = true;
            }
            c if c == sep && !in_quotes => {
                fields.push(finish(std::mem::take(&mut field), quoted));
                quoted = false;
            }
            c => field.push(c),
        }
    }
    fields.push(finish(field, quoted));
    fields
}

fn finish(field: String, quoted: bool) -> String {
    if quoted {
        field
    } else {
        field.trim().to_string()
    }
}

/// The header's column names, or an error naming a repeated name (polars would rename it
/// silently; it is almost always a mistake in the file) or a separator that does not fit.
pub(super) fn check_header(path: &Path, separator: u8) -> Result<Vec<String>> {
    let file = File::open(path).map_err(|e| Error::data(path, format!("cannot open: {e}")))?;
    let mut header = Vec::new();
    read_record(&mut BufReader::new(file), &mut header)
        .map_err(|e| Error::data(path, format!("cannot read the header: {e}")))?;
    let names = check_header_names(path, &header, separator)?;
    check_tail(path, separator)?;
    Ok(names)
}

/// [`check_header`] on a header record already read. Linear in the number of columns.
pub(super) fn check_header_names(path: &Path, header: &[u8], separator: u8) -> Result<Vec<String>> {
    let names = split_record(header, separator);
    let mut seen: HashMap<&str, usize> = HashMap::with_capacity(names.len());
    for (i, n) in names.iter().enumerate() {
        if let Some(first) = seen.insert(n.as_str(), i) {
            return Err(Error::data(
                path,
                format!(
                    "the header names column \"{n}\" twice (columns {} and {}); rename one of them",
                    first + 1,
                    i + 1
                ),
            ));
        }
    }
    if let [only] = names.as_slice() {
        let other = [b',', b';', b'\t', b'|']
            .into_iter()
            .find(|&c| c != separator && only.as_bytes().contains(&c));
        if let Some(c) = other {
            let shown = (c as char).escape_default().to_string();
            return Err(Error::data(
                path,
                format!(
                    "the header is a single column \"{}\" that contains \"{shown}\": the fields look separated by \
                     \"{shown}\", not \"{}\"; set [data] separator = \"{shown}\"",
                    only.replace('\t', "\\t"),
                    (separator as char).escape_default()
                ),
            ));
        }
    }
    Ok(names)
}

/// Records after the header, in order, with the file line each starts on, until `f` returns
/// `Some`. `None` when the file ends first or cannot be read.
fn find_record<T>(path: &Path, mut f: impl FnMut(usize, usize, &[u8]) -> Option<T>) -> Option<T> {
    let mut reader = BufReader::with_capacity(1 << 16, File::open(path).ok()?);
    let mut record = Vec::new();
    let mut line = 1;
    for index in 0.. {
        record.clear();
        let lines = read_record(&mut reader, &mut record).ok()?;
        if lines == 0 {
            return None;
        }
        if index > 0 {
            if let Some(found) = f(index - 1, line, &record) {
                return Some(found);
            }
        }
        line += lines;
    }
    None
}

/// The file line on which data row `row` (0-based, after the header) of a CSV starts, counting
/// the newlines inside quoted fields; `None` for a Parquet file.
pub(super) fn row_line(path: &Path, row: usize) -> Option<usize> {
    if super::files::is_parquet(path) {
        return None;
    }
    find_record(path, |r, line, _| (r == row).then_some(line))
}

/// `data row 7 (line 9)` for a CSV, `data row 7` for a Parquet file.
pub(super) fn row_at(path: &Path, row: usize) -> String {
    match row_line(path, row) {
        Some(line) => format!("data row {row} (line {line})"),
        None => format!("data row {row}"),
    }
}

/// The line of the first record with a double quote that opens a field and is never closed: an
/// odd number of quotes with one opening a field (polars reads a quote elsewhere as text).
fn unclosed_quote(path: &Path, separator: u8) -> Option<usize> {
    find_record(path, |_, line, record| {
        let opens =
            record.first() == Some(&b'"') || record.windows(2).any(|w| w == [separator, b'"']);
        (opens && memchr::memchr_iter(b'"', record).count() % 2 == 1).then_some(line)
    })
}

fn unclosed_error(path: &Path, line: usize) -> Error {
    Error::data(
        path,
        format!(
            "the double quote opened on line {line} is never closed, so the rest of the file would be one value; \
             close the quote or remove it"
        ),
    )
}

/// Refuse a file whose last field is a lone opening quote (`…,"` or `…,"\r` at the very end)
/// before polars parses it: polars 0.55 slices such a field out of bounds (an abort in debug
/// builds, undefined behaviour in release). Reads the last two bytes, and the whole file only
/// when they end in a quote.
pub(super) fn check_tail(path: &Path, separator: u8) -> Result<()> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = File::open(path).map_err(|e| Error::data(path, format!("cannot open: {e}")))?;
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    let mut tail = [0u8; 2];
    let n = len.min(2) as usize;
    let read = file
        .seek(SeekFrom::Start(len - n as u64))
        .and_then(|_| file.read_exact(&mut tail[..n]));
    read.map_err(|e| Error::data(path, format!("cannot read: {e}")))?;
    let ends_in_quote = matches!(&tail[..n], [.., b'"'] | [b'"', b'\r']);
    match ends_in_quote
        .then(|| unclosed_quote(path, separator))
        .flatten()
    {
        Some(line) => Err(unclosed_error(path, line)),
        None => Ok(()),
    }
}

/// A polars CSV error in bayeslab's terms where polars names its own (Python) options: a row
/// with more fields than the header, a value that does not fit its column's inferred type.
pub(super) fn read_error(path: &Path, separator: u8, e: &PolarsError) -> Error {
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
fn parse_failure(text: &str) -> Option<(&str, &str, (&str, usize))> {
    let rest = text.split_once("could not parse `")?.1;
    let (value, rest) = rest.split_once("` as dtype `")?;
    let (dtype, rest) = rest.split_once("` at column '")?;
    let (column, rest) = rest.split_once("' (column number ")?;
    let number: usize = rest.split_once(')')?.0.trim().parse().ok()?;
    Some((value, dtype, (column, number.checked_sub(1)?)))
}

#[cfg(test)]
mod tests;
