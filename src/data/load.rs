//! The in-memory loader: read the file(s), drop or refuse missing rows, split, standardise,
//! map the features and add the intercept.

use super::dataset::{Dataset, Design, FeatureSummary, INTERCEPT};
use super::loaded::{gather, load_file, note_skipped};
use super::missing::complete_rows;
use super::{features, prepare};
use crate::config::{DataPlan, DataSource};
use crate::error::{Error, Result};

/// Load and prepare the data described by `plan`.
pub fn load(plan: &DataPlan) -> Result<Dataset> {
    let mut notes = Vec::new();
    let (files, train_part, test_part, features, summary_src) = match &plan.source {
        DataSource::Single { path, split } => {
            let l = load_file(path, plan, plan.features.as_deref(), None)?;
            let rows = complete_rows(path, &l, plan, &mut notes)?;
            let is_test = prepare::test_rows(l.y.len(), *split);
            let train: Vec<usize> = rows.iter().copied().filter(|&i| !is_test[i]).collect();
            let test: Vec<usize> = rows.iter().copied().filter(|&i| is_test[i]).collect();
            note_skipped(&mut notes, path, &l.skipped);
            let tr = (gather(&l, &train), train);
            let te = (gather(&l, &test), test);
            (
                vec![path.clone()],
                tr,
                te,
                l.features.clone(),
                (l, path.clone()),
            )
        }
        DataSource::TrainTest { train, test } => {
            let lt = load_file(train, plan, plan.features.as_deref(), None)?;
            let le = load_file(test, plan, Some(&lt.features), Some(&lt.classes))?;
            let rt = complete_rows(train, &lt, plan, &mut notes)?;
            let re = complete_rows(test, &le, plan, &mut notes)?;
            note_skipped(&mut notes, train, &lt.skipped);
            let tr = (gather(&lt, &rt), rt);
            let te = (gather(&le, &re), re);
            (
                vec![train.clone(), test.clone()],
                tr,
                te,
                lt.features.clone(),
                (lt, train.clone()),
            )
        }
    };
    let (((train_cols, train_y), train_rows), ((test_cols, test_y), test_rows)) =
        (train_part, test_part);
    let train_file = &summary_src.1;
    if train_y.is_empty() {
        return Err(Error::data(
            train_file,
            "no training rows are left after the split; change [data] split",
        ));
    }
    if test_y.is_empty() {
        return Err(Error::data(
            train_file,
            "no test rows are left after the split; change [data] split",
        ));
    }
    let classes = summary_src.0.classes.clone();
    let first = train_y[0];
    if train_y.iter().all(|&y| y == first) {
        return Err(Error::data(
            train_file,
            format!(
                "the training set has only class {} ({} rows of target \"{}\"): a classifier needs at least two; \
                 check [data] target, positive and split",
                classes.get(first as usize).cloned().unwrap_or_default(),
                train_y.len(),
                plan.target
            ),
        ));
    }
    let stats = prepare::column_stats(&train_cols);
    let summaries = features
        .iter()
        .zip(&train_cols)
        .zip(&stats)
        .map(|((name, col), &(mean, sd))| {
            let idx = summary_src
                .0
                .features
                .iter()
                .position(|f| f == name)
                .unwrap_or(0);
            FeatureSummary {
                name: name.clone(),
                mean,
                sd,
                min: col.iter().copied().fold(f64::INFINITY, f64::min),
                max: col.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                missing: summary_src.0.cols[idx]
                    .iter()
                    .filter(|v| v.is_none())
                    .count(),
            }
        })
        .collect();
    features::check_names(&plan.feature_map, &features, plan.intercept)
        .map_err(|m| Error::data(train_file, m))?;
    let s = plan.standardize.then_some(stats.as_slice());
    let mapped = features::apply(
        &plan.feature_map,
        prepare::design(&train_cols, s, false).as_ref(),
        prepare::design(&test_cols, s, false).as_ref(),
        &features,
        plan.seed,
    )
    .map_err(|m| Error::data(train_file, m))?;
    let mut columns: Vec<String> = Vec::new();
    if plan.intercept {
        columns.push(INTERCEPT.to_string());
    }
    columns.extend(mapped.names);
    Ok(Dataset {
        files,
        target: plan.target.clone(),
        classes,
        train: Design {
            x: prepare::with_intercept(mapped.train, plan.intercept),
            y: train_y,
            source_rows: train_rows,
        },
        test: Design {
            x: prepare::with_intercept(mapped.test, plan.intercept),
            y: test_y,
            source_rows: test_rows,
        },
        features,
        columns,
        summaries,
        encoding: Default::default(),
        notes,
        separator: plan.separator,
    })
}
