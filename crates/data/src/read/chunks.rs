//! A CSV or Parquet file as a sequence of polars frames of at most `chunk_rows` rows (twice
//! that for the rest of a Parquet row group, [`ChunkReader::at_row_groups`]), in file order,
//! each read on its own: memory holds one chunk, never the file.
//!
//! Parquet: `ParquetReader::with_slice((offset, rows))` on the file's cached metadata. polars
//! skips the pages outside the slice without decompressing them, so a chunk costs its own pages.
//! CSV (polars 0.55 has no batched CSV reader without the `lazy` feature): one buffered pass
//! over the bytes cuts the file at record ends (newlines outside quotes, found with memchr), and
//! each chunk's bytes, behind the header line, are parsed by polars' CSV reader from memory with
//! the same options as the in-memory loader, or, when they are plain numbers, by
//! [`numeric`], which reads them to the same frame. No chunk rescans the bytes before it, so a
//! pass is linear in the file size.

use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use polars::prelude::*;

use bayeslab_core::error::{Error, Result};

mod csv_parts;
mod numeric;
mod piece;
pub(crate) mod tables;
mod typed;

pub(crate) use piece::Piece;
use piece::PieceKind;
pub(crate) use typed::Typed;

/// Bytes of the CSV read buffer.
const CSV_BUFFER: usize = 1 << 20;

pub(crate) struct ChunkReader {
    path: PathBuf,
    chunk_rows: usize,
    /// The file row where the next Parquet slice is cut.
    cut: usize,
    /// Only these columns are read, when set.
    columns: Option<Vec<String>>,
    /// Parquet columns of a type polars cannot read here, left out: (name, type).
    unread: crate::read::parquet_columns::Unread,
    separator: u8,
    format: Format,
    /// CSV only: parse each chunk in parts of this many records, and the target's name
    /// ([`csv_parts`]); the in-memory read of a wide file sets it, a streamed pass never does.
    parts: Option<(usize, String)>,
    /// CSV only, read in parts: the buffers the chunks are read back into.
    buffers: csv_parts::Buffers,
    /// CSV only: the types every chunk is parsed with, once the first chunk fixed them.
    typed: Option<Typed>,
    /// Parquet only: cut at the row groups' bounds ([`ChunkReader::at_row_groups`]).
    at_row_groups: bool,
}

enum Format {
    Parquet {
        metadata: polars::io::parquet::metadata::FileMetadataRef,
        rows: usize,
    },
    Csv {
        reader: BufReader<File>,
        /// The header record, newline included: the start of every chunk's bytes.
        header: Vec<u8>,
        names: Vec<String>,
        /// Inside a quoted field at the end of the bytes scanned so far.
        in_quotes: bool,
        done: bool,
    },
}

impl ChunkReader {
    /// Open `path` (a CSV with fields separated by `separator`, or Parquet) for a pass in chunks
    /// of `chunk_rows` rows, reading `target` and `features` when both are given. Without
    /// features a Parquet file's readable columns are read and the rest left out (`unread`).
    pub(crate) fn open(
        path: &Path,
        chunk_rows: usize,
        separator: u8,
        target: Option<&str>,
        features: Option<&[String]>,
    ) -> Result<Self> {
        let open = || File::open(path).map_err(|e| Error::data(path, format!("cannot open: {e}")));
        let mut columns = features.map(|f| selection(target.unwrap_or_default(), f));
        let mut unread = Vec::new();
        let format = if crate::read::files::is_parquet(path) {
            let bad = |e: PolarsError| Error::data(path, format!("cannot read as Parquet: {e}"));
            let mut reader = ParquetReader::new(open()?);
            let metadata = reader.get_metadata().map_err(bad)?.clone();
            let schema = reader.schema().map_err(bad)?;
            let (read, left_out) =
                crate::read::parquet_columns::select(path, &schema, target, features)?;
            (columns, unread) = (Some(read), left_out);
            Format::Parquet {
                rows: metadata.num_rows,
                metadata,
            }
        } else {
            let mut reader = BufReader::with_capacity(CSV_BUFFER, open()?);
            let mut header = Vec::new();
            crate::read::csv::read_record(&mut reader, &mut header)
                .map_err(|e| Error::data(path, format!("cannot read the header: {e}")))?;
            if header.iter().all(u8::is_ascii_whitespace) {
                return Err(Error::data(
                    path,
                    "the file is empty: a CSV needs a header row and data rows",
                ));
            }
            let names = crate::read::csv::check_header_names(path, &header, separator)?;
            crate::read::csv::check_tail(path, separator)?;
            if header.last() != Some(&b'\n') {
                header.push(b'\n');
            }
            Format::Csv {
                reader,
                header,
                names,
                in_quotes: false,
                done: false,
            }
        };
        Ok(ChunkReader {
            path: path.to_path_buf(),
            chunk_rows,
            cut: 0,
            columns,
            unread,
            separator,
            format,
            parts: None,
            buffers: csv_parts::Buffers::default(),
            typed: None,
            at_row_groups: false,
        })
    }

