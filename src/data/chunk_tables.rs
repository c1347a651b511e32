//! A file read chunk by chunk into [`Table`]s, in file order: what the in-memory loader
//! gathers into whole columns and every streamed pass turns into design rows.

use std::path::Path;
use std::time::Instant;

use super::chunks::{selection, ChunkReader};
use super::files::no_column;
use super::table::{frame_table, not_a_number, Cells, Table};
use crate::error::{Error, Result};

/// What a read cost: chunks and rows read, seconds in all and seconds reading (the rest went
/// to the consumer).
#[derive(Debug, Clone, Default)]
pub(super) struct ReadCount {
    pub(super) chunks: usize,
    pub(super) rows: usize,
    pub(super) seconds: f64,
    pub(super) read_seconds: f64,
}

/// Read `path` chunk by chunk, handing each chunk's columns to `f` with its first data row.
/// `features` is filled from the first chunk when it is `None` (every numeric column, as
/// [`super::table::frame_table`] chooses them), with the non-numeric columns in `skipped`. The
/// columns read as levels in the first chunk are added to `categorical`, so that every later
/// chunk reads them as levels too (polars infers each chunk's types on its own); a column of
/// numbers in the first chunk that is text in a later one is an error naming the value.
#[allow(clippy::too_many_arguments)]
pub(super) fn each_table(
    path: &Path,
    chunk_rows: usize,
    separator: u8,
    target: &str,
    features: &mut Option<Vec<String>>,
    categorical: &mut Vec<String>,
    skipped: &mut Vec<String>,
    f: &mut dyn FnMut(usize, Table) -> Result<()>,
) -> Result<ReadCount> {
    let start = Instant::now();
    let mut reader = ChunkReader::open(
        path,
        chunk_rows,
        separator,
        Some(target),
        features.as_deref(),
    )?;
    // Named before polars is asked for them, with the closest names in the file.
    let names = reader.column_names()?;
    let wanted = std::iter::once((target, "the target"))
        .chain(features.iter().flatten().map(|f| (f.as_str(), "feature")));
    for (name, role) in wanted {
        if !names.iter().any(|n| n == name) {
            return Err(no_column(path, role, name, &names));
        }
    }
    let mut count = ReadCount::default();
    loop {
        let t = Instant::now();
        let Some((first, df)) = reader.next_chunk()? else {
            break;
        };
        let table = frame_table(path, &df, target, features.as_deref(), categorical, first)?;
        drop(df);
        for (name, cells) in &table.features {
            if let Cells::Levels(v) = cells {
                if count.chunks == 0 {
                    if !categorical.contains(name) {
                        categorical.push(name.clone());
                    }
                } else if !categorical.contains(name) {
                    return Err(not_a_number(path, name, v, first));
                }
            }
        }
        if features.is_none() {
            *features = Some(table.features.iter().map(|(n, _)| n.clone()).collect());
            *skipped = table.skipped.clone();
            let unread = reader.unread.iter().map(|(n, t)| format!("{n} ({t})"));
            skipped.extend(unread);
            reader.project(selection(target, features.as_deref().unwrap_or_default()));
        }
        count.read_seconds += t.elapsed().as_secs_f64();
        count.chunks += 1;
        count.rows += table.features.first().map_or(0, |(_, v)| v.len());
        f(first, table)?;
    }
    if count.chunks == 0 {
        return Err(Error::data(path, "the file has a header but no data rows"));
    }
    count.seconds = start.elapsed().as_secs_f64();
    Ok(count)
}
