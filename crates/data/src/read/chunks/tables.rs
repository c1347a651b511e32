//! A file read chunk by chunk into [`Table`]s, in file order: what the in-memory loader
//! gathers into whole columns (a number column's pieces kept as they came) and every streamed
//! pass turns into design rows.

use std::path::Path;
use std::time::Instant;

use polars::prelude::DataFrame;
use rayon::prelude::*;

use crate::place;
use crate::place::columns::Placeable;
use crate::read::chunks::{selection, ChunkReader, Piece};
use crate::read::files::no_column;
use crate::read::table::{frame_table, not_a_number, Cells, Table};
use bayeslab_core::error::{Error, Result};

/// Chunks decoded at once by the in-memory loader: one per thread, at most [`MAX_AHEAD`].
pub(crate) fn ahead() -> usize {
    rayon::current_num_threads().clamp(1, MAX_AHEAD)
}

/// The most chunks decoded at once: beyond four the decoding is no longer the bottleneck on
/// the machines measured, and each costs a chunk's frame and bytes.
pub(crate) const MAX_AHEAD: usize = 4;

/// What a read cost: chunks and rows read, seconds in all and seconds reading (the rest went
/// to the consumer).
#[derive(Debug, Clone, Default)]
pub(crate) struct ReadCount {
    pub(crate) chunks: usize,
    pub(crate) rows: usize,
    pub(crate) seconds: f64,
    pub(crate) read_seconds: f64,
    /// What the read noticed (a column's padded levels), each once, in the order first met.
    pub(crate) notes: Vec<String>,
    /// The target's type the chunks were parsed with, when the types were fixed.
    pub(crate) target_type: Option<polars::prelude::DataType>,
    /// The features left out of the tables (from the first row, or after the first batch), to
    /// be decoded in place ([`Cut::place`]).
    pub(crate) placed: Option<Placeable>,
    /// Whether those features were defaulted before any row was read: their first rows are
    /// still to be checked for row numbers ([`place::numbered`]).
    pub(crate) check_sequences: bool,
}

/// How a file is cut: rows per chunk and, for a CSV, records per part of a chunk
/// ([`ChunkReader::in_parts`]; the tables then come a part at a time), and the target's type
/// when another file of the run fixed it (a CSV is then parsed with it from its first chunk,
/// [`ChunkReader::fix_types_as`], once its features are known).
pub(crate) struct Cut {
    pub(crate) chunk_rows: usize,
    pub(crate) csv_part_rows: Option<usize>,
    pub(crate) target_type: Option<polars::prelude::DataType>,
    /// A Parquet file is cut at its row groups ([`ChunkReader::at_row_groups`]).
    pub(crate) at_row_groups: bool,
    /// Whether the features may be decoded in place rather than read into the tables: when
    /// they are all plain columns of doubles ([`Placeable`]), the chunks read only the target
    /// (from the first when the schema settles the features, [`place::from_schema`]; else
    /// after the first batch, whose tables keep them), and [`ReadCount::placed`] says which
    /// columns are left to decode.
    pub(crate) place: bool,
}

impl Cut {
    /// Chunks of `chunk_rows` rows, each parsed whole (the streamed passes).
    pub(crate) fn whole(chunk_rows: usize) -> Cut {
        Cut {
            chunk_rows,
            csv_part_rows: None,
            target_type: None,
            at_row_groups: false,
            place: false,
        }
    }
}

