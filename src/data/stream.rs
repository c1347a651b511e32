//! The data of a streamed experiment (`[data] streaming = true`): the file is never loaded. One
//! statistics pass learns what the in-memory loader learns from the whole file (the columns,
//! the classes, missing values, the split's row counts, each feature's training mean, sd, min
//! and max), then every later pass turns each chunk into the same design rows
//! [`super::load`] would make: the same split, standardisation, feature map and intercept.
//!
//! Passes before fitting: 1 over the data file (statistics), plus 1 over the test file when
//! train and test are separate files (its labels and missing values), plus 1 over the training
//! rows under `[features] map = "rbf"` with `centres = "sample"` (the sampled rows). Means and
//! sds come from [`Moments`], the in-memory loader's code, so they are equal to its values.

use std::path::{Path, PathBuf};
use std::time::Instant;

use faer::Mat;
use serde::Serialize;

use super::chunks::{selection, ChunkReader};
use super::features::{
    check_names, check_width, mapped_width, sampled_rows, FittedMap, TrainingRows,
};
use super::labels::LabelSet;
use super::moments::Moments;
use super::table::{frame_table, Table};
use super::{check_classes, missing_message, note_skipped, prepare, FeatureSummary, INTERCEPT};
use crate::config::{DataPlan, DataSource, Missing, Streaming};
use crate::error::{Error, Result};

/// Which rows a pass delivers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    Train,
    Test,
}

/// What one pass over a file cost: chunks read, rows delivered, and the wall time, of which
/// `read_seconds` went to polars and turning its columns into design rows.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct PassStats {
    pub chunks: usize,
    pub rows: usize,
    pub seconds: f64,
    pub read_seconds: f64,
}

/// Design rows of one chunk: as [`super::Design`], for the rows of the chunk in the pass's part.
#[derive(Debug, Clone)]
pub struct DesignChunk {
    pub x: Mat<f64>,
    pub y: Vec<f64>,
    pub source_rows: Vec<usize>,
}

/// A data file being streamed, with everything the statistics pass learnt.
#[derive(Debug, Clone)]
pub struct StreamedData {
    pub files: Vec<PathBuf>,
    pub target: String,
    pub classes: Vec<String>,
    pub features: Vec<String>,
    pub columns: Vec<String>,
    pub summaries: Vec<FeatureSummary>,
    pub notes: Vec<String>,
    pub rows_train: usize,
    pub rows_test: usize,
    pub positives_train: usize,
    pub positives_test: usize,
    /// The passes made before fitting (statistics, test labels, RBF centres), in order.
    pub preparation: Vec<(String, PassStats)>,
    pub streaming: Streaming,
    /// Estimated bytes of one chunk's working set plus the D x D matrices (see [`working_set`]).
    pub working_set: u64,
    plan: DataPlan,
    train_labels: LabelSet,
    /// The test file's own labels when train and test are separate files.
    test_labels: Option<LabelSet>,
    /// (mean, sd) per feature on the training rows, when standardising.
    stats: Option<Vec<(f64, f64)>>,
    map: FittedMap,
}

/// A consumer of a chunk's complete rows in one part: raw feature columns, class indices and
/// data rows.
type RawRows<'a> = dyn FnMut(&[Vec<f64>], Vec<f64>, Vec<usize>) -> Result<()> + 'a;

/// Per-feature running statistics over the training rows.
#[derive(Debug, Clone)]
struct Running {
    moments: Moments,
    min: f64,
    max: f64,
    /// Missing values in every row of the file (as the in-memory summary counts them).
    missing: usize,
}

impl Running {
    fn new() -> Self {
        Running {
            moments: Moments::default(),
            min: f64::INFINITY,
            max: f64::NEG_INFINITY,
            missing: 0,
        }
    }

    fn push(&mut self, v: f64) {
        self.moments.push(v);
        self.min = self.min.min(v);
        self.max = self.max.max(v);
    }

    /// (mean, population sd) as [`prepare::column_stats`] defines them.
    fn moments(&self) -> (f64, f64) {
        self.moments.mean_sd()
    }
}

/// What a file's statistics pass found.
struct FileScan {
    labels: LabelSet,
    running: Vec<Running>,
    target_missing: usize,
    bad: usize,
    first_bad: Option<usize>,
    rows: usize,
    stats: PassStats,
}

fn is_test(row: usize, source: &DataSource, part_of_file: Option<Part>) -> bool {
    match (source, part_of_file) {
        (_, Some(part)) => part == Part::Test,
        (DataSource::Single { split, .. }, None) => prepare::row_is_test(row, *split) == Some(true),
        (DataSource::TrainTest { .. }, None) => false,
    }
}

