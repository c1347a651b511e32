//! One file read and its labels parsed, before the split: the in-memory loader's raw rows.

use std::path::Path;

use crate::place::numbered;
use crate::place::placed;
use crate::plan::DataPlan;
use crate::prepare::classes::check_classes;
use crate::prepare::labels;
use crate::read::chunks::tables::{each_table, Cut};
use crate::read::release::Release;
use crate::read::size::read_size;
use crate::read::table;
use crate::read::table::{Cells, Labels, Placed, Table};
use crate::read::ReadProbe;
use bayeslab_core::error::{Error, Result};
use polars::prelude::DataType;
use rayon::prelude::*;

/// The rows of one file after label parsing: features column-wise, labels, and missing flags.
pub(crate) struct Loaded {
    pub(crate) classes: Vec<String>,
    pub(crate) features: Vec<String>,
    pub(crate) cols: Vec<Cells>,
    pub(crate) y: Vec<Option<f64>>,
    pub(crate) skipped: Vec<String>,
    /// What the read noticed, for the run's notes.
    pub(crate) notes: Vec<String>,
    /// The target's type a CSV's chunks were parsed with, when its types were fixed: a test
    /// file is parsed with it from its first chunk.
    pub(crate) target_type: Option<DataType>,
    /// The matrix the features were decoded into, in their place in the design
    /// ([`placed::in_place_offset`]), when they were.
    pub(crate) placed: Option<std::sync::Arc<crate::read::table::Placed>>,
}

/// Read one file; `known` are the training file and its classes when this is the test file, and
/// `categorical` the columns read as levels (the training file's, for the test file).
pub(crate) fn load_file(
    path: &Path,
    plan: &DataPlan,
    features: Option<&[String]>,
    categorical: &[String],
    known: Option<(&Path, &[String])>,
    target_type: Option<&DataType>,
    probe: ReadProbe,
) -> Result<Loaded> {
    let (t, target_type, placed) = read_whole(
        path,
        plan,
        features,
        categorical,
        READ_CHUNK_ROWS,
        target_type,
        probe,
    )?;
    // The test file's labels against the training file's classes, when they cannot be read:
    // two spellings of the labels, said as such.
    let explain = |m: String| match known {
        Some((train, names)) => {
            let seen = labels::label_names(&t.target);
            crate::read::pair::label_mismatch(train, path, &plan.target, names, &seen)
                .unwrap_or_else(|| Error::data(path, m))
        }
        None => Error::data(path, m),
    };
    let (y, classes) = match known {
        Some((_, names)) if names.len() > 2 => (
            labels::by_name(&t.target, names, &plan.target).map_err(explain)?,
            names.to_vec(),
        ),
        _ => labels::classes(&t.target, plan.positive.as_deref(), &plan.target).map_err(explain)?,
    };
    check_classes(path, plan, &classes)?;
    let (features, cols) = t.features.into_iter().unzip();
    Ok(Loaded {
        classes,
        features,
        cols,
        y,
        skipped: t.skipped,
        notes: t.notes,
        target_type,
        placed,
    })
}

impl Loaded {
    /// The columns read as levels (the test file is read with these).
    pub(crate) fn categorical(&self) -> Vec<String> {
        self.features
            .iter()
            .zip(&self.cols)
            .filter(|(_, c)| matches!(c, Cells::Levels(_)))
            .map(|(n, _)| n.clone())
            .collect()
    }

    /// The class indices of `rows`.
    pub(crate) fn labels_of(&self, rows: &[usize]) -> Vec<f64> {
        rows.iter()
            .map(|&i| self.y[i].unwrap_or(f64::NAN))
            .collect()
    }
}

/// The most rows per chunk of the in-memory read: polars' frames of `ahead()` chunks are alive
/// at a time, never the whole file's (a Parquet chunk is cut smaller, [`read_size`]).
const READ_CHUNK_ROWS: usize = crate::plan::DEFAULT_CHUNK_ROWS;