/// Read `path` chunk by chunk, handing each chunk's columns to `f` with its first data row.
/// `features` is filled from the first chunk when it is `None` (every numeric column, as
/// [`crate::read::table::frame_table`] chooses them), with the columns left out, each with its
/// reason, in `skipped`. The columns read as levels in the first chunk are added to
/// `categorical`, so that every later chunk reads them as levels too (polars infers each chunk's types on its own); a column of
/// numbers in the first chunk that is text in a later one is an error naming the value.
///
/// `ahead` chunks at a time are cut from the file in order and decoded in parallel (rayon),
/// then handed to `f` in file order (a CSV's first chunk alone, before them): `ahead` chunks'
/// frames and tables are in memory at once, and what `f` sees does not depend on `ahead` or on
/// the threads.
#[allow(clippy::too_many_arguments)]
pub(crate) fn each_table(
    path: &Path,
    cut: Cut,
    separator: u8,
    target: &str,
    features: &mut Option<Vec<String>>,
    categorical: &mut Vec<String>,
    skipped: &mut Vec<String>,
    ahead: usize,
    f: &mut dyn FnMut(usize, Table) -> Result<()>,
) -> Result<ReadCount> {
    let start = Instant::now();
    let mut reader = open_reader(path, &cut, separator, target, features.as_deref())?;
    // Defaulted features: the row-number columns, from a sample the chunking does not change
    // (a Parquet file's is the first chunk's first rows, when it holds them: its types are
    // the schema's, so the rows read the same in any slice).
    let parquet = reader.rows();
    let mut sequences = match (&features, parquet) {
        (None, None) => crate::read::roles::sequences(path, separator, target)?,
        _ => Vec::new(),
    };
    let mut count = ReadCount::default();
    let (mut next_row, mut consumer) = (0, 0.0);
    let mut cut_error = None;
    // Features placed from the first row on, when the schema settles them: every batch is
    // then cut with the target alone.
    let early = (cut.place && parquet.is_some())
        .then(|| place::from_schema(path, &mut reader, target, features, categorical, skipped))
        .flatten();
    count.check_sequences = early.as_ref().is_some_and(|e| e.defaulted);
    let mut placed = early.map(|e| e.placeable);
    let late = placed.is_none();
    // The next batch, cut while the one before it was decoded.
    let mut cut_ahead = None;
    while cut_error.is_none() {
        // A CSV's first chunk alone: it decides the features, the columns read as levels and
        // the types the next chunks are parsed with. A Parquet file's types are its schema's,
        // so its first chunk comes with the next ones, each table made here in turn (issue 32:
        // a chunk decoded alone kept a core idle).
        let alone = count.chunks == 0 && parquet.is_none();
        let batch = if alone { 1 } else { ahead.max(1) };
        let (pieces, error) = match cut_ahead.take() {
            Some(cut) => cut,
            None => cut_batch(&mut reader, batch),
        };
        // Reported after the chunks before it, as a sequential read would.
        cut_error = error;
        let last = pieces.len() < batch || cut_error.is_some();
        // Each chunk's table is made on the thread that decoded it, but the first batch's when
        // it was cut with every feature (not placed from the first row): its first frame decides
        // the features and fixes the types, and its tables keep the features, placed or not.
        let first_batch = count.chunks == 0;
        let with_features = first_batch && late;
        let known = listed(features, placed.is_some()).filter(|_| !with_features);
        let tables = known.map(|features| Tabling {
            path,
            target,
            features,
            categorical,
        });
        let decode = |piece: Piece| decode_piece(piece, tables.as_ref());
        let decode_all = || -> Vec<Result<Vec<Decoded>>> {
            match pieces.len() > 1 {
                true => pieces.into_par_iter().map(decode).collect(),
                false => pieces.into_iter().map(decode).collect(),
            }
        };
        // After the first chunk (its frame fixes the types and columns later pieces are cut
        // with), the next batch is cut on another thread while this one is decoded.
        let frames = if count.chunks > 0 && !last {
            let (frames, next) = rayon::join(decode_all, || cut_batch(&mut reader, batch));
            cut_ahead = Some(next);
            frames
        } else {
            decode_all()
        };
        // Every piece's frames in order (a piece's error where its frames would be).
        let frames = frames.into_iter().flat_map(|piece| match piece {
            Ok(frames) => frames.into_iter().map(Ok).collect(),
            Err(e) => vec![Err(e)],
        });
        for decoded in frames {
            let Decoded { rows, df, table } = decoded?;
            if rows == 0 {
                break;
            }
            let first = next_row;
            next_row += rows;
            if let (0, None, Some(all), Some(df)) = (count.chunks, &features, parquet, &df) {
                sequences =
                    crate::read::roles::parquet_sequences(path, separator, target, df, all)?;
            }
            let table = match (table, &df) {
                (Some(Ok(table)), _) => table,
                // The first chunk, or a table refused on its thread: made here, where the
                // chunk's first row is known, so that the error names the row.
                (_, Some(df)) => frame_table(
                    path,
                    df,
                    target,
                    listed(features, placed.is_some() && !with_features),
                    categorical,
                    &sequences,
                    first,
                )?,
                (_, None) => unreachable!("a chunk's frame is kept unless its table was made"),
            };
            let columns = (&mut *categorical, &mut *skipped);
            let at = (count.chunks == 0, first);
            settle(
                path,
                target,
                &mut reader,
                &table,
                df.as_ref(),
                at,
                features,
                columns,
            )?;
            drop(df);
            if count.chunks == 0 && cut.place && late {
                placed = place::from_first_chunk(path, &table, features.as_deref());
                if placed.is_some() {
                    // The features are decoded in place: the chunks cut from now on read only
                    // the target.
                    reader.project(selection(target, &[]));
                }
            }
            for note in &table.notes {
                if !count.notes.contains(note) {
                    count.notes.push(note.clone());
                }
            }
            count.chunks += 1;
            count.rows += table.target.rows();
            let t = Instant::now();
            f(first, table)?;
            consumer += t.elapsed().as_secs_f64();
        }
        if last {
            break;
        }
    }
    if let Some(e) = cut_error {
        return Err(e);
    }
    if count.chunks == 0 {
        return Err(Error::data(path, "the file has a header but no data rows"));
    }
    count.target_type = reader.fixed_target_type(target);
    count.placed = placed;
    count.seconds = start.elapsed().as_secs_f64();
    count.read_seconds = count.seconds - consumer;
    Ok(count)
}

