//! CSV details both readers share (the in-memory [`crate::read::table`] and the streamed
//! [`crate::read::chunks`]): the header as a CSV record (quoted names may hold the separator), the
//! repeated-name and wrong-separator checks, the file line of a data row (quoted fields may hold
//! newlines), and polars' parse errors translated into bayeslab's terms.

mod header;
mod lines;
mod parse_error;
mod quotes;
mod record;

pub(crate) use header::{check_header, check_header_names};
pub(crate) use lines::{raw_cell, row_at};
pub(crate) use parse_error::read_error;
pub(crate) use quotes::{check_tail, unclosed_at_end};
pub(crate) use record::{options, read_record, skip_records, take_records};

#[cfg(test)]
mod tests;
