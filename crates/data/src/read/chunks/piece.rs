//! One chunk of a file as [`super::ChunkReader`] cuts it (a Parquet row slice, a CSV chunk's
//! bytes, or the places of a CSV chunk's parts), decoded on any thread into its polars frames.

use std::fs::File;
use std::io::Cursor;
use std::path::{Path, PathBuf};

use polars::prelude::*;

use super::{csv_parts, Typed};
use bayeslab_core::error::{Error, Result};

/// One chunk of a file, cut but not decoded.
pub(crate) struct Piece {
    pub(super) path: PathBuf,
    pub(super) columns: Option<Vec<String>>,
    pub(super) separator: u8,
    pub(super) typed: Option<Typed>,
    pub(super) kind: PieceKind,
}

pub(super) enum PieceKind {
    Parquet {
        metadata: polars::io::parquet::metadata::FileMetadataRef,
        offset: usize,
        rows: usize,
    },
    Csv {
        bytes: Vec<u8>,
    },
    CsvParts {
        header: Vec<u8>,
        parts: csv_parts::Parts,
        target: String,
        buffers: csv_parts::Buffers,
    },
}

impl Piece {
    /// The chunk's frames in row order: one, or its parts' ([`csv_parts`]).
    pub(crate) fn decode_parts(self) -> Result<Vec<DataFrame>> {
        if let PieceKind::CsvParts {
            header,
            parts,
            target,
            buffers,
        } = &self.kind
        {
            let columns = self.columns.as_deref();
            let typed = self.typed.as_ref();
            let parse = |bytes: &[u8]| parse_csv(&self.path, columns, self.separator, typed, bytes);
            return csv_parts::decode(&self.path, header, parts, target, buffers, &parse);
        }
        self.decode().map(|df| vec![df])
    }

    /// The chunk's frame (no rows when the file has none left).
    pub(crate) fn decode(self) -> Result<DataFrame> {
        if let PieceKind::CsvParts { .. } = self.kind {
            let path = self.path.clone();
            let mut frames = self.decode_parts()?.into_iter();
            let first = frames.next().unwrap_or_default();
            return frames.try_fold(first, |mut whole, df| {
                whole
                    .vstack_mut_owned(df)
                    .map_err(|e| Error::data(&path, format!("cannot read: {e}")))?;
                Ok(whole)
            });
        }
        let path = &self.path;
        match self.kind {
            PieceKind::Parquet {
                metadata,
                offset,
                rows,
            } => {
                let file =
                    File::open(path).map_err(|e| Error::data(path, format!("cannot open: {e}")))?;
                let mut reader = ParquetReader::new(file)
                    .with_slice(Some((offset, rows)))
                    .with_columns(self.columns);
                reader.set_metadata(metadata);
                reader
                    .finish()
                    .map_err(|e| Error::data(path, format!("cannot read as Parquet: {e}")))
            }
            PieceKind::Csv { bytes } => {
                let typed = self.typed.as_ref();
                parse_csv(path, self.columns.as_deref(), self.separator, typed, &bytes)
            }
            // Joined above.
            PieceKind::CsvParts { .. } => Ok(DataFrame::empty()),
        }
    }
}

/// Parse a CSV chunk's bytes (its header record first) with the loader's options, reading
/// `columns` when given: with the `typed` types when they read what inference reads, else
/// inferring the chunk's types from all of its cells (a chunk of plain numbers by
/// [`super::numeric`], to the frame polars would read).
fn parse_csv(
    path: &Path,
    columns: Option<&[String]>,
    separator: u8,
    typed: Option<&Typed>,
    bytes: &[u8],
) -> Result<DataFrame> {
    let projection: Option<Arc<[PlSmallStr]>> =
        columns.map(|c| c.iter().map(|n| PlSmallStr::from(n.as_str())).collect());
    let options = || crate::read::csv::options(separator).with_columns(projection.clone());
    if let Some(df) = typed.and_then(|t| t.parse(options(), columns, separator, bytes)) {
        return Ok(df);
    }
    if let Some(df) = super::numeric::infer(columns, separator, bytes) {
        return Ok(df);
    }
    options()
        .into_reader_with_file_handle(Cursor::new(bytes))
        .finish()
        .map_err(|e| crate::read::csv::read_error(path, separator, &e))
}
