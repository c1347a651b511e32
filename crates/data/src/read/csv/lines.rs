//! Where a data row sits in the file: its line, counting the newlines inside quoted fields,
//! so that errors can name it.

use std::fs::File;
use std::io::BufReader;
use std::path::Path;

use super::record::{read_record, split_record};

/// Records after the header, in order, with the file line each starts on, until `f` returns
/// `Some`. `None` when the file ends first or cannot be read.
pub(super) fn find_record<T>(
    path: &Path,
    mut f: impl FnMut(usize, usize, &[u8]) -> Option<T>,
) -> Option<T> {
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
pub(crate) fn row_line(path: &Path, row: usize) -> Option<usize> {
    if crate::read::files::is_parquet(path) {
        return None;
    }
    find_record(path, |r, line, _| (r == row).then_some(line))
}

/// `data row 7 (line 9)` for a CSV, `data row 7` for a Parquet file.
pub(crate) fn row_at(path: &Path, row: usize) -> String {
    match row_line(path, row) {
        Some(line) => format!("data row {row} (line {line})"),
        None => format!("data row {row}"),
    }
}

/// The text of column `name` in data row `row` of a CSV as written (trimmed), for a message
/// about a value polars has already parsed (`1e999` read as infinity); `None` for Parquet. The
/// separator is the one that splits the header into names holding `name`.
pub(crate) fn raw_cell(path: &Path, row: usize, name: &str) -> Option<String> {
    if crate::read::files::is_parquet(path) {
        return None;
    }
    let mut header = Vec::new();
    read_record(&mut BufReader::new(File::open(path).ok()?), &mut header).ok()?;
    let (separator, column) = [b',', b';', b'\t', b'|'].into_iter().find_map(|sep| {
        let names = split_record(&header, sep);
        names.iter().position(|n| n == name).map(|c| (sep, c))
    })?;
    find_record(path, |r, _, record| {
        (r == row).then(|| split_record(record, separator).get(column).cloned())
    })
    .flatten()
}