/// The reader of `path` as `cut` says, once the target and the `features` are found among its
/// columns (named before polars is asked for them, with the closest names in the file).
fn open_reader(
    path: &Path,
    cut: &Cut,
    separator: u8,
    target: &str,
    features: Option<&[String]>,
) -> Result<ChunkReader> {
    let mut reader = ChunkReader::open(path, cut.chunk_rows, separator, Some(target), features)?;
    if let Some(rows) = cut.csv_part_rows {
        reader.in_parts(rows, target);
    }
    if cut.at_row_groups {
        reader.at_row_groups();
    }
    if let (Some(t), Some(features)) = (&cut.target_type, features) {
        reader.fix_types_as(t, target, features);
    }
    let names = reader.column_names()?;
    let wanted = std::iter::once((target, "the target")).chain(
        features
            .iter()
            .copied()
            .flatten()
            .map(|f| (f.as_str(), "feature")),
    );
    for (name, role) in wanted {
        if !names.iter().any(|n| n == name) {
            return Err(no_column(path, role, name, &names));
        }
    }
    Ok(reader)
}

/// What a chunk's table settles: the columns read as levels (the first chunk names them, a
/// later chunk cannot add one: `at` is whether this is the first chunk, and its first row);
/// and from the first chunk, the features when none were given, the columns left out, and
/// the types the chunks after it are parsed with (its own when every column is a number).
#[allow(clippy::too_many_arguments)]
fn settle(
    path: &Path,
    target: &str,
    reader: &mut ChunkReader,
    table: &Table,
    df: Option<&DataFrame>,
    at: (bool, usize),
    features: &mut Option<Vec<String>>,
    (categorical, skipped): (&mut Vec<String>, &mut Vec<String>),
) -> Result<()> {
    let (first_chunk, first_row) = at;
    for (name, cells) in &table.features {
        if let Cells::Levels(v) = cells {
            if first_chunk {
                if !categorical.contains(name) {
                    categorical.push(name.clone());
                }
            } else if !categorical.contains(name) {
                return Err(not_a_number(path, name, v, first_row));
            }
        }
    }
    if features.is_none() {
        *features = Some(table.features.iter().map(|(n, _)| n.clone()).collect());
        *skipped = table.skipped.clone();
        skipped.extend(reader.unread_entries());
        reader.project(selection(target, features.as_deref().unwrap_or_default()));
    }
    if first_chunk {
        // Every column read as numbers: later chunks need not infer their types.
        let numbers = table
            .features
            .iter()
            .all(|(_, c)| matches!(c, Cells::Numbers(_)));
        match (numbers, df) {
            (true, Some(df)) => {
                reader.fix_types(df, target, features.as_deref().unwrap_or_default())
            }
            // Levels in the first chunk: every chunk infers (a type another file fixed no
            // longer holds).
            _ => reader.infer_types(),
        }
    }
    Ok(())
}

/// The next `batch` pieces cut from `reader` (fewer at the end of the file), and the error that
/// stopped the cut, if one did.
fn cut_batch(reader: &mut ChunkReader, batch: usize) -> (Vec<Piece>, Option<Error>) {
    let mut pieces = Vec::with_capacity(batch);
    while pieces.len() < batch {
        match reader.next_piece() {
            Ok(Some(p)) => pieces.push(p),
            Ok(None) => break,
            Err(e) => return (pieces, Some(e)),
        }
    }
    (pieces, None)
}

/// What a chunk's table is made of, once the features are known.
struct Tabling<'a> {
    path: &'a Path,
    target: &'a str,
    features: &'a [String],
    categorical: &'a [String],
}

/// A frame decoded: its rows, and its table when it could be made where it was decoded (the
/// frame itself kept only when not, to be made or refused in file order).
struct Decoded {
    rows: usize,
    df: Option<DataFrame>,
    table: Option<Result<Table>>,
}

/// Decode a piece and, with `tables`, make each frame's table. A table is made with its first
/// row unknown (0): the rows only name a refused value, and a refused table is made again in
/// file order, with its row.
fn decode_piece(piece: Piece, tables: Option<&Tabling>) -> Result<Vec<Decoded>> {
    let frames = piece.decode_parts()?;
    Ok(frames
        .into_iter()
        .map(|df| {
            let rows = df.height();
            let table = tables.map(|t| {
                frame_table(
                    t.path,
                    &df,
                    t.target,
                    Some(t.features),
                    t.categorical,
                    &[],
                    0,
                )
            });
            let keep = !matches!(table, Some(Ok(_)));
            Decoded {
                rows,
                df: keep.then_some(df),
                table,
            }
        })
        .collect())
}

/// The features a table is made with: none when they are decoded in place.
fn listed(features: &Option<Vec<String>>, placed: bool) -> Option<&[String]> {
    match placed {
        true => Some(&[]),
        false => features.as_deref(),
    }
}
