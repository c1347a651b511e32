//! Opening a streamed data file: the budget from its header, the statistics pass(es), and
//! the standardisation and feature map fitted from them.

use std::path::Path;

use super::budget::{check_budget, chunks_in_flight, csv_bytes_per_row, working_set};
use super::missing::check_missing;
use super::scan::{scan, FileScan};
use super::source::Source;
use super::{Part, PassStats, StreamedData};
use crate::load::loaded::note_skipped;
use crate::plan::{DataPlan, DataSource, Streaming};
use crate::prepare::classes::{check_classes, check_training_classes};
use crate::prepare::encode::{learn, ColumnTally};
use crate::prepare::features::{check_names, check_width, mapped_width, FittedMap, TrainingRows};
use crate::prepare::labels::LabelSet;
use crate::read::chunks::ChunkReader;
use crate::INTERCEPT;
use bayeslab_core::error::{Error, Result};
use bayeslab_core::record::{FeatureSummary, PassPurpose};

impl StreamedData {
    /// Make the statistics pass(es) over the data of `plan`, which must have `streaming` set.
    pub fn open(plan: &DataPlan) -> Result<StreamedData> {
        let streaming = plan.streaming.unwrap_or(Streaming {
            chunk_rows: crate::plan::DEFAULT_CHUNK_ROWS,
            max_memory: None,
            cache: true,
        });
        let (train_file, test_file) = match &plan.source {
            DataSource::Single { path, .. } => (path.clone(), None),
            DataSource::TrainTest { train, test } => (train.clone(), Some(test.clone())),
        };
        let (csv_line, ahead) = header_budget(plan, &train_file, &streaming)?;
        let mut o = Opening {
            plan,
            chunk_rows: streaming.chunk_rows,
            ahead,
            notes: Vec::new(),
            preparation: Vec::new(),
            sources: vec![Source::before_pass(&train_file)?],
        };
        let mut features = plan.features.clone();
        let mut skipped = Vec::new();
        let mut categorical = plan.encoding.categorical.clone();
        let part = test_file.as_ref().map(|_| Part::Train);
        let levels = (&mut categorical, &mut skipped);
        let mut train = o.scan(&train_file, part, &mut features, levels)?;
        o.passed(0, &train_file, &train, PassPurpose::Statistics)?;
        let features = features.unwrap_or_default();
        let classes = train
            .labels
            .resolve(plan.positive.as_deref(), None)
            .map_err(|m| Error::data(&train_file, m))?;
        check_classes(&train_file, plan, &classes)?;
        check_missing(&train_file, plan, &train, &features, &mut o.notes)?;
        let test_labels = match &test_file {
            Some(test) => {
                let known = Known {
                    train_file: &train_file,
                    features: &features,
                    categorical: &categorical,
                    classes: &classes,
                };
                Some(o.test_pass(test, &known, &mut train.tallies)?)
            }
            None => None,
        };
        note_skipped(&mut o.notes, &train_file, &skipped);
        let counts = Counts::of(&train.labels, test_labels.as_ref(), classes.len());
        let rows = o.sources[0].rows.unwrap_or(0);
        crate::prepare::check_split_sizes(&plan.source, rows, counts.rows.0, counts.rows.1)
            .map_err(|m| Error::data(&train_file, m))?;
        let labels = &train.labels;
        let present = (0..labels.counts.len()).filter(|&d| labels.counts[d].0 > 0);
        let present = present.map(|d| labels.class(d));
        check_training_classes(&train_file, plan, present, &classes, counts.rows.0)?;
        let encoder = learn(&train_file, plan, &features, &train.tallies)?;
        o.notes.extend(encoder.notes.iter().cloned());
        let d = encoder.names.len();
        check_width(&plan.feature_map, d, o.chunk_rows).map_err(|m| Error::data(&train_file, m))?;
        check_names(&plan.feature_map, &encoder.names, plan.intercept)
            .map_err(|m| Error::data(&train_file, m))?;
        let data = StreamedData {
            files: std::iter::once(train_file).chain(test_file).collect(),
            target: plan.target.clone(),
            classes,
            // An identity encoding's summaries are the pass's own; any other takes one more
            // pass (`fitted`).
            summaries: pass_summaries(&features, &train.tallies),
            features,
            columns: Vec::new(),
            encoding: encoder.info.clone(),
            notes: o.notes,
            rows_train: counts.rows.0,
            rows_test: counts.rows.1,
            positives_train: counts.positives.0,
            positives_test: counts.positives.1,
            class_counts_train: counts.per_class.0,
            class_counts_test: counts.per_class.1,
            preparation: o.preparation,
            streaming,
            working_set: 0,
            ahead,
            plan: plan.clone(),
            test_labels,
            train_labels: train.labels,
            stats: None,
            categorical,
            encoder,
            cache: None,
            sources: o.sources,
            // replaced in `fitted`: fitting the map may take a pass that needs the rest
            map: FittedMap::fit(
                &crate::plan::FeatureMap::Identity,
                d,
                &[],
                TrainingRows::Summary {
                    ranges: &[],
                    sampled: Vec::new(),
                },
                0,
            ),
        };
        data.fitted(csv_line)
    }

