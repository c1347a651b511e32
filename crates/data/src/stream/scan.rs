//! The statistics pass: one read of a file that counts what the in-memory loader would see
//! (labels, per-feature moments and ranges, missing values, the split's rows).

use std::path::Path;

use super::{Part, PassStats};
use crate::plan::{DataPlan, DataSource};
use crate::prepare;
use crate::prepare::encode::ColumnTally;
use crate::prepare::labels::LabelSet;
use crate::read::chunks::tables::{each_table, Cut};
use bayeslab_core::error::{Error, Result};

/// What a file's statistics pass found.
pub(super) struct FileScan {
    pub(super) labels: LabelSet,
    /// Per raw feature: its training statistics, levels and missing cells (see [`ColumnTally`]).
    pub(super) tallies: Vec<ColumnTally>,
    pub(super) target_missing: usize,
    pub(super) bad: usize,
    pub(super) first_bad: Option<usize>,
    pub(super) rows: usize,
    pub(super) stats: PassStats,
    /// What the read noticed (see `ReadCount::notes`).
    pub(super) notes: Vec<String>,
}

pub(super) fn is_test(row: usize, source: &DataSource, part_of_file: Option<Part>) -> bool {
    match (source, part_of_file) {
        (_, Some(part)) => part == Part::Test,
        (DataSource::Single { split, .. }, None) => prepare::row_is_test(row, *split) == Some(true),
        (DataSource::TrainTest { .. }, None) => false,
    }
}

/// The statistics pass over one file. `part` is `Some` for a separate train or test file;
/// `ahead` chunks are decoded at once.
#[allow(clippy::too_many_arguments)]
pub(super) fn scan(
    path: &Path,
    plan: &DataPlan,
    chunk_rows: usize,
    ahead: usize,
    part: Option<Part>,
    features: &mut Option<Vec<String>>,
    categorical: &mut Vec<String>,
    skipped: &mut Vec<String>,
) -> Result<FileScan> {
    let fills = plan.missing.fills();
    let mut s = FileScan {
        labels: LabelSet::new(&plan.target),
        tallies: Vec::new(),
        target_missing: 0,
        bad: 0,
        first_bad: None,
        rows: 0,
        stats: PassStats::default(),
        notes: Vec::new(),
    };
    let stats = each_table(
        path,
        Cut::whole(chunk_rows),
        plan.separator,
        &plan.target,
        features,
        categorical,
        skipped,
        ahead,
        &mut |first, table| {
            if s.tallies.is_empty() {
                s.tallies = vec![ColumnTally::new(false); table.features.len()];
            }
            for (t, (_, c)) in s.tallies.iter_mut().zip(&table.features) {
                t.push_file(c);
            }
            let distinct = s
                .labels
                .observe(&table.target, first)
                .map_err(|m| Error::data(path, m))?;
            for (i, d) in distinct.iter().enumerate() {
                let row = first + i;
                let used =
                    d.is_some() && (fills || table.features.iter().all(|(_, c)| !c.is_missing(i)));
                if d.is_none() {
                    s.target_missing += 1;
                }
                let Some(d) = (*d).filter(|_| used) else {
                    s.bad += 1;
                    s.first_bad.get_or_insert(row);
                    continue;
                };
                let test = is_test(row, &plan.source, part);
                if test {
                    s.labels.counts[d].1 += 1;
                } else {
                    s.labels.counts[d].0 += 1;
                }
                for (t, (_, c)) in s.tallies.iter_mut().zip(&table.features) {
                    t.push(c, i, test);
                }
            }
            s.rows += distinct.len();
            Ok(())
        },
    )?;
    s.notes = stats.notes.clone();
    s.stats = PassStats::from(stats);
    Ok(s)
}
