//! The header row: its column names, refused when a name repeats or the separator does not
//! fit.

use std::collections::HashMap;
use std::fs::File;
use std::io::BufReader;
use std::path::Path;

use super::quotes::check_tail;
use super::record::{read_record, split_record};
use bayeslab_core::error::{Error, Result};

/// The header's column names, or an error naming a repeated name (polars would rename it
/// silently; it is almost always a mistake in the file) or a separator that does not fit.
pub(crate) fn check_header(path: &Path, separator: u8) -> Result<Vec<String>> {
    let file = File::open(path).map_err(|e| Error::data(path, format!("cannot open: {e}")))?;
    let mut header = Vec::new();
    read_record(&mut BufReader::new(file), &mut header)
        .map_err(|e| Error::data(path, format!("cannot read the header: {e}")))?;
    let names = check_header_names(path, &header, separator)?;
    check_tail(path, separator)?;
    Ok(names)
}

/// [`check_header`] on a header record already read. Linear in the number of columns.
pub(crate) fn check_header_names(path: &Path, header: &[u8], separator: u8) -> Result<Vec<String>> {
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