/// The selected columns of the whole file, read in chunks of at most `chunk_rows` rows: a
/// number column keeps the chunks' pieces ([`crate::read::table::Numbers`]), a level column is
/// gathered into one (each chunk's memory handed back once gathered); and the target's
/// type when the CSV's chunks were parsed with fixed types. `target_type`: the type another
/// file of the run fixed, to parse this one with from its first chunk.
///
/// A Parquet file of a training and test pair whose features are all plain columns of doubles
/// has them decoded in their place in the design instead ([`placed`]): the chunks read only
/// the target (from the first when the schema settles the features, else after the first
/// batch, whose features are copied into the matrix), the features are decoded there, and the
/// matrix comes back with the table, whose cells are its columns. Should that read find what
/// the plain read would handle otherwise (a missing or infinite cell, a failed read), the file
/// is read the plain way, so that every answer and every error is the plain read's.
pub(crate) fn read_whole(
    path: &Path,
    plan: &DataPlan,
    features: Option<&[String]>,
    categorical: &[String],
    chunk_rows: usize,
    target_type: Option<&DataType>,
    probe: ReadProbe,
) -> Result<Whole> {
    let read = |place, probe: ReadProbe| {
        let given = (features, categorical, target_type);
        read_once(path, plan, given, chunk_rows, place, probe)
    };
    match placed::in_place_offset(plan).filter(|_| crate::read::files::is_parquet(path)) {
        Some(offset) => match read(Some(offset), &mut *probe) {
            Ok((t, fixed, Some(placed))) => Ok((t, fixed, Some(placed))),
            _ => read(None, probe),
        },
        None => read(None, probe),
    }
}

/// A file read whole: its table, the target's type its chunks were parsed with when they were
/// fixed, and the matrix its features were decoded into when they were.
type Whole = (
    Table,
    Option<DataType>,
    Option<std::sync::Arc<crate::read::table::Placed>>,
);

/// [`read_whole`], its features decoded in place from column `place` on when they can be.
fn read_once(
    path: &Path,
    plan: &DataPlan,
    (features, categorical, target_type): (Option<&[String]>, &[String], Option<&DataType>),
    chunk_rows: usize,
    place: Option<usize>,
    probe: ReadProbe,
) -> Result<Whole> {
    let mut features = features.map(<[String]>::to_vec);
    let mut categorical = categorical.to_vec();
    let mut skipped = Vec::new();
    let mut whole: Option<Table> = None;
    let size = read_size(
        path,
        plan.separator,
        &plan.target,
        features.as_deref(),
        chunk_rows,
    )?;
    let mut release = Release::default();
    let cut = Cut {
        chunk_rows: size.chunk_rows,
        csv_part_rows: size.csv_part_rows,
        target_type: target_type.cloned(),
        at_row_groups: true,
        place: place.is_some(),
    };
    let count = each_table(
        path,
        cut,
        plan.separator,
        &plan.target,
        &mut features,
        &mut categorical,
        &mut skipped,
        crate::read::chunks::tables::ahead(),
        &mut |first, table| {
            // The chunk's frame is gone but for its number columns, which the table keeps.
            release.freed(frame_bytes(&table));
            // A table without features, when they may be decoded in place, is the target's
            // alone: its rows are told as the features are decoded (`placed::decode`).
            let told = !(place.is_some() && table.features.is_empty());
            match &mut whole {
                None => whole = Some(reserved(table, size.reserve)),
                Some(w) => append(path, &plan.target, w, table, first)?,
            }
            if told {
                let rows = whole.as_ref().map_or(0, |w| w.target.rows());
                probe(path, rows, size.rows);
            }
            Ok(())
        },
    )?;
    let mut t = whole.ok_or_else(|| Error::data(path, "the file has a header but no data rows"))?;
    t.skipped = skipped;
    t.notes = count.notes;
    let (Some(placeable), Some(offset)) = (count.placed, place) else {
        return Ok((t, count.target_type, None));
    };
    let names = features.unwrap_or_default();
    // The first batch's rows of the features, as its tables read them, when they were not
    // placed from the first row (`Cut::place`).
    let first = std::mem::take(&mut t.features);
    let at = (offset, t.target.rows());
    let decoded = placed::decode(path, &placeable, at, first, probe);
    // A defaulted feature that is a row number would have been left out: read again.
    let row_numbers =
        |p: &std::sync::Arc<Placed>| count.check_sequences && numbered(&p.x, offset, &names);
    let Some((cells, placed)) = decoded.filter(|(_, p)| !row_numbers(p)) else {
        // Read again the plain way (`read_whole`).
        return Ok((t, count.target_type, None));
    };
    t.features = names.into_iter().zip(cells).collect();
    Ok((t, count.target_type, Some(placed)))
}

