//! The passes after opening: each chunk turned into the design rows the in-memory loader
//! would have made.

use std::time::Instant;

use super::scan::is_test;
use super::source::Fingerprint;
use super::{DesignChunk, Part, PassStats, RawRows, StreamedData};
use crate::plan::DataSource;
use crate::prepare;
use crate::prepare::features::{sampled_rows, FittedMap, TrainingRows};
use crate::read::chunks::tables::{each_table, Cut};
use crate::read::table::Cells;
use bayeslab_core::error::{Error, Result};
use bayeslab_core::record::PassPurpose;

impl StreamedData {
    /// The feature map, fitted on the training rows' ranges (and, for sampled RBF centres, on
    /// one more pass that collects the sampled rows).
    pub(super) fn fit_map(&mut self) -> Result<FittedMap> {
        use crate::plan::{Centres, FeatureMap};
        let standardise = |j: usize, v: f64| match &self.stats {
            Some(s) => prepare::standardise(v, s[j].0, s[j].1),
            None => v,
        };
        let ranges: Vec<(f64, f64)> = self
            .summaries
            .iter()
            .enumerate()
            .map(|(j, s)| (standardise(j, s.min), standardise(j, s.max)))
            .collect();
        let sampled = match self.plan.feature_map {
            FeatureMap::Rbf {
                centres: Centres::Sample { k },
                ..
            } => {
                let rows = sampled_rows(self.rows_train, k, self.plan.seed);
                let want: std::collections::HashMap<usize, usize> =
                    rows.iter().enumerate().map(|(pos, &r)| (r, pos)).collect();
                let mut centres = vec![Vec::new(); rows.len()];
                let mut seen = 0usize;
                let stats = self.raw_pass(Part::Train, &mut |cols, _, _| {
                    let rows = cols.first().map_or(0, Vec::len);
                    for i in 0..rows {
                        if let Some(&pos) = want.get(&(seen + i)) {
                            centres[pos] = cols
                                .iter()
                                .enumerate()
                                .map(|(j, c)| standardise(j, c[i]))
                                .collect();
                        }
                    }
                    seen += rows;
                    Ok(())
                })?;
                self.preparation.push((PassPurpose::RbfCentres, stats));
                centres
            }
            _ => Vec::new(),
        };
        Ok(FittedMap::fit(
            &self.plan.feature_map,
            self.encoder.names.len(),
            &self.encoder.names,
            TrainingRows::Summary {
                ranges: &ranges,
                sampled,
            },
            self.plan.seed,
        ))
    }

    /// Pass over the rows of `part`: the encoded feature columns of the rows used (as the
    /// in-memory loader keeps them), class indices and data rows of each chunk.
    pub(super) fn raw_pass(&self, part: Part, f: &mut RawRows<'_>) -> Result<PassStats> {
        let (path, labels, file_part) = match (&self.plan.source, part) {
            (DataSource::Single { path, .. }, _) => (path, &self.train_labels, None),
            (DataSource::TrainTest { train, .. }, Part::Train) => {
                (train, &self.train_labels, Some(Part::Train))
            }
            (DataSource::TrainTest { test, .. }, Part::Test) => (
                test,
                self.test_labels.as_ref().unwrap_or(&self.train_labels),
                Some(Part::Test),
            ),
        };
        let source = &self.sources[usize::from(file_part == Some(Part::Test))];
        source.check("before a pass over it")?;
        let mut features = Some(self.features.clone());
        let mut categorical = self.categorical.clone();
        let fills = self.plan.missing.fills();
        let mut labels = labels.clone();
        let mut compute = 0.0;
        let mut print = Fingerprint::default();
        let read = each_table(
            path,
            Cut::whole(self.streaming.chunk_rows),
            self.plan.separator,
            &self.target,
            &mut features,
            &mut categorical,
            &mut Vec::new(),
            self.ahead,
            &mut |first, table| {
                let distinct = labels
                    .observe(&table.target, first)
                    .map_err(|m| Error::data(path, m))?;
                let keep: Vec<usize> = (0..distinct.len())
                    .filter(|&i| {
                        distinct[i].is_some()
                            && (fills || table.features.iter().all(|(_, c)| !c.is_missing(i)))
                            && is_test(first + i, &self.plan.source, file_part)
                                == (part == Part::Test)
                    })
                    .collect();
                let cells: Vec<&Cells> = table.features.iter().map(|(_, c)| c).collect();
                let cols = self.encoder.encode(&cells, &keep);
                let y: Vec<f64> = keep
                    .iter()
                    .map(|&i| distinct[i].map_or(f64::NAN, |d| labels.class(d)))
                    .collect();
                let rows: Vec<usize> = keep.iter().map(|&i| first + i).collect();
                drop(table);
                print.chunk(&cols, &y, &rows);
                let t = Instant::now();
                f(&cols, y, rows)?;
                compute += t.elapsed().as_secs_f64();
                Ok(())
            },
        );
        // A file that changed explains whatever its read found wrong.
        source.check("during a pass over it")?;
        let mut stats = PassStats::from(read?);
        source.check_rows(stats.rows, "during a pass over it")?;
        source.check_content(part == Part::Test, print.0, "during a pass over it")?;
        stats.read_seconds = stats.seconds - compute;
        Ok(stats)
    }

    /// One pass over the rows of `part` in the data file, handing `f` each chunk's design rows,
    /// exactly as the in-memory loader would have made them.
    pub(super) fn decode_pass(
        &self,
        part: Part,
        f: &mut dyn FnMut(&DesignChunk) -> Result<()>,
    ) -> Result<PassStats> {
        let mut rows = 0;
        let mut build = 0.0;
        let mut stats = self.raw_pass(part, &mut |cols, y, source_rows| {
            if y.is_empty() {
                return Ok(());
            }
            let t = Instant::now();
            let x = if self.map.is_identity() {
                // the same values as below, in one matrix instead of three
                prepare::design(cols, self.stats.as_deref(), self.plan.intercept)
            } else {
                let standardised = prepare::design(cols, self.stats.as_deref(), false);
                prepare::with_intercept(self.map.apply_owned(standardised), self.plan.intercept)
            };
            build += t.elapsed().as_secs_f64();
            rows += y.len();
            f(&DesignChunk { x, y, source_rows })
        })?;
        stats.rows = rows;
        stats.read_seconds += build;
        Ok(stats)
    }
}