    /// Cut every CSV chunk by counting its records, and parse it in parts of `part_rows`
    /// records (one part when `part_rows` covers the chunk) read back from the file, when
    /// that reads what the whole chunk reads ([`csv_parts`]); the chunks' bounds stay where
    /// they were.
    pub(crate) fn in_parts(&mut self, part_rows: usize, target: &str) {
        self.parts = Some((part_rows.max(1), target.to_string()));
    }

    /// Cut a Parquet file's slices at its row groups' bounds: no slice crosses one, and the
    /// rest of a row group is one slice when it is at most twice the chunk's rows. polars
    /// decodes every page a slice touches whole (a column's page is often its whole row group),
    /// so a slice across two row groups, or a row group cut in two, decoded pages twice over
    /// (issue 32: a 100,000 x 500 file's row groups of 8,388 rows read in slices of 8,371). The
    /// column types come from the schema, so the cut does not change what is read.
    pub(crate) fn at_row_groups(&mut self) {
        self.at_row_groups = true;
    }

    /// The file's column names, from the Parquet schema or the CSV header, before any row is read.
    pub(crate) fn column_names(&self) -> Result<Vec<String>> {
        match &self.format {
            Format::Parquet { .. } => Ok(self
                .parquet_schema()?
                .iter()
                .map(|(n, _)| n.to_string())
                .collect()),
            Format::Csv { names, .. } => Ok(names.clone()),
        }
    }

    /// A Parquet file's schema, as polars reads it; an error for a CSV, whose types are known
    /// once read.
    pub(crate) fn parquet_schema(&self) -> Result<polars::prelude::ArrowSchema> {
        let Format::Parquet { metadata, .. } = &self.format else {
            return Err(Error::data(&self.path, "not a Parquet file"));
        };
        polars::io::parquet::read::infer_schema(metadata)
            .map_err(|e| Error::data(&self.path, format!("cannot read as Parquet: {e}")))
    }

    /// The rows of a Parquet file, from its metadata (a CSV's are known only once it is read).
    pub(crate) fn rows(&self) -> Option<usize> {
        match &self.format {
            Format::Parquet { rows, .. } => Some(*rows),
            Format::Csv { .. } => None,
        }
    }

    /// The columns every chunk reads, when they are chosen before the first (always for Parquet).
    pub(crate) fn width(&self) -> Option<usize> {
        self.columns.as_ref().map(Vec::len)
    }

    /// Parse every later CSV chunk with the types `first` (the first chunk's frame) was read
    /// with, when they read what inference would ([`Typed`]); a Parquet file has its types.
    pub(crate) fn fix_types(&mut self, first: &DataFrame, target: &str, features: &[String]) {
        if let Format::Csv { names, .. } = &self.format {
            self.typed = Typed::from_first(first, names, target, features);
        }
    }

    /// Parse every CSV chunk from the first with the features as numbers and the target as
    /// `target_type` (another file's fixed types, [`Typed::with_target`]); a chunk that does
    /// not read as inference would is parsed again inferring, as without this.
    pub(crate) fn fix_types_as(
        &mut self,
        target_type: &DataType,
        target: &str,
        features: &[String],
    ) {
        if let Format::Csv { names, .. } = &self.format {
            self.typed = Typed::with_target(target_type.clone(), names, target, features);
        }
    }

    /// Infer every later chunk's types from its cells.
    pub(crate) fn infer_types(&mut self) {
        self.typed = None;
    }

