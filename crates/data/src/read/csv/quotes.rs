//! Double quotes polars mishandles, found before it parses: a quote that opens a field and
//! never closes, and a lone quote at the very end of the file.

use std::fs::File;
use std::path::Path;

use super::lines::find_record;
use bayeslab_core::error::{Error, Result};

/// The line of the first record with a double quote that opens a field and is never closed: an
/// odd number of quotes with one opening a field (polars reads a quote elsewhere as text).
pub(super) fn unclosed_quote(path: &Path, separator: u8) -> Option<usize> {
    find_record(path, |_, line, record| {
        let opens =
            record.first() == Some(&b'"') || record.windows(2).any(|w| w == [separator, b'"']);
        (opens && memchr::memchr_iter(b'"', record).count() % 2 == 1).then_some(line)
    })
}

pub(super) fn unclosed_error(path: &Path, line: usize) -> Error {
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
pub(crate) fn check_tail(path: &Path, separator: u8) -> Result<()> {
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

/// The error for a file whose bytes end inside a quoted field (the chunked reader knows it
/// when it reaches the end), naming the line the quote opened on.
pub(crate) fn unclosed_at_end(path: &Path, separator: u8) -> Error {
    match unclosed_quote(path, separator) {
        Some(line) => unclosed_error(path, line),
        None => Error::data(
            path,
            "a double quote opens a field that is never closed, so the rest of the file would be one value; \
             close the quote or remove it",
        ),
    }
}
