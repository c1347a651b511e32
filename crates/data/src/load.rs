//! The in-memory loader: read the file(s), drop or refuse missing rows (or keep them to fill
//! their gaps), split, encode categorical and filled columns from the training rows
//! ([`crate::prepare::encode`]), standardise, map the features and add the intercept.

#[allow(unsafe_code)]
mod design;
#[cfg(all(test, feature = "parquet-in-place"))]
mod in_place_tests;
pub(crate) mod loaded;
#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};

use crate::load::loaded::{load_file, note_skipped, Loaded};
use crate::plan::{DataPlan, DataSource, FeatureMap, Missing};
use crate::prepare::classes::check_training_classes;
use crate::prepare::dataset::{Dataset, Design, INTERCEPT};
use crate::prepare::encode::{learn, ColumnTally, Encoder};
use crate::prepare::missing::complete_rows;
use crate::prepare::{self, features};
use crate::read::table::{read_key, Cells};
use crate::read::ReadProbe;
use bayeslab_core::error::{Error, Result};
use design::{Layout, RawColumns};

/// Load and prepare the data described by `plan`.
pub fn load(plan: &DataPlan) -> Result<Dataset> {
    load_with(plan, &mut |_, _, _| {})
}

/// [`load`], telling `probe` the rows read after every chunk of each file.
pub fn load_with(plan: &DataPlan, probe: ReadProbe) -> Result<Dataset> {
    let mut notes = Vec::new();
    let Read {
        files,
        mut lt,
        mut le,
        train_rows,
        test_rows,
    } = read(plan, probe, &mut notes)?;
    let test_file = le.as_ref().unwrap_or(&lt);
    let (train_y, test_y) = (lt.labels_of(&train_rows), test_file.labels_of(&test_rows));
    let train_file = &files[0];
    let features = lt.features.clone();
    prepare::check_split_sizes(&plan.source, lt.y.len(), train_y.len(), test_y.len())
        .map_err(|m| Error::data(train_file, m))?;
    let classes = lt.classes.clone();
    let present = train_y.iter().copied();
    check_training_classes(train_file, plan, present, &classes, train_y.len())?;
    let encoder = learn_encoding(plan, train_file, &lt, le.as_ref(), &train_rows, &test_rows)?;
    notes.extend(encoder.notes.iter().cloned());
    let design_names = &encoder.names;
    features::check_names(&plan.feature_map, design_names, plan.intercept)
        .map_err(|m| Error::data(train_file, m))?;
    let identity = matches!(plan.feature_map, FeatureMap::Identity);
    // Refused before a matrix is filled, as features::apply would refuse a map after.
    let rows = train_rows.len().max(test_rows.len());
    features::check_width(&plan.feature_map, design_names.len(), rows)
        .map_err(|m| Error::data(train_file, m))?;
    let layout = Layout {
        standardize: plan.standardize,
        standardise_indicators: plan.encoding.standardise_indicators,
        // A feature map makes new columns: the intercept goes in front of those.
        intercept: plan.intercept && identity,
    };
    // Each file's design as its features were decoded, when it is this design (issue 32).
    let offset = usize::from(layout.intercept);
    let placed = [
        design::in_place(&mut lt, &train_rows, &encoder, offset),
        (le.as_mut()).and_then(|l| design::in_place(l, &test_rows, &encoder, offset)),
    ];
    let raw = RawColumns {
        train: &mut lt.cols,
        test: le.as_mut().map(|l| &mut l.cols[..]),
        placed,
    };
    let filled = design::fill(&encoder, raw, &train_rows, &test_rows, &layout);
    let scaling = identity.then(|| filled.scaling.clone());
    let (train_x, test_x, names) = if identity {
        (filled.train, filled.test, design_names.clone())
    } else {
        let mapped = features::apply(
            &plan.feature_map,
            filled.train.as_ref(),
            filled.test.as_ref(),
            design_names,
            plan.seed,
        )
        .map_err(|m| Error::data(train_file, m))?;
        let x = |m| prepare::with_intercept(m, plan.intercept);
        (x(mapped.train), x(mapped.test), mapped.names)
    };
    let test_key = test_key(plan, &files[files.len() - 1], &test_rows)?;
    let columns = (plan.intercept.then(|| INTERCEPT.to_string()).into_iter())
        .chain(names)
        .collect();
    Ok(Dataset {
        files,
        target: plan.target.clone(),
        classes,
        train: Design {
            x: train_x,
            y: train_y,
            source_rows: train_rows,
        },
        test: Design {
            x: test_x,
            y: test_y,
            source_rows: test_rows,
        },
        features,
        columns,
        summaries: filled.summaries,
        encoding: encoder.info,
        notes,
        separator: plan.separator,
        scaling,
        codes: encoder.codes.clone(),
        test_key,
    })
}

