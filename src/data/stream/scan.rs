//! The statistics pass: one read of a file that counts what the in-memory loader would see
//! (labels, per-feature moments and ranges, missing values, the split's rows).

use std::path::Path;
use std::time::Instant;

use super::{Part, PassStats};
use crate::config::{DataPlan, DataSource};
use crate::data::chunks::{selection, ChunkReader};
use crate::data::labels::LabelSet;
use crate::data::moments::Moments;
use crate::data::prepare;
use crate::data::table::{frame_table, Table};
use crate::error::{Error, Result};

/// Per-feature running statistics over the training rows.
#[derive(Debug, Clone)]
pub(super) struct Running {
    pub(super) moments: Moments,
    pub(super) min: f64,
    pub(super) max: f64,
    /// Missing values in every row of the file (as the in-memory summary counts them).
    pub(super) missing: usize,
}

impl Running {
    pub(super) fn new() -> Self {
        Running {
            moments: Moments::default(),
            min: f64::INFINITY,
            max: f64::NEG_INFINITY,
            missing: 0,
        }
    }

    pub(super) fn push(&mut self, v: f64) {
        self.moments.push(v);
        self.min = self.min.min(v);
        self.max = self.max.max(v);
    }

    /// (mean, population sd) as [`prepare::column_stats`] defines them.
    pub(super) fn moments(&self) -> (f64, f64) {
        self.moments.mean_sd()
    }
}

/// What a file's statistics pass found.
pub(super) struct FileScan {
    pub(super) labels: LabelSet,
    pub(super) running: Vec<Running>,
    pub(super) target_missing: usize,
    pub(super) bad: usize,
    pub(super) first_bad: Option<usize>,
    pub(super) rows: usize,
    pub(super) stats: PassStats,
}

pub(super) fn is_test(row: usize, source: &DataSource, part_of_file: Option<Part>) -> bool {
    match (source, part_of_file) {
        (_, Some(part)) => part == Part::Test,
        (DataSource::Single { split, .. }, None) => prepare::row_is_test(row, *split) == Some(true),
        (DataSource::TrainTest { .. }, None) => false,
    }
}

/// Read `path` chunk by chunk, handing each chunk's columns to `f` with its first data row.
/// `features` is filled from the first chunk when it is `None` (every numeric column, as
/// [`super::table::read`] chooses them), with the non-numeric columns in `skipped`.
pub(super) fn each_chunk(
    path: &Path,
    chunk_rows: usize,
    separator: u8,
    target: &str,
    features: &mut Option<Vec<String>>,
    skipped: &mut Vec<String>,
    f: &mut dyn FnMut(usize, Table) -> Result<()>,
) -> Result<PassStats> {
    let start = Instant::now();
    let mut reader = ChunkReader::open(
        path,
        chunk_rows,
        separator,
        Some(target),
        features.as_deref(),
    )?;
    let mut stats = PassStats::default();
    loop {
        let t = Instant::now();
        let Some((first, df)) = reader.next_chunk()? else {
            break;
        };
        let table = frame_table(path, &df, target, features.as_deref(), first)?;
        drop(df);
        if features.is_none() {
            *features = Some(table.features.iter().map(|(n, _)| n.clone()).collect());
            *skipped = table.skipped.clone();
            let unread = reader.unread.iter().map(|(n, t)| format!("{n} ({t})"));
            skipped.extend(unread);
            reader.project(selection(target, features.as_deref().unwrap_or_default()));
        }
        stats.read_seconds += t.elapsed().as_secs_f64();
        stats.chunks += 1;
        stats.rows += table.features.first().map_or(0, |(_, v)| v.len());
        f(first, table)?;
    }
    if stats.chunks == 0 {
        return Err(Error::data(path, "the file has a header but no data rows"));
    }
    stats.seconds = start.elapsed().as_secs_f64();
    Ok(stats)
}

/// The statistics pass over one file. `part` is `Some` for a separate train or test file.
pub(super) fn scan(
    path: &Path,
    plan: &DataPlan,
    chunk_rows: usize,
    part: Option<Part>,
    features: &mut Option<Vec<String>>,
    skipped: &mut Vec<String>,
) -> Result<FileScan> {
    let mut s = FileScan {
        labels: LabelSet::new(&plan.target),
        running: Vec::new(),
        target_missing: 0,
        bad: 0,
        first_bad: None,
        rows: 0,
        stats: PassStats::default(),
    };
    let stats = each_chunk(
        path,
        chunk_rows,
        plan.separator,
        &plan.target,
        features,
        skipped,
        &mut |first, table| {
            if s.running.is_empty() {
                s.running = vec![Running::new(); table.features.len()];
            }
            let distinct = s
                .labels
                .observe(&table.target, first)
                .map_err(|m| Error::data(path, m))?;
            for (i, d) in distinct.iter().enumerate() {
                let row = first + i;
                let complete = d.is_some() && table.features.iter().all(|(_, c)| c[i].is_some());
                if d.is_none() {
                    s.target_missing += 1;
                }
                for (r, (_, c)) in s.running.iter_mut().zip(&table.features) {
                    if c[i].is_none() {
                        r.missing += 1;
                    }
                }
                let Some(d) = (*d).filter(|_| complete) else {
                    s.bad += 1;
                    s.first_bad.get_or_insert(row);
                    continue;
                };
                if is_test(row, &plan.source, part) {
                    s.labels.counts[d].1 += 1;
                } else {
                    s.labels.counts[d].0 += 1;
                    for (r, (_, c)) in s.running.iter_mut().zip(&table.features) {
                        r.push(c[i].unwrap_or(f64::NAN));
                    }
                }
            }
            s.rows += distinct.len();
            Ok(())
        },
    )?;
    s.stats = stats;
    Ok(s)
}
