//! What each column of a table is for: a number, a category, or something that must not be a
//! feature unless asked for (pandas' index, an identifier, a date). One classification serves
//! the loaders' default features ([`left_out`]: a suspicious column is left out with a note
//! naming it and why) and a description of a whole file ([`profile`]: every column's role,
//! reason, missing count and levels), so that what is said about a column is the same
//! everywhere. The rules are in docs/reference/data-rules.md.

mod names;
#[cfg(test)]
mod tests;
mod values;

use std::path::Path;

use polars::prelude::*;

use crate::read::table::frame::read_frame_with;
use bayeslab_core::error::Result;

pub use names::{identifier_name, index_header};
pub(crate) use values::all_dates;
pub use values::{looks_like_date, MAX_LEVELS, MIN_SEQUENCE_ROWS};

/// Why a column is an identifier.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdentifierBy {
    /// Its name: `id`, or ending in `_id`, `-id`, ` id`, `Id` after a lower-case letter, or `ID`.
    Name,
    /// Whole numbers, strictly increasing, all distinct (a row number).
    Sequence,
    /// Text with every value distinct (a name or key per row).
    DistinctText,
}

/// The role of one column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Role {
    /// Numbers: a feature by default.
    Numeric,
    /// `true`/`false`: a feature by default (a two-level categorical).
    Boolean,
    /// Text with a few levels: a feature when listed in `[data] features` or `categorical`.
    Categorical { levels: usize },
    /// An empty header or pandas' `Unnamed: N`: a data frame's index written as a column.
    Index,
    /// A key per row, never a feature unless listed.
    Identifier(IdentifierBy),
    /// Dates or times (text that reads as dates, a date type, or a date-like name).
    Date,
    /// Text with too many distinct values to be levels.
    FreeText { distinct: usize },
    /// One value in every present row.
    Constant,
    /// No value in any row.
    Empty,
}

impl Role {
    /// Whether a column of this role is left out of defaulted features with a note (it would
    /// otherwise be taken as a number); text, constant and empty columns have their own rules.
    pub fn is_suspicious(&self) -> bool {
        matches!(self, Role::Index | Role::Identifier(_) | Role::Date)
    }

    /// Why the column has this role, in a few words a note can quote.
    pub fn reason(&self) -> String {
        match self {
            Role::Numeric => "numbers".into(),
            Role::Boolean => "true/false".into(),
            Role::Categorical { levels } => format!("text with {levels} levels"),
            Role::Index => "an index: its header is empty or pandas' \"Unnamed: N\"".into(),
            Role::Identifier(IdentifierBy::Name) => "an identifier, by its name".into(),
            Role::Identifier(IdentifierBy::Sequence) => {
                "an identifier: whole numbers, strictly increasing, all distinct (a row number)"
                    .into()
            }
            Role::Identifier(IdentifierBy::DistinctText) => {
                "an identifier: text with every value distinct".into()
            }
            Role::Date => "dates or times".into(),
            Role::FreeText { distinct } => {
                format!("free text: {distinct} distinct values, too many to be levels")
            }
            Role::Constant => "one value in every row".into(),
            Role::Empty => "no value in any row".into(),
        }
    }
}

/// One column of a file described.
#[derive(Debug, Clone, PartialEq)]
pub struct ColumnProfile {
    pub name: String,
    /// 1-based position in the file.
    pub position: usize,
    pub role: Role,
    /// Rows read and, of them, cells missing (empty, `NA`, a NaN spelling).
    pub rows: usize,
    pub missing: usize,
    /// Distinct present values.
    pub distinct: usize,
    /// A categorical or boolean column's levels with their counts, most frequent first (at most
    /// [`values::MAX_LEVELS`]); empty for the other roles.
    pub levels: Vec<(String, usize)>,
}

/// Every column of the CSV (fields separated by `separator`) or Parquet file at `path`,
/// classified; Parquet columns of a type bayeslab cannot read are left out.
pub fn profile(path: &Path, separator: u8) -> Result<Vec<ColumnProfile>> {
    let (df, _) = read_frame_with(path, separator, None, None)?;
    Ok(df
        .columns()
        .iter()
        .enumerate()
        .map(|(i, c)| values::profile_column(c, i + 1))
        .collect())
}

/// The role that keeps the numeric or boolean column `col` out of defaulted features, if any:
/// an index, an identifier or a date ([`Role::is_suspicious`]). `sequences` are the columns
/// [`sequences`] found to be row numbers.
pub(crate) fn left_out(col: &Column, sequences: &[String]) -> Option<Role> {
    let name = col.name().as_str();
    left_out_by_name(name).or_else(|| {
        sequences
            .iter()
            .any(|s| s == name)
            .then_some(Role::Identifier(IdentifierBy::Sequence))
    })
}

/// [`left_out`] by the column's name alone: an index, an identifier or a date by name.
pub(crate) fn left_out_by_name(name: &str) -> Option<Role> {
    if index_header(name) {
        return Some(Role::Index);
    }
    if identifier_name(name) {
        return Some(Role::Identifier(IdentifierBy::Name));
    }
    names::date_name(name).then_some(Role::Date)
}

/// Rows of the sample [`sequences`] reads: whatever the chunks of a read, the same rows decide.
pub const SEQUENCE_SAMPLE_ROWS: usize = 1000;

/// The columns of the file at `path` that are row numbers in its first
/// [`SEQUENCE_SAMPLE_ROWS`] rows (whole numbers strictly increasing, in at least
/// [`MIN_SEQUENCE_ROWS`] rows): read from one fixed sample, so that the in-memory and the
/// streamed reads (whose first chunks differ in size) leave out the same columns.
pub(crate) fn sequences(path: &Path, separator: u8, target: &str) -> Result<Vec<String>> {
    let mut reader = crate::read::chunks::ChunkReader::open(
        path,
        SEQUENCE_SAMPLE_ROWS,
        separator,
        Some(target),
        None,
    )?;
    let Some(piece) = reader.next_piece()? else {
        return Ok(Vec::new());
    };
    let frames = piece.decode_parts()?;
    Ok(frames.first().map(sequences_of).unwrap_or_default())
}

/// [`sequences`] of the Parquet file at `path` (`rows` rows), from `first`, its first chunk,
/// when that holds the sample: a Parquet column's type is the schema's, so its first rows read
/// the same in any slice, and the sample need not be decoded again (issue 32: it decoded the
/// whole first row group a second time).
pub(crate) fn parquet_sequences(
    path: &Path,
    separator: u8,
    target: &str,
    first: &polars::prelude::DataFrame,
    rows: usize,
) -> Result<Vec<String>> {
    match first.height() >= SEQUENCE_SAMPLE_ROWS.min(rows) {
        true => Ok(sequences_of(&first.slice(0, SEQUENCE_SAMPLE_ROWS))),
        false => sequences(path, separator, target),
    }
}

/// The columns of `sample` (a file's first [`SEQUENCE_SAMPLE_ROWS`] rows) that are row numbers.
pub(crate) fn sequences_of(sample: &polars::prelude::DataFrame) -> Vec<String> {
    sample
        .columns()
        .iter()
        .filter(|c| values::is_sequence(c))
        .map(|c| c.name().to_string())
        .collect()
}

/// A column left out of defaulted features as a note names it: its name and why.
pub(crate) fn left_out_entry(name: &str, role: &Role) -> String {
    format!("\"{name}\" ({})", role.reason())
}
