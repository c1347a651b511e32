//! A Parquet file's features decoded in their place in the design (issue 32): the matrix is
//! allocated from the file's row count with the intercept's column first, the first chunks'
//! features are copied in when polars decoded them whole to decide the features (none when the
//! schema decided them, [`crate::place`]), the column reader writes the other row
//! groups of each feature into its column
//! ([`crate::place::columns`]), and the design fill later standardises it where it lies
//! instead of copying it ([`crate::load`]).

use std::path::Path;
use std::sync::Arc;

use faer::Mat;

use crate::place::columns::Placeable;
use crate::plan::{DataPlan, DataSource, FeatureMap};
use crate::read::release::keeping_freed_pages;
use crate::read::table::{Cells, Numbers, Placed};
use crate::read::ReadProbe;
use bayeslab_core::numeric::linalg::SharedColumns;

/// The design column of the first feature when the features can be decoded in place: a
/// training and test pair (each file's rows are its design's), the identity feature map (the
/// design's columns are the features), and no `[data] id` (no column is taken out after the
/// read). 1 with an intercept, else 0.
pub(crate) fn in_place_offset(plan: &DataPlan) -> Option<usize> {
    let pair = matches!(plan.source, DataSource::TrainTest { .. });
    let identity = matches!(plan.feature_map, FeatureMap::Identity);
    (pair && identity && plan.id.is_none()).then_some(usize::from(plan.intercept))
}

/// Decode `placeable`'s columns into a matrix of `rows` rows (`at`: the first feature's column
/// and the target's rows, as read), ones before them when that column is 1, after the rows of
/// `first` (the features of the first chunks, as their tables read them), which are copied;
/// their cells and the matrix. `None` when the file's rows are not the target's, a column holds
/// a missing or an infinite cell, or the decoding fails: the plain read then decides what to say.
pub(crate) fn decode(
    path: &Path,
    placeable: &Placeable,
    (offset, rows): (usize, usize),
    first: Vec<(String, Cells)>,
    probe: ReadProbe,
) -> Option<(Vec<Cells>, Arc<Placed>)> {
    if placeable.rows() != rows || !(first.is_empty() || first.len() == placeable.columns()) {
        return None;
    }
    let width = offset + placeable.columns();
    let mut x = Mat::<f64>::with_capacity(rows, width);
    let out = SharedColumns::of(&mut x, width);
    // SAFETY: room for `width` columns of `rows` rows, written here alone.
    let copied = unsafe { copy_first(out, offset, rows, first) }?;
    let mut told = |done| probe(path, done, Some(rows));
    // SAFETY: as above; columns offset.. from row `copied` on are written by the decoding alone.
    let decoded = || unsafe { placeable.decode(path, out, (offset, copied), &mut told) };
    let found = keeping_freed_pages(decoded).ok()?;
    if found.iter().any(|f| f.missing > 0 || f.infinite) {
        return None;
    }
    for j in 0..offset {
        // SAFETY: column j < offset, inside the allocation, written by nobody else.
        let ones = unsafe { std::slice::from_raw_parts_mut(out.column(j), rows) };
        ones.fill(1.0);
    }
    // SAFETY: every column of every row was written (copied, decoded, or ones).
    unsafe { x.set_dims(rows, width) };
    let placed = Arc::new(Placed { x });
    let cells = (0..placeable.columns())
        .map(|k| Cells::Numbers(Numbers::placed(&placed, offset + k, 0, false)))
        .collect();
    Some((cells, placed))
}

/// Copy `first` (each column's first rows, as many in each) into columns `offset..` of `out`;
/// the rows copied, `None` when a cell is missing or infinite or the columns are not the
/// placed ones.
///
/// # Safety
/// `out`'s columns `offset..offset + first.len()` have room for `rows` rows, and nothing else
/// reads or writes them until this returns.
unsafe fn copy_first(
    out: SharedColumns,
    offset: usize,
    rows: usize,
    first: Vec<(String, Cells)>,
) -> Option<usize> {
    let copied = first.first().map_or(0, |(_, c)| c.len());
    for (k, (_, cells)) in first.into_iter().enumerate() {
        let Cells::Numbers(v) = cells else {
            return None;
        };
        if v.len() != copied || copied > rows || v.missing() > 0 || v.first_infinite().is_some() {
            return None;
        }
        // SAFETY: column offset + k has room for `rows` ≥ `copied` rows (the caller's promise).
        let column = unsafe { std::slice::from_raw_parts_mut(out.column(offset + k), copied) };
        let mut at = 0;
        for s in v.slices() {
            column[at..at + s.len()].copy_from_slice(s);
            at += s.len();
        }
    }
    Some(copied)
}