    /// The standardisation and the feature map fitted from the statistics, the design's
    /// columns named, and the budget checked again on the design the fit will read.
    fn fitted(mut self, csv_line: Option<u64>) -> Result<StreamedData> {
        if !self.encoder.is_identity() {
            self.encoded_summaries()?;
        }
        let indicators = self.plan.encoding.standardise_indicators;
        self.stats = self.plan.standardize.then(|| {
            let stats: Vec<(f64, f64)> = self.summaries.iter().map(|s| (s.mean, s.sd)).collect();
            self.encoder.standardisation(&stats, indicators)
        });
        self.map = self.fit_map()?;
        self.columns = std::iter::once(INTERCEPT.to_string())
            .filter(|_| self.plan.intercept)
            .chain(self.map.names.iter().cloned())
            .collect();
        self.working_set = working_set(
            self.streaming.chunk_rows,
            self.features.len(),
            self.columns.len(),
            csv_line,
            self.streaming.cache,
        );
        // Categorical columns can make the design wider than the header suggested: check the
        // budget again on the design the fit will read, before its first pass.
        check_budget(
            &self.files[0],
            &self.streaming,
            self.working_set,
            self.features.len(),
            self.columns.len(),
        )?;
        Ok(self)
    }
}

/// The budget first, from the header alone (every column but the target may be a feature):
/// a CSV's bytes per row, and the chunks decoded at once.
fn header_budget(
    plan: &DataPlan,
    train_file: &Path,
    streaming: &Streaming,
) -> Result<(Option<u64>, usize)> {
    let chunk_rows = streaming.chunk_rows;
    let names =
        ChunkReader::open(train_file, chunk_rows, plan.separator, None, None)?.column_names()?;
    let most = plan
        .features
        .as_ref()
        .map_or(names.len().saturating_sub(1), Vec::len);
    check_width(&plan.feature_map, most, chunk_rows).map_err(|m| Error::data(train_file, m))?;
    let design = mapped_width(&plan.feature_map, most) + usize::from(plan.intercept);
    let csv_line = csv_bytes_per_row(train_file)?;
    let estimate = working_set(chunk_rows, most, design, csv_line, streaming.cache);
    check_budget(train_file, streaming, estimate, most, design)?;
    Ok((csv_line, chunks_in_flight(streaming, estimate, design)))
}

/// The statistics passes in the making: what they share and what they gather for the record.
struct Opening<'a> {
    plan: &'a DataPlan,
    chunk_rows: usize,
    ahead: usize,
    notes: Vec<String>,
    preparation: Vec<(PassPurpose, PassStats)>,
    /// The files' stamps before their passes (the training file's first).
    sources: Vec<Source>,
}

/// What the training file's pass settled, that the test file's is checked against.
struct Known<'a> {
    train_file: &'a Path,
    features: &'a [String],
    categorical: &'a [String],
    classes: &'a [String],
}

