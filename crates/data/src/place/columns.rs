//! A Parquet file's number columns decoded straight into their place in a matrix (issue 32):
//! polars decodes a chunk into a frame of fresh arrays, which the loader then copies into the
//! design; the `parquet` crate's column reader writes through a buffer the caller keeps, so a
//! column goes from the file's pages into the design's with one copy and no array between. Only
//! plain columns of doubles qualify (no logical type, not repeated, nulls or not), in a codec this
//! build decodes; anything else is read by polars as before. A null becomes NaN, the loader's
//! missing cell, as polars' nulls do. A column chunk in the common case (no dictionary, no
//! null, a codec it knows) is read page by page instead ([`crate::place::pages`]).

use std::fs::File;
use std::io::Read;
use std::path::Path;
use std::sync::Arc;

use bytes::Bytes;
use parquet::basic::{Compression, Type as Physical};
use parquet::column::reader::ColumnReader;
use parquet::file::metadata::{ParquetMetaData, ParquetMetaDataReader};
use parquet::file::properties::ReaderProperties;
use parquet::file::reader::{ChunkReader, Length, RowGroupReader};
use parquet::file::serialized_reader::SerializedRowGroupReader;
use rayon::prelude::*;

use crate::place::pages::{Chunk, Pages};
use crate::read::table::missing_and_infinite;
use bayeslab_core::error::{Error, Result};
use bayeslab_core::numeric::linalg::SharedColumns;

/// Values decoded per call: a buffer of half a megabyte, reused for every page of a thread.
const BATCH: usize = 1 << 16;

/// Named columns of a file that can be placed: their leaves, and where each row group starts.
#[derive(Clone, Debug)]
pub(crate) struct Placeable {
    file: Arc<Positioned>,
    metadata: Arc<ParquetMetaData>,
    /// The file's bytes.
    length: u64,
    leaves: Vec<usize>,
    starts: Vec<usize>,
}

/// What decoding one column found: its NaN cells (nulls among them) and whether one is infinite.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct Found {
    pub(crate) missing: usize,
    pub(crate) infinite: bool,
}

impl Placeable {
    /// `names` of `path` when every one is a plain column of doubles in a codec this build
    /// decodes; `None` when one is not (polars reads the file then), or the file is not one
    /// the `parquet` crate opens.
    pub(crate) fn of(path: &Path, names: &[String]) -> Option<Placeable> {
        let file = File::open(path).ok()?;
        let length = file.metadata().ok()?.len();
        let file = Arc::new(Positioned(file));
        let metadata = Arc::new(ParquetMetaDataReader::new().parse_and_finish(&*file).ok()?);
        let schema = metadata.file_metadata().schema_descr();
        let leaves = names
            .iter()
            .map(|n| (0..schema.num_columns()).find(|&i| schema.column(i).path().string() == *n))
            .collect::<Option<Vec<usize>>>()?;
        let plain = |i: usize| {
            let c = schema.column(i);
            c.physical_type() == Physical::DOUBLE
                && c.logical_type_ref().is_none()
                && c.max_rep_level() == 0
                && c.max_def_level() <= 1
        };
        let decodable = |c: Compression| {
            matches!(
                c,
                Compression::UNCOMPRESSED
                    | Compression::SNAPPY
                    | Compression::ZSTD(_)
                    | Compression::BROTLI(_)
                    | Compression::LZ4
                    | Compression::LZ4_RAW
            )
        };
        let groups = metadata.row_groups();
        let codecs = groups
            .iter()
            .all(|g| leaves.iter().all(|&i| decodable(g.column(i).compression())));
        if !(leaves.iter().all(|&i| plain(i)) && codecs) {
            return None;
        }
        let mut starts = vec![0];
        for g in groups {
            starts.push(starts[starts.len() - 1] + usize::try_from(g.num_rows()).ok()?);
        }
        Some(Placeable {
            file,
            metadata,
            length,
            leaves,
            starts,
        })
    }

    /// The file's rows.
    pub(crate) fn rows(&self) -> usize {
        self.starts[self.starts.len() - 1]
    }

