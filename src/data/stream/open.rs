//! Opening a streamed data file: the budget from its header, the statistics pass(es), and
//! the standardisation and feature map fitted from them.

use super::budget::{check_budget, chunks_in_flight, csv_bytes_per_row, working_set};
use super::missing::check_missing;
use super::scan::scan;
use super::source::Source;
use super::{Part, StreamedData};
use crate::config::{DataPlan, DataSource};
use crate::data::chunks::ChunkReader;
use crate::data::classes::check_classes;
use crate::data::encode::learn;
use crate::data::features::{check_names, check_width, mapped_width, FittedMap, TrainingRows};
use crate::data::labels::LabelSet;
use crate::data::loaded::note_skipped;
use crate::data::{FeatureSummary, INTERCEPT};
use crate::error::{Error, Result};

impl StreamedData {
    /// Make the statistics pass(es) over the data of `plan`, which must have `streaming` set.
    pub fn open(plan: &DataPlan) -> Result<StreamedData> {
        let streaming = plan.streaming.unwrap_or(crate::config::Streaming {
            chunk_rows: crate::config::streaming::DEFAULT_CHUNK_ROWS,
            max_memory: None,
            cache: true,
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
        let estimate = working_set(chunk_rows, most, design, csv_line, streaming.cache);
        check_budget(&train_file, &streaming, estimate, most, design)?;
        let ahead = chunks_in_flight(&streaming, estimate, design);
        let mut notes = Vec::new();
        let mut preparation = Vec::new();
        let mut features = plan.features.clone();
        let mut skipped = Vec::new();
        let part = test_file.as_ref().map(|_| Part::Train);
        let mut categorical = plan.encoding.categorical.clone();
        let mut sources = vec![Source::before_pass(&train_file)?];
        let mut train = scan(
            &train_file,
            plan,
            chunk_rows,
            ahead,
            part,
            &mut features,
            &mut categorical,
            &mut skipped,
        )?;
        sources[0].rows = Some(train.rows);
        sources[0].check("during its statistics pass")?;
        let said = |path: &std::path::Path, n: &[String]| -> Vec<String> {
            n.iter()
                .map(|n| format!("{}: {n}", path.display()))
                .collect()
        };
        notes.extend(said(&train_file, &train.notes));
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
            let mut test_levels = categorical.clone();
            sources.push(Source::before_pass(test_path)?);
            let mut test = scan(
                test_path,
                plan,
                chunk_rows,
                ahead,
                Some(Part::Test),
                &mut given,
                &mut test_levels,
                &mut Vec::new(),
            )?;
            let levels = |l: &[String]| -> Vec<String> {
                l.iter().filter(|c| features.contains(c)).cloned().collect()
            };
            crate::data::pair::check_same_kinds(
                &train_file,
                test_path,
                &features,
                &levels(&categorical),
                &levels(&test_levels),
            )?;
            sources[1].rows = Some(test.rows);
            sources[1].check("during its statistics pass")?;
            notes.extend(said(test_path, &test.notes));
            preparation.push(("test labels".to_string(), test.stats.clone()));
            let seen = test.labels.names();
            let test_classes = test
                .labels
                .resolve(plan.positive.as_deref(), Some(&classes))
                .map_err(|m| {
                    let pair = crate::data::pair::label_mismatch(
                        &train_file,
                        test_path,
                        &plan.target,
                        &classes,
                        &seen,
                    );
                    pair.unwrap_or_else(|| Error::data(test_path, m))
                })?;
            check_classes(test_path, plan, &test_classes)?;
            check_missing(test_path, plan, &test, &features, &mut notes)?;
            for (t, other) in train.tallies.iter_mut().zip(&test.tallies) {
                t.add_test_side(other);
            }
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
        let per_class = |labels: &LabelSet, test: bool| -> Vec<usize> {
            let mut counts = vec![0; classes.len()];
            for (d, c) in labels.counts.iter().enumerate() {
                if let Some(k) = counts.get_mut(labels.class(d) as usize) {
                    *k += if test { c.1 } else { c.0 };
                }
            }
            counts
        };
        let class_counts = (per_class(&train.labels, false), per_class(test_set, true));
        let rows_train = count(&train.labels, false, false);
        let rows_test = count(test_set, true, false);
        let rows = sources[0].rows.unwrap_or(0);
        crate::data::prepare::check_split_sizes(&plan.source, rows, rows_train, rows_test)
            .map_err(|m| Error::data(&train_file, m))?;
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
        let encoder = learn(&train_file, plan, &features, &train.tallies)?;
        notes.extend(encoder.notes.iter().cloned());
        // An identity encoding's summaries are the pass's own; any other takes one more pass.
        let summaries: Vec<FeatureSummary> = features
            .iter()
            .zip(&train.tallies)
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
            .collect();
        let d = encoder.names.len();
        check_width(&plan.feature_map, d, chunk_rows).map_err(|m| Error::data(&train_file, m))?;
        check_names(&plan.feature_map, &encoder.names, plan.intercept)
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
            encoding: encoder.info.clone(),
            notes,
            rows_train,
            rows_test,
            positives_train: count(&train.labels, false, true),
            positives_test: count(test_set, true, true),
            class_counts_train: class_counts.0,
            class_counts_test: class_counts.1,
            preparation,
            streaming,
            working_set: 0,
            ahead,
            plan: plan.clone(),
            test_labels,
            train_labels: std::mem::replace(&mut train.labels, LabelSet::new(&plan.target)),
            stats: None,
            categorical,
            encoder,
            cache: None,
            sources,
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
        if !data.encoder.is_identity() {
            data.encoded_summaries()?;
        }
        data.stats = plan.standardize.then(|| {
            let stats: Vec<(f64, f64)> = data.summaries.iter().map(|s| (s.mean, s.sd)).collect();
            data.encoder
                .standardisation(&stats, plan.encoding.standardise_indicators)
        });
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
            streaming.cache,
        );
        // Categorical columns can make the design wider than the header suggested: check the
        // budget again on the design the fit will read, before its first pass.
        check_budget(
            &data.files[0],
            &streaming,
            data.working_set,
            data.features.len(),
            data.columns.len(),
        )?;
        Ok(data)
    }
}
