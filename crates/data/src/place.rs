//! Whether a Parquet pair's features are decoded in their place in the design
//! ([`crate::parquet_place`], issue 32), and which: before any row is read when the
//! schema settles it ([`from_schema`]), else from the first chunk's table
//! ([`from_first_chunk`]). Either way the features and the notes are the plain read's.

use std::path::Path;

use faer::Mat;
use polars::prelude::{Column, DataFrame, DataType};

use super::chunks::{selection, ChunkReader};
use super::parquet_place::Placeable;
use super::roles::{self, SEQUENCE_SAMPLE_ROWS};
use super::table::{number_type, Cells, Table};

/// The features placed before any row is read, and whether they were defaulted (their first
/// rows are then still to be checked for row numbers, [`numbered`]).
pub(super) struct Early {
    pub(super) placeable: Placeable,
    pub(super) defaulted: bool,
}

/// The features of `reader`'s file decoded in place from its first row, when every candidate
/// is a plain column of doubles and none is read as levels: the features given, or every
/// readable column but the target and the columns of numbers whose names leave them out (an
/// index, an identifier or a date by name; `skipped` gets what the plain read would say of
/// them). A column of doubles is numbers in any chunk, so the first chunk's table would take
/// it, unless its first rows are row numbers: judged once decoded ([`numbered`]). The chunks
/// then read only the target.
pub(super) fn from_schema(
    path: &Path,
    reader: &mut ChunkReader,
    target: &str,
    features: &mut Option<Vec<String>>,
    categorical: &[String],
    skipped: &mut Vec<String>,
) -> Option<Early> {
    let candidates: Vec<String> = match features {
        Some(f) => f.clone(),
        None => reader
            .columns()?
            .iter()
            .filter(|n| *n != target)
            .cloned()
            .collect(),
    };
    if candidates.is_empty() || candidates.iter().any(|n| categorical.contains(n)) {
        return None;
    }
    let defaulted = features.is_none();
    let schema = reader.parquet_schema().ok()?;
    let numbers: Vec<&str> = (schema.iter())
        .filter(|(_, f)| number_type(&DataType::from_arrow_field(f)))
        .map(|(n, _)| n.as_str())
        .collect();
    // Defaulted, a column of numbers whose name says what it is stays out, with the plain
    // read's note; any other column must be placeable.
    let (mut kept, mut left) = (Vec::new(), Vec::new());
    for name in candidates {
        let by_name = roles::left_out_by_name(&name).filter(|_| defaulted);
        match by_name.filter(|_| numbers.contains(&name.as_str())) {
            Some(role) => left.push(roles::left_out_entry(&name, &role)),
            None => kept.push(name),
        }
    }
    let placeable = Placeable::of(path, &kept).filter(|_| !kept.is_empty())?;
    if defaulted {
        *skipped = left.into_iter().chain(reader.unread_entries()).collect();
        *features = Some(kept);
    }
    reader.project(selection(target, &[]));
    Some(Early {
        placeable,
        defaulted,
    })
}

/// The first chunk's features, when every one is a number column and a plain column of doubles
/// in the file ([`Placeable::of`]).
pub(super) fn from_first_chunk(
    path: &Path,
    table: &Table,
    features: Option<&[String]>,
) -> Option<Placeable> {
    let features = features.filter(|f| !f.is_empty())?;
    let numbers = table
        .features
        .iter()
        .all(|(_, c)| matches!(c, Cells::Numbers(_)));
    numbers.then(|| Placeable::of(path, features)).flatten()
}

/// Whether one of `names`, placed in `x` from column `offset` on, is a row number in its first
/// rows ([`roles::sequences_of`], the sample the plain read judges): the plain read would have
/// left it out.
pub(super) fn numbered(x: &Mat<f64>, offset: usize, names: &[String]) -> bool {
    let rows = x.nrows().min(SEQUENCE_SAMPLE_ROWS);
    let columns = names
        .iter()
        .enumerate()
        .map(|(k, name)| Column::new(name.as_str().into(), &x.col_as_slice(offset + k)[..rows]));
    DataFrame::new(rows, columns.collect())
        .map_or(true, |sample| !roles::sequences_of(&sample).is_empty())
}