    /// The target's type the chunks after the first are parsed with, when they were fixed.
    pub(crate) fn fixed_target_type(&self, target: &str) -> Option<DataType> {
        self.typed.as_ref().and_then(|t| t.target_type(target))
    }

    /// The columns every chunk reads, when they are chosen before the first (always for
    /// Parquet: the target and the features, or every readable column).
    pub(crate) fn columns(&self) -> Option<&[String]> {
        self.columns.as_deref()
    }

    /// The Parquet columns left out for their type, as a note's entries.
    pub(crate) fn unread_entries(&self) -> impl Iterator<Item = String> + '_ {
        self.unread
            .iter()
            .map(|(n, t)| format!("\"{n}\" (the Parquet type {t}, which bayeslab cannot read)"))
    }

    /// Read only `columns` from the next chunk on.
    pub(crate) fn project(&mut self, columns: Vec<String>) {
        self.columns = Some(columns);
    }

    /// The next chunk cut from the file but not decoded (a Parquet row slice, or a CSV chunk's
    /// bytes), to be decoded on any thread; `None` after the last. Chunks are cut in file order
    /// and their bounds do not depend on how they are decoded, so decoding them in parallel
    /// and taking the frames in cut order reads what a sequential read would.
    pub(crate) fn next_piece(&mut self) -> Result<Option<Piece>> {
        let path = self.path.clone();
        let kind = match &mut self.format {
            Format::Parquet { metadata, rows } => {
                if self.cut >= *rows {
                    return Ok(None);
                }
                let offset = self.cut;
                let slice = match self.at_row_groups {
                    true => slice_rows(metadata, offset, self.chunk_rows),
                    false => self.chunk_rows,
                };
                self.cut += slice;
                PieceKind::Parquet {
                    metadata: metadata.clone(),
                    offset,
                    rows: slice,
                }
            }
            Format::Csv {
                reader,
                header,
                in_quotes,
                done,
                ..
            } => {
                if *done {
                    return Ok(None);
                }
                let cannot = |e: std::io::Error| Error::data(&path, format!("cannot read: {e}"));
                let (kind, rows) = match &self.parts {
                    Some((part_rows, target)) => {
                        let (parts, rows) =
                            csv_parts::cut(reader, self.chunk_rows, *part_rows, in_quotes)
                                .map_err(cannot)?;
                        let target = target.clone();
                        let header = header.clone();
                        let kind = PieceKind::CsvParts {
                            header,
                            parts,
                            target,
                            buffers: self.buffers.clone(),
                        };
                        (kind, rows)
                    }
                    _ => {
                        let mut bytes = header.clone();
                        let rows = crate::read::csv::take_records(
                            reader,
                            &mut bytes,
                            self.chunk_rows,
                            in_quotes,
                        )
                        .map_err(cannot)?;
                        (PieceKind::Csv { bytes }, rows)
                    }
                };
                if rows < self.chunk_rows {
                    *done = true;
                    if *in_quotes {
                        return Err(crate::read::csv::unclosed_at_end(&path, self.separator));
                    }
                }
                if rows == 0 {
                    return Ok(None);
                }
                kind
            }
        };
        Ok(Some(Piece {
            path,
            columns: self.columns.clone(),
            separator: self.separator,
            typed: self.typed.clone(),
            kind,
        }))
    }
}

/// The rows of the Parquet slice of `metadata`'s file that starts at row `offset`, cut at the
/// row groups ([`ChunkReader::at_row_groups`]): the rest of its row group when that is at most
/// twice `chunk_rows`, else `chunk_rows`.
fn slice_rows(
    metadata: &polars::io::parquet::metadata::FileMetadataRef,
    offset: usize,
    chunk_rows: usize,
) -> usize {
    let mut end = 0;
    for group in &metadata.row_groups {
        end += group.num_rows();
        if end > offset {
            let left = end - offset;
            return if left <= 2 * chunk_rows {
                left
            } else {
                chunk_rows
            };
        }
    }
    chunk_rows
}

/// A column selection for [`ChunkReader::open`] in the form polars' readers take.
pub(crate) fn selection(target: &str, features: &[String]) -> Vec<String> {
    std::iter::once(target.to_string())
        .chain(features.iter().cloned())
        .collect()
}
