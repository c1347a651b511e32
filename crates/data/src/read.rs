//! The first stage: a file into columns. polars reads CSV and Parquet into frames ([`table`],
//! whole; [`chunks`], chunk by chunk, with [`size`] choosing the chunk), its columns become plain
//! values ([`table`]), the CSV details both readers share are in [`csv`], the Parquet column
//! selection in [`parquet_columns`], NumPy's format in [`npy`]; [`roles`] says what each column
//! is for, [`pair`] holds a train/test pair to one reading, [`files`] names a file's kind, and
//! [`release`] hands freed memory back between chunks.

use std::path::Path;

pub(crate) mod chunks;
pub(crate) mod csv;
pub(crate) mod files;
#[cfg(test)]
mod format_tests;
pub mod npy;
pub(crate) mod pair;
pub(crate) mod parquet_columns;
pub(crate) mod release;
pub mod roles;
pub(crate) mod size;
pub(crate) mod table;

/// Told after every chunk the in-memory read gathers: the file, its rows read so far, and its
/// rows in all when the file says (a Parquet file's metadata; a CSV's count is known at its end).
pub type ReadProbe<'a> = &'a mut dyn FnMut(&Path, usize, Option<usize>);
