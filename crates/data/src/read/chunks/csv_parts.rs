//! A CSV chunk cut by counting its records and read back from the file by the thread that
//! parses it (the in-memory read), in parts for a wide file. A 65,536-row chunk of
//! 500 columns is 640 MB of text, and polars holds it beside its 262 MB frame while parsing:
//! more than the half of X the loader may spend beside the columns it gathers.
//!
//! The chunk keeps its bounds (polars infers its column types from all of its rows, and
//! those types decide what is read), but its records are read back from the file and parsed
//! `part_rows` at a time, types inferred per part, the parts on any thread (a wide file's
//! first chunk, decoded alone, is most of its training file). The parts' frames stand for the chunk's
//! frame only when every column would hold the same values: the same type in every part (the
//! chunk's rows then resolve to it too: a part's type is the chunk's when every part agrees), or
//! integers and floats (the chunk's type is then float, and an integer parsed whole and cast
//! equals the same text parsed as a float) with no missing integer cell, where an integer too
//! wide for i64 could hide. A feature column of text never counts as the same: whether its
//! numbers make it a stray-text error depends on all of the chunk's values. Otherwise, or when
//! a part fails to parse, the chunk is read back whole and parsed at once, as the streamed
//! passes parse it, so that its values and its errors are theirs.

use std::fs::File;
use std::io::{BufReader, Read, Seek, SeekFrom};
use std::path::Path;

use polars::prelude::*;
use rayon::prelude::*;

use crate::read::csv;
use bayeslab_core::error::{Error, Result};

/// Where a chunk's records lie in the file: its first byte and each part's bytes and rows.
pub(crate) struct Parts {
    start: u64,
    parts: Vec<(u64, usize)>,
}

/// The byte buffers chunks are read back into, kept from chunk to chunk of one read (a chunk
/// of 65,536 rows is tens of megabytes of text).
pub(crate) type Buffers = crate::read::release::Recycled<u8>;

/// Scan the next chunk of at most `chunk_rows` records from `reader` in parts of `part_rows`,
/// keeping their places, not their bytes; the records read in all.
pub(super) fn cut(
    reader: &mut BufReader<File>,
    chunk_rows: usize,
    part_rows: usize,
    in_quotes: &mut bool,
) -> std::io::Result<(Parts, usize)> {
    let start = reader.stream_position()?;
    let (mut at, mut rows) = (start, 0);
    let mut parts = Vec::new();
    while rows < chunk_rows {
        let want = part_rows.min(chunk_rows - rows);
        let n = csv::skip_records(reader, want, in_quotes)?;
        let end = reader.stream_position()?;
        if n > 0 {
            parts.push((end - at, n));
        }
        (at, rows) = (end, rows + n);
        if n < want {
            break;
        }
    }
    Ok((Parts { start, parts }, rows))
}

/// Parse the chunk at `parts` of `path` (its header record `header`), read back into one of
/// `buffers`: the parts' frames when they read what the whole chunk reads, else the whole
/// chunk's frame.
pub(super) fn decode(
    path: &Path,
    header: &[u8],
    parts: &Parts,
    target: &str,
    buffers: &Buffers,
    parse: &(dyn Fn(&[u8]) -> Result<DataFrame> + Sync),
) -> Result<Vec<DataFrame>> {
    let open = || File::open(path).map_err(|e| Error::data(path, format!("cannot open: {e}")));
    let read_back = |file: &mut File, bytes: u64, text: &mut Vec<u8>| -> Result<()> {
        text.clear();
        text.extend_from_slice(header);
        file.by_ref()
            .take(bytes)
            .read_to_end(text)
            .map_err(|e| Error::data(path, format!("cannot read: {e}")))?;
        // The file's last record may lack its newline: the reader's cut adds one.
        if text.last() != Some(&b'\n') {
            text.push(b'\n');
        }
        Ok(())
    };
    // The records `bytes` long from `at`, read back into a kept buffer and parsed: `Err` when
    // they cannot be read, `Ok(Err)` when they do not parse.
    let read_and_parse = |at: u64, bytes: u64| -> Result<Result<DataFrame>> {
        let mut file = open()?;
        file.seek(SeekFrom::Start(at))
            .map_err(|e| Error::data(path, format!("cannot read: {e}")))?;
        let mut text = buffers.take();
        read_back(&mut file, bytes, &mut text)?;
        let df = parse(&text);
        buffers.give(text);
        Ok(df)
    };
    // Each part on any thread (the first chunk is decoded alone, and a wide file's first chunk
    // is many parts): its frame, or `None` when it fails to parse.
    let places: Vec<(u64, u64)> = parts
        .parts
        .iter()
        .scan(parts.start, |at, &(bytes, _)| {
            *at += bytes;
            Some((*at - bytes, bytes))
        })
        .collect();
    let part = |(at, bytes): (u64, u64)| read_and_parse(at, bytes).map(Result::ok);
    let parsed: Vec<Option<DataFrame>> = match places.len() {
        1 => places.into_iter().map(part).collect::<Result<_>>()?,
        _ => places.into_par_iter().map(part).collect::<Result<_>>()?,
    };
    let frames: Vec<DataFrame> = parsed.into_iter().map_while(|df| df).collect();
    // One part is the whole chunk.
    let whole = frames.len() == 1 && parts.parts.len() == 1;
    if whole || (frames.len() == parts.parts.len() && same_as_whole(&frames, target)) {
        return Ok(frames);
    }
    drop(frames);
    let total = parts.parts.iter().map(|&(b, _)| b).sum();
    Ok(vec![read_and_parse(parts.start, total)??])
}

/// Whether every column of `frames` holds what the frame of all their rows at once would.
fn same_as_whole(frames: &[DataFrame], target: &str) -> bool {
    let Some(first) = frames.first() else {
        return true;
    };
    first.columns().iter().all(|column| {
        let name = column.name();
        let columns: Option<Vec<&Column>> = frames.iter().map(|df| df.column(name).ok()).collect();
        let Some(columns) = columns else {
            return false;
        };
        let dtypes: Vec<&DataType> = columns.iter().map(|c| c.dtype()).collect();
        if dtypes.iter().all(|t| *t == dtypes[0]) {
            return name.as_str() == target || !dtypes[0].is_string();
        }
        columns.iter().all(|c| match c.dtype() {
            DataType::Float64 => true,
            DataType::Int64 => c.null_count() == 0,
            _ => false,
        })
    })
}

#[cfg(test)]
#[path = "csv_parts_tests.rs"]
mod tests;