    /// The columns named.
    pub(crate) fn columns(&self) -> usize {
        self.leaves.len()
    }

    /// Decode column `k` of the named ones into column `first + k` of `out` (room for
    /// [`Self::rows`] rows) from row `from` on (the row groups that end after it, whole), every
    /// row group of every column a task of its own; what each column held there, in the order
    /// named.
    ///
    /// # Safety
    /// `out`'s columns `first..first + names` have room for [`Self::rows`] rows, and nothing
    /// else reads or writes them until this returns.
    pub(crate) unsafe fn decode(
        &self,
        path: &Path,
        out: SharedColumns,
        (first, from_row): (usize, usize),
        progress: &mut dyn FnMut(usize),
    ) -> Result<Vec<Found>> {
        let groups = self.starts.len() - 1;
        // The row group holding row `from_row`: the groups before it end at or before it.
        let start = self.starts[1..].partition_point(|&end| end <= from_row);
        // Row groups per round: four tasks per thread, so that none waits long at its end.
        let round = (4 * rayon::current_num_threads()).div_ceil(self.leaves.len().max(1));
        let mut columns = vec![Found::default(); self.leaves.len()];
        for from in (start..groups).step_by(round.max(1)) {
            let to = (from + round.max(1)).min(groups);
            let tasks: Vec<(usize, usize)> = (from..to)
                .flat_map(|g| (0..self.leaves.len()).map(move |k| (g, k)))
                .collect();
            let found = tasks
                .par_iter()
                .map_init(Buffers::default, |buffers, &(g, k)| {
                    // SAFETY: column first + k has room for every row (the caller's promise),
                    // and row group g's rows of it are written by this task alone.
                    let column = unsafe { out.column(first + k).add(self.starts[g]) };
                    self.decode_group(g, k, column, buffers)
                        .map_err(|e| Error::data(path, format!("row group {g}, column {k}: {e}")))
                })
                .collect::<Result<Vec<Found>>>()?;
            for (&(_, k), f) in tasks.iter().zip(found) {
                columns[k].missing += f.missing;
                columns[k].infinite |= f.infinite;
            }
            progress(self.starts[to]);
        }
        Ok(columns)
    }

    /// Row group `g` of named column `k`, written from `column` on.
    fn decode_group(
        &self,
        g: usize,
        k: usize,
        column: *mut f64,
        buffers: &mut Buffers,
    ) -> parquet::errors::Result<Found> {
        let rows = self.starts[g + 1] - self.starts[g];
        if let Some(found) = self.decode_pages(g, k, column, rows, &mut buffers.pages) {
            return Ok(found);
        }
        let properties = Arc::new(ReaderProperties::builder().build());
        let group = SerializedRowGroupReader::new(
            Arc::clone(&self.file),
            self.metadata.row_group(g),
            None,
            properties,
        )?;
        let ColumnReader::DoubleColumnReader(mut reader) =
            group.get_column_reader(self.leaves[k])?
        else {
            unreachable!("a placeable column is a column of doubles");
        };
        let (mut at, mut found) = (0, Found::default());
        let Buffers { values, levels, .. } = buffers;
        while at < rows {
            values.clear();
            levels.clear();
            let (records, _, _) =
                reader.read_records(BATCH.min(rows - at), Some(levels), None, values)?;
            if records == 0 {
                return Err(parquet::errors::ParquetError::EOF(format!(
                    "{rows} rows promised, {at} found"
                )));
            }
            // SAFETY: rows at..at + records of this row group, inside the column (`decode`).
            let out = unsafe { std::slice::from_raw_parts_mut(column.add(at), records) };
            found = place(out, values, levels, records, found);
            at += records;
        }
        Ok(found)
    }

