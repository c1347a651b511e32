//! One CSV record: a line, continued while a double quote is open, split into fields the way
//! polars splits them.

use std::io::BufRead;

use polars::prelude::*;

/// How every CSV is parsed: a header row, `separator` between fields, types inferred from
/// every row, and empty cells and `NA` as missing.
pub(crate) fn options(separator: u8) -> CsvReadOptions {
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
pub(crate) fn read_record(reader: &mut impl BufRead, out: &mut Vec<u8>) -> std::io::Result<usize> {
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
pub(crate) fn split_record(record: &[u8], separator: u8) -> Vec<String> {
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
pub(crate) fn take_records(
    reader: &mut impl BufRead,
    out: &mut Vec<u8>,
    n: usize,
    in_quotes: &mut bool,
) -> std::io::Result<usize> {
    let (rows, unended) = scan_records(reader, n, in_quotes, &mut |b| out.extend_from_slice(b))?;
    if unended {
        out.push(b'\n');
    }
    Ok(rows)
}

/// Pass over up to `n` CSV records of `reader` as [`take_records`] reads them, keeping only
/// their count: the in-memory read cuts a chunk so and reads its bytes back on the thread
/// that parses it.
pub(crate) fn skip_records(
    reader: &mut impl BufRead,
    n: usize,
    in_quotes: &mut bool,
) -> std::io::Result<usize> {
    scan_records(reader, n, in_quotes, &mut |_| {}).map(|(rows, _)| rows)
}

/// Read up to `n` records, handing `keep` their bytes a buffer at a time: the records read,
/// and whether the last one ended the input without its newline.
fn scan_records(
    reader: &mut impl BufRead,
    n: usize,
    in_quotes: &mut bool,
    keep: &mut dyn FnMut(&[u8]),
) -> std::io::Result<(usize, bool)> {
    let mut rows = 0;
    // Bytes of a record read but not yet ended.
    let mut open = false;
    while rows < n {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            return Ok(if open {
                (rows + 1, true)
            } else {
                (rows, false)
            });
        }
        let mut used = 0;
        while rows < n {
            let Some(k) = memchr::memchr2(b'\n', b'"', &buf[used..]) else {
                break;
            };
            let at = used + k;
            used = at + 1;
            if buf[at] == b'"' {
                *in_quotes = !*in_quotes;
                open = true;
            } else if *in_quotes {
                open = true;
            } else {
                rows += 1;
                open = false;
            }
        }
        if rows < n {
            open |= used < buf.len();
            used = buf.len();
        }
        keep(&buf[..used]);
        reader.consume(used);
    }
    Ok((rows, false))
}