/// The file(s) read: the training file and the test file when there is one (`le`), with the
/// rows of each that make the training and the test set (one file twice for a split).
struct Read {
    files: Vec<PathBuf>,
    lt: Loaded,
    le: Option<Loaded>,
    train_rows: Vec<usize>,
    test_rows: Vec<usize>,
}

/// Read the file(s) of `plan`, their notes into `notes`.
fn read(plan: &DataPlan, probe: ReadProbe, notes: &mut Vec<String>) -> Result<Read> {
    let categorical = &plan.encoding.categorical;
    let features = plan.features.as_deref();
    let said = |notes: &mut Vec<String>, path: &Path, l: &Loaded| {
        notes.extend(l.notes.iter().map(|n| format!("{}: {n}", path.display())));
    };
    match &plan.source {
        DataSource::Single { path, split } => {
            let mut l = load_file(path, plan, features, categorical, None, None, probe)?;
            drop_key(&mut l, plan);
            let rows = complete_rows(path, &l, plan, notes)?;
            let is_test = prepare::test_rows_of(&l.y, *split);
            let train: Vec<usize> = rows.iter().copied().filter(|&i| !is_test[i]).collect();
            let test: Vec<usize> = rows.iter().copied().filter(|&i| is_test[i]).collect();
            note_skipped(notes, path, &l.skipped);
            said(notes, path, &l);
            Ok(Read {
                files: vec![path.clone()],
                lt: l,
                le: None,
                train_rows: train,
                test_rows: test,
            })
        }
        DataSource::TrainTest { train, test } => {
            let mut lt = load_file(train, plan, features, categorical, None, None, probe)?;
            drop_key(&mut lt, plan);
            let cats = lt.categorical();
            let known = Some((train.as_path(), &lt.classes[..]));
            let fixed = lt.target_type.as_ref();
            let le = load_file(test, plan, Some(&lt.features), &cats, known, fixed, probe)?;
            crate::read::pair::check_same_kinds(
                train,
                test,
                &lt.features,
                &cats,
                &le.categorical(),
            )?;
            let rt = complete_rows(train, &lt, plan, notes)?;
            let re = complete_rows(test, &le, plan, notes)?;
            note_skipped(notes, train, &lt.skipped);
            said(notes, train, &lt);
            said(notes, test, &le);
            Ok(Read {
                files: vec![train.clone(), test.clone()],
                lt,
                le: Some(le),
                train_rows: rt,
                test_rows: re,
            })
        }
    }
}

/// `[data] id`'s values for the test rows `rows` of `file` (the file they come from).
fn test_key(plan: &DataPlan, file: &Path, rows: &[usize]) -> Result<Option<(String, Vec<String>)>> {
    let Some(id) = &plan.id else { return Ok(None) };
    let values = read_key(file, plan.separator, id)?;
    Ok(Some((
        id.clone(),
        rows.iter().map(|&i| values[i].clone()).collect(),
    )))
}

/// `[data] id` names a key, never a feature: without `[data] features` every numeric column
/// was read, the key among them.
fn drop_key(l: &mut Loaded, plan: &DataPlan) {
    let Some(id) = &plan.id else { return };
    if let Some(j) = l.features.iter().position(|f| f == id) {
        l.features.remove(j);
        l.cols.remove(j);
    }
}

/// The encoding learnt from the training rows' tallies (the test rows counted too, for their
/// level counts and unseen levels).
fn learn_encoding(
    plan: &DataPlan,
    train_file: &std::path::Path,
    lt: &Loaded,
    le: Option<&Loaded>,
    train_rows: &[usize],
    test_rows: &[usize],
) -> Result<Encoder> {
    let test_file = le.unwrap_or(lt);
    let tallies: Vec<ColumnTally> = lt
        .cols
        .iter()
        .zip(&test_file.cols)
        .map(|(train, test)| {
            let mut t = ColumnTally::new(plan.missing == Missing::Median);
            t.push_file(train);
            // Without filling, the rows used have every cell present and a number column's
            // moments would serve only a fill value: there is nothing to count.
            if plan.missing.fills() || matches!(train, Cells::Levels(_)) {
                t.push_rows(train, train_rows, false);
                t.push_rows(test, test_rows, true);
            }
            t
        })
        .collect();
    learn(train_file, plan, &lt.features, &tallies)
}
