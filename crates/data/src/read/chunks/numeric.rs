//! A CSV chunk of plain numbers read without polars' general parser (issue 32): each field is
//! scanned once and its number read where it lies, straight into its column. polars' reader
//! first counts the chunk's lines to split it among its threads, then splits each line into
//! fields, checks each field against the missing-value spellings and parses it; a chunk whose
//! types are not yet known is first read cell by cell against regular expressions. That was
//! half of a 1,000,000 × 50 file's read, and a first chunk of 65,536 rows read on one thread.
//!
//! Two reads: [`parse`] with the types the file's first chunk fixed (features Float64, the
//! target Float64 or Int64), and [`infer`], which gives each column the type polars' inference
//! gives it (Int64 when every cell is an integer, else Float64). Only a strict subset of CSV is
//! read here, and anything outside it sends the whole chunk back to polars (`None`), so that
//! every value, type and error is polars' own:
//! - each number field is an optional `-` then a digit, and its number ends exactly at the
//!   separator or at the end of the line (no spaces, quotes, `\r`, missing cells, `NA`, `inf`
//!   or `nan`, no `+` or leading `.`);
//! - a Float64 field is read by `fast_float2`, the crate and version polars parses Float64
//!   fields with; both are correctly rounded, so the bits are the same. An integer field is at
//!   most 18 digits, so it cannot overflow, and as a float it is the integer correctly rounded,
//!   as polars' float parse of the same text is;
//! - in [`infer`], a field is an integer when it is digits alone and a float when polars'
//!   float expression accepts it; the one form `fast_float2` reads that the expression does
//!   not (a point followed by the exponent, `1.e5`) is left to polars;
//! - a column that is not read (outside `columns`) holds no double quote and only ASCII, so the
//!   chunk is UTF-8 text (polars refuses one that is not, naming the line);
//! - every line has exactly the header's number of fields, the header holds no double quote
//!   and no empty name (a UTF-8 byte order mark before it is dropped, as polars drops it), and
//!   the chunk ends with its last line's newline.

use polars::prelude::*;

/// A read column's values, as far as the chunk has been read.
enum Values {
    /// Float64: every number cell, as a float.
    Float(Vec<f64>),
    /// Int64 fixed by the first chunk: integer cells only.
    Int(Vec<i64>),
    /// Type being inferred, every cell an integer so far (a float cell makes it `Float`).
    Ints(Vec<i64>),
    /// Not read: only checked to hold no quote.
    Skip,
}

/// The chunk `bytes` (its header line first) as the frame polars reads with `schema` (every
/// column of the file, in order), reading `columns` when given; `None` when the chunk is not in
/// the subset this reads (the module's documentation).
pub(super) fn parse(
    schema: &Schema,
    columns: Option<&[String]>,
    separator: u8,
    bytes: &[u8],
) -> Option<DataFrame> {
    let (names, body) = header(bytes, separator, columns)?;
    if names.len() != schema.len() {
        return None;
    }
    let rows = memchr::memchr_iter(b'\n', body).count();
    let values = schema
        .iter()
        .map(|(name, dtype)| match (read(columns, name), dtype) {
            (false, _) => Some(Values::Skip),
            (true, DataType::Float64) => Some(Values::Float(Vec::with_capacity(rows))),
            (true, DataType::Int64) => Some(Values::Int(Vec::with_capacity(rows))),
            _ => None,
        })
        .collect::<Option<Vec<_>>>()?;
    let names = schema.iter_names().cloned().collect();
    fill(body, rows, separator, values).and_then(|v| frame(names, rows, v))
}

/// The chunk `bytes` (its header line first) as the frame polars reads inferring each column's
/// type from all of its cells, reading `columns` when given; `None` when the chunk is not in
/// the subset this reads.
pub(super) fn infer(columns: Option<&[String]>, separator: u8, bytes: &[u8]) -> Option<DataFrame> {
    let (names, body) = header(bytes, separator, columns)?;
    let rows = memchr::memchr_iter(b'\n', body).count();
    let values = names
        .iter()
        .map(|name| match read(columns, name) {
            true => Values::Ints(Vec::with_capacity(rows)),
            false => Values::Skip,
        })
        .collect();
    fill(body, rows, separator, values).and_then(|v| frame(names, rows, v))
}

/// The header's names and the bytes after it, when it holds no quote, no empty name and no
/// name with spaces around it, names every column in `columns`, and `separator` cannot be part
/// of a number. A UTF-8 byte order mark before it is not part of the first name, as in
/// polars' read.
fn header<'a>(
    bytes: &'a [u8],
    separator: u8,
    columns: Option<&[String]>,
) -> Option<(Vec<PlSmallStr>, &'a [u8])> {
    if separator.is_ascii_alphanumeric() || b".+-\"\r\n".contains(&separator) {
        return None;
    }
    let end = memchr::memchr(b'\n', bytes)?;
    let line = bytes[..end]
        .strip_prefix(b"\xef\xbb\xbf")
        .unwrap_or(&bytes[..end]);
    if memchr::memchr(b'"', line).is_some() {
        return None;
    }
    let names = line
        .split(|&b| b == separator)
        .map(|n| {
            std::str::from_utf8(n)
                .ok()
                .filter(|n| !n.is_empty() && n.trim() == *n)
                .map(PlSmallStr::from)
        })
        .collect::<Option<Vec<_>>>()?;
    let named = |c: &String| names.iter().any(|n| n.as_str() == c);
    if !columns.is_none_or(|c| c.iter().all(named)) {
        return None;
    }
    Some((names, &bytes[end + 1..]))
}