/// Read `path` chunk by chunk, handing each chunk's columns to `f` with its first data row.
/// `features` is filled from the first chunk when it is `None` (every numeric column, as
/// [`super::table::read`] chooses them), with the non-numeric columns in `skipped`.
fn each_chunk(
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
fn scan(
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

impl StreamedData {
    /// Make the statistics pass(es) over the data of `plan`, which must have `streaming` set.
    pub fn open(plan: &DataPlan) -> Result<StreamedData> {
        let streaming = plan.streaming.unwrap_or(crate::config::Streaming {
            chunk_rows: crate::config::streaming::DEFAULT_CHUNK_ROWS,
            max_memory: None,
        });
        let chunk_rows = streaming.chunk_rows;
        let (train_file, test_file) = match &plan.source {
            DataSource::Single { path, .. } => (path.clone(), None),
            DataSource::TrainTest { train, test } => (train.clone(), Some(test.clone())),
        };
        // The budget first, from the header alone: every column but the target may be a feature.
        let names = ChunkReader::open(&train_file, chunk_rows, plan.separator, None, None)?
            .column_names()?;
        let most = plan
            .features
            .as_ref()
            .map_or(names.len().saturating_sub(1), Vec::len);
        check_width(&plan.feature_map, most, chunk_rows)
            .map_err(|m| Error::data(&train_file, m))?;
        let design = mapped_width(&plan.feature_map, most) + usize::from(plan.intercept);
        let csv_line = csv_bytes_per_row(&train_file)?;
        let estimate = working_set(chunk_rows, most, design, csv_line);
        check_budget(&train_file, &streaming, estimate, most, design)?;
        let mut notes = Vec::new();
        let mut preparation = Vec::new();
        let mut features = plan.features.clone();
        let mut skipped = Vec::new();
        let part = test_file.as_ref().map(|_| Part::Train);
        let mut train = scan(
            &train_file,
            plan,
            chunk_rows,
            part,
            &mut features,
            &mut skipped,
        )?;
        preparation.push(("statistics".to_string(), train.stats.clone()));
        let features = features.unwrap_or_default();
        let classes = train
            .labels
            .resolve(plan.positive.as_deref(), None)
            .map_err(|m| Error::data(&train_file, m))?;
        check_classes(&train_file, plan, &classes)?;
        check_missing(&train_file, plan, &train, &features, &mut notes)?;
        let mut test_labels = None;
        if let Some(test_path) = &test_file {
            let mut given = Some(features.clone());
            let mut test = scan(
                test_path,
                plan,
                chunk_rows,
                Some(Part::Test),
                &mut given,
                &mut Vec::new(),
            )?;
            preparation.push(("test labels".to_string(), test.stats.clone()));
            let test_classes = test
                .labels
                .resolve(plan.positive.as_deref(), Some(&classes))
                .map_err(|m| Error::data(test_path, m))?;
            check_classes(test_path, plan, &test_classes)?;
            check_missing(test_path, plan, &test, &features, &mut notes)?;
            test_labels = Some(test.labels);
        }
        note_skipped(&mut notes, &train_file, &skipped);
        let count = |labels: &LabelSet, test: bool, positive: bool| -> usize {
            labels
                .counts
                .iter()
                .enumerate()
                .filter(|(d, _)| !positive || labels.class(*d) == 1.0)
                .map(|(_, c)| if test { c.1 } else { c.0 })
                .sum()
        };
        let test_set = test_labels.as_ref().unwrap_or(&train.labels);
        let rows_train = count(&train.labels, false, false);
        let rows_test = count(test_set, true, false);
        if rows_train == 0 {
            return Err(Error::data(
                &train_file,
                "no training rows are left after the split; change [data] split",
            ));
        }
        if rows_test == 0 {
            return Err(Error::data(
                &train_file,
                "no test rows are left after the split; change [data] split",
            ));
        }
        let train_classes: Vec<f64> = (0..train.labels.counts.len())
            .filter(|&d| train.labels.counts[d].0 > 0)
            .map(|d| train.labels.class(d))
            .collect();
        if train_classes.iter().all(|&c| c == train_classes[0]) {
            return Err(Error::data(
                &train_file,
                format!(
                    "the training set has only class {} ({rows_train} rows of target \"{}\"): a classifier needs at least two; \
                     check [data] target, positive and split",
                    classes.get(train_classes[0] as usize).cloned().unwrap_or_default(),
                    plan.target
                ),
            ));
        }
        let summaries: Vec<FeatureSummary> = features
            .iter()
            .zip(&train.running)
            .map(|(name, r)| {
                let (mean, sd) = r.moments();
                FeatureSummary {
                    name: name.clone(),
                    mean,
                    sd,
                    min: r.min,
                    max: r.max,
                    missing: r.missing,
                }
            })
            .collect();
        let stats: Option<Vec<(f64, f64)>> = plan
            .standardize
            .then(|| summaries.iter().map(|s| (s.mean, s.sd)).collect());
        let d = features.len();
        check_width(&plan.feature_map, d, chunk_rows).map_err(|m| Error::data(&train_file, m))?;
        check_names(&plan.feature_map, &features, plan.intercept)
            .map_err(|m| Error::data(&train_file, m))?;
        let mut data = StreamedData {
            files: std::iter::once(train_file.clone())
                .chain(test_file)
                .collect(),
            target: plan.target.clone(),
            classes,
            features,
            columns: Vec::new(),
            summaries,
            notes,
            rows_train,
            rows_test,
            positives_train: count(&train.labels, false, true),
            positives_test: count(test_set, true, true),
            preparation,
            streaming,
            working_set: 0,
            plan: plan.clone(),
            test_labels,
            train_labels: std::mem::replace(&mut train.labels, LabelSet::new(&plan.target)),
            stats,
            // replaced below: fitting the map may take a pass that needs the rest
            map: FittedMap::fit(
                &crate::config::FeatureMap::Identity,
                d,
                &[],
                TrainingRows::Summary {
                    ranges: &[],
                    sampled: Vec::new(),
                },
                0,
            ),
        };
        data.map = data.fit_map()?;
        data.columns = std::iter::once(INTERCEPT.to_string())
            .filter(|_| plan.intercept)
            .chain(data.map.names.iter().cloned())
            .collect();
        data.working_set = working_set(
            chunk_rows,
            data.features.len(),
            data.columns.len(),
            csv_line,
        );
        Ok(data)
    }

    /// The feature map, fitted on the training rows' ranges (and, for sampled RBF centres, on
    /// one more pass that collects the sampled rows).
    fn fit_map(&mut self) -> Result<FittedMap> {
        use crate::config::{Centres, FeatureMap};
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
                self.preparation.push(("rbf centres".to_string(), stats));
                centres
            }
            _ => Vec::new(),
        };
        Ok(FittedMap::fit(
            &self.plan.feature_map,
            self.features.len(),
            &self.features,
            TrainingRows::Summary {
                ranges: &ranges,
                sampled,
            },
            self.plan.seed,
        ))
    }

    /// Pass over the rows of `part`: the raw feature columns (complete rows only), class
    /// indices and data rows of each chunk.
    fn raw_pass(&self, part: Part, f: &mut RawRows<'_>) -> Result<PassStats> {
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
        let mut features = Some(self.features.clone());
        let mut labels = labels.clone();
        let mut compute = 0.0;
        let mut stats = each_chunk(
            path,
            self.streaming.chunk_rows,
            self.plan.separator,
            &self.target,
            &mut features,
            &mut Vec::new(),
            &mut |first, table| {
                let distinct = labels
                    .observe(&table.target, first)
                    .map_err(|m| Error::data(path, m))?;
                let keep: Vec<usize> = (0..distinct.len())
                    .filter(|&i| {
                        distinct[i].is_some()
                            && table.features.iter().all(|(_, c)| c[i].is_some())
                            && is_test(first + i, &self.plan.source, file_part)
                                == (part == Part::Test)
                    })
                    .collect();
                let cols: Vec<Vec<f64>> = table
                    .features
                    .iter()
                    .map(|(_, c)| keep.iter().map(|&i| c[i].unwrap_or(f64::NAN)).collect())
                    .collect();
                let y = keep
                    .iter()
                    .map(|&i| distinct[i].map_or(f64::NAN, |d| labels.class(d)))
                    .collect();
                let rows = keep.iter().map(|&i| first + i).collect();
                drop(table);
                let t = Instant::now();
                f(&cols, y, rows)?;
                compute += t.elapsed().as_secs_f64();
                Ok(())
            },
        )?;
        stats.read_seconds = stats.seconds - compute;
        Ok(stats)
    }

    /// One pass over the rows of `part`, handing `f` each chunk's design rows, exactly as the
    /// in-memory loader would have made them.
    pub fn pass(
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

/// The in-memory loader's handling of rows with missing values, from the pass's counts.
fn check_missing(
    path: &Path,
    plan: &DataPlan,
    scan: &FileScan,
    features: &[String],
    notes: &mut Vec<String>,
) -> Result<()> {
    let per_feature: Vec<usize> = scan.running.iter().map(|r| r.missing).collect();
    prepare::check_not_all_missing(
        scan.rows,
        &plan.target,
        scan.target_missing,
        features,
        &per_feature,
        plan.features.is_some(),
    )
    .map_err(|m| Error::data(path, m))?;
    if scan.bad == 0 {
        return Ok(());
    }
    if plan.missing == Missing::Error {
        return Err(Error::data(
            path,
            missing_message(
                scan.bad,
                &plan.target,
                scan.target_missing,
                features,
                &per_feature,
                scan.first_bad.unwrap_or(0),
            ),
        ));
    }
    notes.push(format!(
        "{}: dropped {} of {} rows with missing values",
        path.display(),
        scan.bad,
        scan.rows
    ));
    Ok(())
}

/// Refuse a `max_memory` below the estimated working set (`features` raw and `design` design
/// columns), naming the key and the largest `chunk_rows` that fits.
fn check_budget(
    path: &Path,
    streaming: &Streaming,
    estimate: u64,
    features: usize,
    design: usize,
) -> Result<()> {
    let Some(budget) = streaming.max_memory else {
        return Ok(());
    };
    if estimate <= budget {
        return Ok(());
    }
    let fixed = fixed_bytes(design);
    let per_row = (estimate - fixed) / streaming.chunk_rows.max(1) as u64;
    let fit = budget.saturating_sub(fixed) / per_row.max(1);
    let fix = if fit == 0 {
        format!(
            "even one row does not fit beside the {} of the {design} x {design} matrices: raise max_memory or select fewer [data] features",
            mib(fixed)
        )
    } else {
        format!("lower [data] chunk_rows to at most {fit} or raise max_memory")
    };
    Err(Error::data(
        path,
        format!(
            "[data] max_memory = {} is too small for chunk_rows = {}: a chunk of up to {features} feature and {design} design \
             columns needs about {} of working memory (about {per_row} bytes per row plus {} for the {design} x {design} \
             matrices); {fix}",
            mib(budget),
            streaming.chunk_rows,
            mib(estimate),
            mib(fixed)
        ),
    ))
}

fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / (1u64 << 20) as f64)
}