/// The first chunk's table with room for `rows` rows in every column of its own (a number
/// column keeps its chunks where they are), when the file says how many it has or they are
/// estimated (`ReadSize::reserve`).
fn reserved(mut table: Table, rows: Option<usize>) -> Table {
    let Some(rows) = rows else { return table };
    for (_, cells) in &mut table.features {
        if let Cells::Levels(v) = cells {
            v.reserve_exact(rows.saturating_sub(v.len()));
        }
    }
    match &mut table.target {
        Labels::Numeric(v) => v.reserve_exact(rows.saturating_sub(v.len())),
        Labels::Text(v) => v.reserve_exact(rows.saturating_sub(v.len())),
        Labels::Bool(v) => v.reserve_exact(rows.saturating_sub(v.len())),
    }
    table
}

/// The bytes of a chunk's frame freed once its table is made: those of its level columns'
/// copies' sources, counted at their copies' size (the number columns are kept).
fn frame_bytes(table: &Table) -> usize {
    let levels = table
        .features
        .iter()
        .filter(|(_, c)| matches!(c, Cells::Levels(_)));
    levels.map(|(_, c)| c.bytes()).sum()
}

/// Add a chunk's columns (its first data row `first`) to the columns gathered so far.
fn append(path: &Path, target: &str, whole: &mut Table, chunk: Table, first: usize) -> Result<()> {
    let pairs = whole.features.iter_mut().zip(chunk.features);
    let mut pairs: Vec<(&mut Cells, (String, Cells))> = pairs.map(|((_, w), c)| (w, c)).collect();
    // each_table reads a column as levels in every chunk or in none
    let same_kind = |w: &Cells, c: &Cells| {
        matches!(
            (w, c),
            (Cells::Numbers(_), Cells::Numbers(_)) | (Cells::Levels(_), Cells::Levels(_))
        )
    };
    if let Some((_, (name, _))) = pairs.iter().find(|(w, (_, c))| !same_kind(w, c)) {
        return Err(Error::data(
            path,
            format!("feature column \"{name}\" changes type at data row {first}; list it in [data] categorical if its values are levels"),
        ));
    }
    // Every column on any thread: the level columns' copies are page faults as much as bytes.
    pairs.par_iter_mut().for_each(|(w, (_, c))| {
        match (w, std::mem::replace(c, Cells::released())) {
            (Cells::Numbers(w), Cells::Numbers(c)) => w.append(c),
            (Cells::Levels(w), Cells::Levels(c)) => w.extend(c),
            // Checked above.
            _ => {}
        }
    });
    // A chunk whose labels are all missing reads as numbers: it takes the kind of the rest.
    if whole.target.all_missing() {
        whole.target = chunk.target.missing_like(whole.target.rows());
    }
    let chunk_target = match chunk.target.all_missing() {
        true => whole.target.missing_like(chunk.target.rows()),
        false => chunk.target,
    };
    match (&mut whole.target, chunk_target) {
        (Labels::Numeric(w), Labels::Numeric(c)) => w.extend(c),
        (Labels::Text(w), Labels::Text(c)) => w.extend(c),
        (Labels::Bool(w), Labels::Bool(c)) => w.extend(c),
        _ => {
            return Err(Error::data(
                path,
                format!(
                    "target column \"{target}\" holds one kind of value (numbers, booleans or text) in the file's first rows and another from {}; \
                     make every label the same kind",
                    crate::read::csv::row_at(path, first)
                ),
            ))
        }
    }
    Ok(())
}

/// The note naming the columns of `path` not taken as features, each with its reason (entries
/// made by [`crate::read::table::frame_table`] and [`crate::read::roles::left_out_entry`]).
pub(crate) fn note_skipped(notes: &mut Vec<String>, path: &Path, skipped: &[String]) {
    if !skipped.is_empty() {
        notes.push(format!(
            "{}: columns left out of the features: {}; list a column in [data] features to use it",
            path.display(),
            skipped.join(", ")
        ));
    }
}

/// Read the file(s) of `plan` into polars frames and drop them: the plain reader's time, which
/// `bayeslab bench` reports beside the loader's (the loader's decoding is compared with it).
/// Returns the rows read.
pub fn polars_read(plan: &DataPlan) -> Result<usize> {
    let paths = match &plan.source {
        crate::plan::DataSource::Single { path, .. } => vec![path],
        crate::plan::DataSource::TrainTest { train, test } => vec![train, test],
    };
    let mut rows = 0;
    for path in paths {
        let features = plan.features.as_deref();
        let (df, _) = table::read_frame_with(path, plan.separator, Some(&plan.target), features)?;
        rows += df.height();
    }
    Ok(rows)
}