impl Opening<'_> {
    /// One file's statistics pass; `levels` are the columns read as levels and those left out.
    fn scan(
        &self,
        path: &Path,
        part: Option<Part>,
        features: &mut Option<Vec<String>>,
        levels: (&mut Vec<String>, &mut Vec<String>),
    ) -> Result<FileScan> {
        let (categorical, skipped) = levels;
        let (plan, rows, ahead) = (self.plan, self.chunk_rows, self.ahead);
        scan(
            path,
            plan,
            rows,
            ahead,
            part,
            features,
            categorical,
            skipped,
        )
    }

    /// Source `index`'s pass is done: its rows, its file unchanged, its notes and statistics
    /// recorded under `what`.
    fn passed(
        &mut self,
        index: usize,
        path: &Path,
        scan: &FileScan,
        what: PassPurpose,
    ) -> Result<()> {
        self.sources[index].rows = Some(scan.rows);
        self.sources[index].check("during its statistics pass")?;
        let said = scan
            .notes
            .iter()
            .map(|n| format!("{}: {n}", path.display()));
        self.notes.extend(said);
        self.preparation.push((what, scan.stats.clone()));
        Ok(())
    }

    /// The test file's pass: its columns of the training file's kinds, its classes among
    /// the training file's, its levels added to the training tallies; its labels.
    fn test_pass(
        &mut self,
        test: &Path,
        known: &Known<'_>,
        tallies: &mut [ColumnTally],
    ) -> Result<LabelSet> {
        let plan = self.plan;
        let mut given = Some(known.features.to_vec());
        let mut test_levels = known.categorical.to_vec();
        self.sources.push(Source::before_pass(test)?);
        let levels = (&mut test_levels, &mut Vec::new());
        let mut scan = self.scan(test, Some(Part::Test), &mut given, levels)?;
        let features = known.features;
        let levels = |l: &[String]| -> Vec<String> {
            l.iter().filter(|c| features.contains(c)).cloned().collect()
        };
        crate::read::pair::check_same_kinds(
            known.train_file,
            test,
            features,
            &levels(known.categorical),
            &levels(&test_levels),
        )?;
        let index = self.sources.len() - 1;
        self.passed(index, test, &scan, PassPurpose::TestLabels)?;
        let seen = scan.labels.names();
        let test_classes = scan
            .labels
            .resolve(plan.positive.as_deref(), Some(known.classes))
            .map_err(|m| {
                let pair = crate::read::pair::label_mismatch(
                    known.train_file,
                    test,
                    &plan.target,
                    known.classes,
                    &seen,
                );
                pair.unwrap_or_else(|| Error::data(test, m))
            })?;
        check_classes(test, plan, &test_classes)?;
        check_missing(test, plan, &scan, features, &mut self.notes)?;
        for (t, other) in tallies.iter_mut().zip(&scan.tallies) {
            t.add_test_side(other);
        }
        Ok(scan.labels)
    }
}

/// The rows, positive rows and rows per class of the training and the test set: (training,
/// test) each.
struct Counts {
    rows: (usize, usize),
    positives: (usize, usize),
    per_class: (Vec<usize>, Vec<usize>),
}

impl Counts {
    /// From the training file's labels and the test file's (the training file's own test rows
    /// when there is none).
    fn of(train: &LabelSet, test: Option<&LabelSet>, classes: usize) -> Counts {
        let test_set = test.unwrap_or(train);
        let count = |labels: &LabelSet, test: bool, positive: bool| -> usize {
            labels
                .counts
                .iter()
                .enumerate()
                .filter(|(d, _)| !positive || labels.class(*d) == 1.0)
                .map(|(_, c)| if test { c.1 } else { c.0 })
                .sum()
        };
        let per_class = |labels: &LabelSet, test: bool| -> Vec<usize> {
            let mut counts = vec![0; classes];
            for (d, c) in labels.counts.iter().enumerate() {
                if let Some(k) = counts.get_mut(labels.class(d) as usize) {
                    *k += if test { c.1 } else { c.0 };
                }
            }
            counts
        };
        Counts {
            rows: (count(train, false, false), count(test_set, true, false)),
            positives: (count(train, false, true), count(test_set, true, true)),
            per_class: (per_class(train, false), per_class(test_set, true)),
        }
    }
}

/// Each raw feature's summary from its statistics pass.
fn pass_summaries(features: &[String], tallies: &[ColumnTally]) -> Vec<FeatureSummary> {
    features
        .iter()
        .zip(tallies)
        .map(|(name, t)| {
            let (mean, sd) = t.moments.mean_sd();
            FeatureSummary {
                name: name.clone(),
                mean,
                sd,
                min: t.min.unwrap_or(f64::INFINITY),
                max: t.max.unwrap_or(f64::NEG_INFINITY),
                missing: t.file_missing,
            }
        })
        .collect()
}
