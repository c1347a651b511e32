//! A Parquet file's features decoded in their place in the design (issue 32): the matrix is
//! allocated from the file's row count with the intercept's column first, the column reader
//! writes each feature into its column ([`crate::data::parquet_place`]), and the design fill
//! later standardises it where it lies instead of copying it ([`crate::data::load`]).

use std::path::Path;
use std::sync::Arc;

use faer::Mat;

use super::ReadProbe;
use crate::config::{DataPlan, DataSource, FeatureMap};
use crate::data::parquet_place::Placeable;
use crate::data::release::keeping_freed_pages;
use crate::data::table::{Cells, Numbers, Placed};
use crate::numeric::linalg::SharedColumns;

/// The design column of the first feature when the features can be decoded in place: a
/// training and test pair (each file's rows are its design's), the identity feature map (the
/// design's columns are the features), and no `[data] id` (no column is taken out after the
/// read). 1 with an intercept, else 0.
pub(super) fn in_place_offset(plan: &DataPlan) -> Option<usize> {
    let pair = matches!(plan.source, DataSource::TrainTest { .. });
    let identity = matches!(plan.feature_map, FeatureMap::Identity);
    (pair && identity && plan.id.is_none()).then_some(usize::from(plan.intercept))
}

/// Decode `placeable`'s columns into a matrix of `rows` rows (the target's, as read) from column
/// `offset` on, ones before them when `offset` is 1; their cells and the matrix. `None` when the
/// file's rows are not the target's, or a column holds a missing or an infinite cell, or the
/// decoding fails: the plain read then decides what to say.
pub(super) fn decode(
    path: &Path,
    placeable: &Placeable,
    offset: usize,
    rows: usize,
    probe: ReadProbe,
) -> Option<(Vec<Cells>, Arc<Placed>)> {
    if placeable.rows() != rows {
        return None;
    }
    let width = offset + placeable.columns();
    let mut x = Mat::<f64>::with_capacity(rows, width);
    let out = SharedColumns::of(&mut x, width);
    // SAFETY: room for `width` columns of `rows` rows; columns offset.. are written by the
    // decoding alone, column 0 (when offset is 1) below.
    let mut told = |done| probe(path, done, Some(rows));
    let found = keeping_freed_pages(|| unsafe { placeable.decode(path, out, offset, &mut told) });
    let found = found.ok()?;
    if found.iter().any(|f| f.missing > 0 || f.infinite) {
        return None;
    }
    for j in 0..offset {
        // SAFETY: column j < offset, inside the allocation, written by nobody else.
        let ones = unsafe { std::slice::from_raw_parts_mut(out.column(j), rows) };
        ones.fill(1.0);
    }
    // SAFETY: every column of every row was written (decoded, or ones).
    unsafe { x.set_dims(rows, width) };
    let placed = Arc::new(Placed { x });
    let cells = (0..placeable.columns())
        .map(|k| Cells::Numbers(Numbers::placed(&placed, offset + k, 0, false)))
        .collect();
    Some((cells, placed))
}