/// Bytes of the D x D matrices a Laplace fit holds at once (Hessian sum, chunk Hessian, factor,
/// a copy, L^-1 for the covariance diagonal) and the predictive's 4096-row block of solves.
fn fixed_bytes(design: usize) -> u64 {
    let d = design as u64;
    8 * (5 * d * d + 4096 * d)
}

/// Estimated peak bytes of one chunk in flight with `features` raw features and `design` design
/// columns, per row: polars' columns (8 per column read, twice for CSV, plus the text), the
/// feature columns as options (16), plain (8) and standardised (8), the mapped design and its
/// intercept copy (16 per design column), Newton's square-root-weighted copy in X^T S X (8 per
/// design column) and about six per-row vectors (48); plus [`fixed_bytes`].
pub fn working_set(
    chunk_rows: usize,
    features: usize,
    design: usize,
    csv_line: Option<u64>,
) -> u64 {
    let (f, d) = (features as u64, design as u64);
    let read = 8 * (f + 1) + csv_line.map_or(0, |line| line + 8 * (f + 1));
    let per_row = read + 16 * (f + 1) + 16 * f + 24 * d + 48;
    // Saturating: a user's chunk_rows times a wide row must not wrap below the budget.
    (chunk_rows as u64)
        .saturating_mul(per_row)
        .saturating_add(fixed_bytes(design))
}

/// The mean length of the first lines of a CSV file (its first 64 KiB), for the estimate; `None`
/// for Parquet.
fn csv_bytes_per_row(path: &Path) -> Result<Option<u64>> {
    use std::io::Read;
    if path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| matches!(e.to_ascii_lowercase().as_str(), "parquet" | "pq"))
    {
        return Ok(None);
    }
    let mut head = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(1 << 16).read_to_end(&mut head))
        .map_err(|e| Error::data(path, format!("cannot read: {e}")))?;
    let lines = head.iter().filter(|&&b| b == b'\n').count().max(1) as u64;
    Ok(Some(head.len() as u64 / lines + 1))
}