    /// Row group `g` of named column `k` by the page-level path ([`Pages`]), when it reads it.
    fn decode_pages(
        &self,
        g: usize,
        k: usize,
        column: *mut f64,
        rows: usize,
        pages: &mut Pages,
    ) -> Option<Found> {
        let leaf = self.leaves[k];
        let meta = self.metadata.row_group(g).column(leaf);
        if meta.dictionary_page_offset().is_some() {
            return None;
        }
        let (start, length) = meta.byte_range();
        // A chunk past the file's end (a damaged footer) is the crate reader's to report.
        if start.checked_add(length)? > self.length {
            return None;
        }
        let chunk = Chunk {
            start,
            length: usize::try_from(length).ok()?,
            codec: meta.compression(),
            max_definition: self
                .metadata
                .file_metadata()
                .schema_descr()
                .column(leaf)
                .max_def_level(),
        };
        // SAFETY: row group g's rows of the column, written by this task alone (`decode`).
        let out = unsafe { std::slice::from_raw_parts_mut(column, rows) };
        pages.decode(&chunk, out, |buffer, at| {
            read_exact_at(&self.file.0, buffer, at)
        })?;
        Some(Found::default().and(out))
    }
}

/// `values` (the present ones) into `out`, NaN where `levels` says null (no levels: none is).
fn place(out: &mut [f64], values: &[f64], levels: &[i16], records: usize, found: Found) -> Found {
    if values.len() == records {
        out.copy_from_slice(values);
    } else {
        let mut present = values.iter();
        for (o, &l) in out.iter_mut().zip(levels) {
            *o = if l > 0 {
                *present.next().unwrap_or(&f64::NAN)
            } else {
                f64::NAN
            };
        }
    }
    found.and(out)
}

impl Found {
    /// What was found so far, and in `values`.
    fn and(self, values: &[f64]) -> Found {
        let (missing, infinite) = missing_and_infinite(values);
        Found {
            missing: self.missing + missing,
            infinite: self.infinite | infinite,
        }
    }
}

/// A thread's buffers for one batch of values and their definition levels, and for the
/// page-level path.
#[derive(Default)]
struct Buffers {
    values: Vec<f64>,
    levels: Vec<i16>,
    pages: Pages,
}

/// A file read at positions (`pread`), so that every thread reads its own column chunks of one
/// open file without a shared cursor (the crate's own `File` reader seeks a shared one).
#[derive(Debug)]
struct Positioned(File);

impl Length for Positioned {
    fn len(&self) -> u64 {
        self.0.metadata().map(|m| m.len()).unwrap_or(0)
    }
}

impl ChunkReader for Positioned {
    type T = At;

    fn get_read(&self, start: u64) -> parquet::errors::Result<At> {
        let file = self.0.try_clone()?;
        Ok(At { file, at: start })
    }

    fn get_bytes(&self, start: u64, length: usize) -> parquet::errors::Result<Bytes> {
        let mut buffer = vec![0; length];
        read_exact_at(&self.0, &mut buffer, start)?;
        Ok(buffer.into())
    }
}

/// Fill `buffer` from byte `at` of `file`.
fn read_exact_at(file: &File, buffer: &mut [u8], at: u64) -> std::io::Result<()> {
    let mut done = 0;
    while done < buffer.len() {
        match read_at(file, &mut buffer[done..], at + done as u64)? {
            0 => return Err(std::io::ErrorKind::UnexpectedEof.into()),
            n => done += n,
        }
    }
    Ok(())
}

/// A reader from a position of its own.
struct At {
    file: File,
    at: u64,
}

impl Read for At {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = read_at(&self.file, buf, self.at)?;
        self.at += n as u64;
        Ok(n)
    }
}

/// Read into `buf` from byte `at` of `file`, its cursor untouched where the system allows.
#[cfg(unix)]
fn read_at(file: &File, buf: &mut [u8], at: u64) -> std::io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(file, buf, at)
}

/// Read into `buf` from byte `at` of `file` (Windows moves the cursor, which no reader here uses).
#[cfg(windows)]
fn read_at(file: &File, buf: &mut [u8], at: u64) -> std::io::Result<usize> {
    std::os::windows::fs::FileExt::seek_read(file, buf, at)
}

#[cfg(test)]
#[path = "columns_tests.rs"]
mod tests;
