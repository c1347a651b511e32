//! The second stage, for a Parquet pair: its number columns decoded straight into their place in
//! the design ([`placed`], by the page decoder of [`columns`] and `pages`) instead of through
//! polars' frames. The decoder is the `parquet-in-place` feature (on by default); without it no
//! column is placeable and polars reads every file ([`columns::Placeable`] is then empty).
//!
//! Whether a Parquet pair's features are decoded in their place in the design
//! ([`crate::place::columns`], issue 32), and which: before any row is read when the
//! schema settles it ([`from_schema`]), else from the first chunk's table
//! ([`from_first_chunk`]). Either way the features and the notes are the plain read's.

#[cfg(feature = "parquet-in-place")]
pub(crate) mod columns;
#[cfg(feature = "parquet-in-place")]
mod pages;
pub(crate) mod placed;

use std::path::Path;

use faer::Mat;
use polars::prelude::{Column, DataFrame, DataType};

use crate::place::columns::Placeable;
use crate::read::chunks::{selection, ChunkReader};
use crate::read::roles::{self, SEQUENCE_SAMPLE_ROWS};
use crate::read::table::{number_type, Cells, Table};

/// The features placed before any row is read, and whether they were defaulted (their first
/// rows are then still to be checked for row numbers, [`numbered`]).
pub(crate) struct Early {
    pub(crate) placeable: Placeable,
    pub(crate) defaulted: bool,
}

/// The features of `reader`'s file decoded in place from its first row, when every candidate
/// is a plain column of doubles and none is read as levels: the features given, or every
/// readable column but the target and the columns of numbers whose names leave them out (an
/// index, an identifier or a date by name; `skipped` gets what the plain read would say of
/// them). A column of doubles is numbers in any chunk, so the first chunk's table would take
/// it, unless its first rows are row numbers: judged once decoded ([`numbered`]). The chunks
/// then read only the target.
pub(crate) fn from_schema(
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
pub(crate) fn from_first_chunk(
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
pub(crate) fn numbered(x: &Mat<f64>, offset: usize, names: &[String]) -> bool {
    let rows = x.nrows().min(SEQUENCE_SAMPLE_ROWS);
    let columns = names
        .iter()
        .enumerate()
        .map(|(k, name)| Column::new(name.as_str().into(), &x.col_as_slice(offset + k)[..rows]));
    DataFrame::new(rows, columns.collect())
        .map_or(true, |sample| !roles::sequences_of(&sample).is_empty())
}

/// Without the `parquet-in-place` feature no column is placeable: polars reads every file.
#[cfg(not(feature = "parquet-in-place"))]
pub(crate) mod columns {
    use std::path::Path;

    use bayeslab_core::error::Result;
    use bayeslab_core::numeric::linalg::SharedColumns;

    /// Named columns of a file that can be placed: none in this build (a type without values).
    #[derive(Clone, Debug)]
    pub(crate) enum Placeable {}

    /// What decoding one column found: its NaN cells and whether one is infinite.
    pub(crate) struct Found {
        pub(crate) missing: usize,
        pub(crate) infinite: bool,
    }

    impl Placeable {
        /// Never: this build has no decoder of its own.
        pub(crate) fn of(_path: &Path, _names: &[String]) -> Option<Placeable> {
            None
        }

        pub(crate) fn rows(&self) -> usize {
            match *self {}
        }

        pub(crate) fn columns(&self) -> usize {
            match *self {}
        }

        /// # Safety
        /// Cannot be called: there is no `Placeable` to call it on.
        pub(crate) unsafe fn decode(
            &self,
            _path: &Path,
            _out: SharedColumns,
            _at: (usize, usize),
            _progress: &mut dyn FnMut(usize),
        ) -> Result<Vec<Found>> {
            match *self {}
        }
    }
}