/// Whether the column `name` is read.
fn read(columns: Option<&[String]>, name: &str) -> bool {
    columns.is_none_or(|c| c.iter().any(|n| n == name))
}

/// Every line of `body` (`rows` of them) read into `values`, one per field.
fn fill(body: &[u8], rows: usize, separator: u8, mut values: Vec<Values>) -> Option<Vec<Values>> {
    let mut at = 0;
    let last = values.len() - 1;
    for _ in 0..rows {
        for (j, column) in values.iter_mut().enumerate() {
            let end = if j == last { b'\n' } else { separator };
            let rest = &body[at..];
            let len = column.push(rest, separator)?;
            if rest.get(len) != Some(&end) {
                return None;
            }
            at += len + 1;
        }
    }
    (at == body.len()).then_some(values)
}

impl Values {
    /// Read the field at the start of `rest` into the column; its length in bytes.
    fn push(&mut self, rest: &[u8], separator: u8) -> Option<usize> {
        match self {
            Values::Float(v) => {
                let (value, len) = float(rest)?;
                v.push(value);
                Some(len)
            }
            Values::Int(v) => {
                let (value, len) = int(rest)?;
                v.push(value);
                Some(len)
            }
            Values::Ints(v) => match cell(rest)? {
                (Cell::Int(i), len) => {
                    v.push(i);
                    Some(len)
                }
                (Cell::Float(x), len) => {
                    let mut floats: Vec<f64> = Vec::with_capacity(v.capacity());
                    floats.extend(v.iter().map(|&i| i as f64));
                    floats.push(x);
                    *self = Values::Float(floats);
                    Some(len)
                }
            },
            Values::Skip => skip(rest, separator),
        }
    }
}

/// A field of a column whose type is being inferred.
enum Cell {
    Int(i64),
    Float(f64),
}

/// The field at the start of `rest` as polars' inference would type it, and its length.
fn cell(rest: &[u8]) -> Option<(Cell, usize)> {
    let (x, len) = float(rest)?;
    let text = &rest[..len];
    if !text.iter().any(|b| matches!(b, b'.' | b'e' | b'E')) {
        // `-0` is the integer 0, but -0.0 in a float column: left to polars.
        return int(rest)
            .filter(|&(i, _)| i != 0 || text[0] != b'-')
            .map(|(i, n)| (Cell::Int(i), n));
    }
    // `1.e5`: fast_float2 reads it, polars' float expression does not.
    let point_exponent = text
        .windows(2)
        .any(|w| w[0] == b'.' && matches!(w[1], b'e' | b'E'));
    (!point_exponent).then_some((Cell::Float(x), len))
}

/// Whether `rest` starts with a number: an optional `-`, then a digit.
fn starts_a_number(rest: &[u8]) -> bool {
    match rest {
        [b'-', d, ..] | [d, ..] => d.is_ascii_digit(),
        _ => false,
    }
}

/// The float at the start of `rest` and its length in bytes.
fn float(rest: &[u8]) -> Option<(f64, usize)> {
    if !starts_a_number(rest) {
        return None;
    }
    fast_float2::parse_partial::<f64, _>(rest).ok()
}

/// The integer of at most 18 digits at the start of `rest` and its length in bytes.
fn int(rest: &[u8]) -> Option<(i64, usize)> {
    let negative = rest.first() == Some(&b'-');
    let digits = &rest[usize::from(negative)..];
    let n = digits.iter().take_while(|b| b.is_ascii_digit()).count();
    if n == 0 || n > 18 {
        return None;
    }
    let magnitude = digits[..n]
        .iter()
        .fold(0i64, |v, d| v * 10 + i64::from(d - b'0'));
    let value = if negative { -magnitude } else { magnitude };
    Some((value, n + usize::from(negative)))
}

/// The length of the unread field at the start of `rest`, when it holds no quote and only
/// ASCII (polars refuses a chunk that is not UTF-8 text, read or not: that is its to say).
fn skip(rest: &[u8], separator: u8) -> Option<usize> {
    let len = memchr::memchr2(separator, b'\n', rest)?;
    let field = &rest[..len];
    (field.is_ascii() && memchr::memchr(b'"', field).is_none()).then_some(len)
}

/// The read columns as polars' frame, in the file's order.
fn frame(names: Vec<PlSmallStr>, rows: usize, values: Vec<Values>) -> Option<DataFrame> {
    let columns = names
        .into_iter()
        .zip(values)
        .filter_map(|(name, v)| match v {
            Values::Float(v) => Some(Float64Chunked::from_vec(name, v).into_column()),
            Values::Int(v) | Values::Ints(v) => Some(Int64Chunked::from_vec(name, v).into_column()),
            Values::Skip => None,
        })
        .collect::<Vec<_>>();
    DataFrame::new(rows, columns).ok()
}

#[cfg(test)]
#[path = "numeric_tests.rs"]
mod tests;
