//! One CSV record: a line, continued while a double quote is open, split into fields the way
//! polars splits them.

use std::io::BufRead;

use polars::prelude::*;

/// How every CSV is parsed: a header row, `separator` between fields, types inferred from
/// every row, and empty cells and `NA` as missing.
pub(in crate::data) fn options(separator: u8) -> CsvReadOptions {
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
pub(in crate::data) fn read_record(
    reader: &mut impl BufRead,
    out: &mut Vec<u8>,
) -> std::io::Result<usize> {
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
/// (`""` inside quotes is one quote), a leading byte-order mark and the line end dropped and
/// unquoted fields trimmed.
pub(in crate::data) fn split_record(record: &[u8], separator: u8) -> Vec<String> {
    let text = String::from_utf8_lossy(record);
    // A UTF-8 byte-order mark (Excel's "CSV UTF-8") is not part of the first name; polars
    // drops it too.
    let text = text.trim_start_matches('\u{feff}');
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

pub(super) fn finish(field: String, quoted: bool) -> String {
    if quoted {
        field
    } else {
        field.trim().to_string()
    }
}

/// Append up to `n` CSV records from `reader` to `out` and return how many were appended. A
/// record ends at a newline outside double quotes (a quoted field may hold newlines; `""` inside
/// quotes toggles twice). A blank line is a record, as polars reads it (a row of missing
/// values). The last record may lack its newline; one is added.
pub(in crate::data) fn take_records(
    reader: &mut impl BufRead,
    out: &mut Vec<u8>,
    n: usize,
    in_quotes: &mut bool,
) -> std::io::Result<usize> {
    let mut rows = 0;
    let mut line_start = out.len();
    while rows < n {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            if out.len() > line_start {
                out.push(b'\n');
                rows += 1;
            }
            break;
        }
        let mut used = 0;
        while rows < n {
            let Some(k) = memchr::memchr2(b'\n', b'"', &buf[used..]) else {
                break;
            };
            let at = used + k;
            if buf[at] == b'"' {
                *in_quotes = !*in_quotes;
                out.extend_from_slice(&buf[used..=at]);
                used = at + 1;
                continue;
            }
            out.extend_from_slice(&buf[used..=at]);
            used = at + 1;
            if *in_quotes {
                continue;
            }
            rows += 1;
            line_start = out.len();
        }
        if rows < n {
            out.extend_from_slice(&buf[used..]);
            used = buf.len();
        }
        reader.consume(used);
    }
    Ok(rows)
}
