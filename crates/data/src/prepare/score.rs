//! A new table prepared as a run prepared its rows (`bayeslab predict`): the run's raw feature
//! columns read from the file, each encoded with its stored code (levels, reference, fill
//! values), unseen levels and unfillable gaps refused as the run would, standardised with the
//! training rows' statistics, and the intercept put first. The numbers equal the run's own
//! design bit for bit (the same encoder and `standardise`).

use std::path::Path;

use faer::Mat;

use crate::prepare::encode::Encoder;
use crate::prepare::standardise;
use crate::read::table::{feature_cells, Cells};
use bayeslab_core::error::{Error, Result};
use bayeslab_core::record::{ColumnCode, ColumnScaling, Preparation};

/// The design of every row of `path`, with the columns `columns` (intercept first when
/// `prep.intercept`), from `prep` and the standardisation `scaling`.
pub fn prepare_new(
    path: &Path,
    prep: &Preparation,
    scaling: &[ColumnScaling],
    columns: &[String],
) -> Result<Mat<f64>> {
    let sep = prep.separator.bytes().next().unwrap_or(b',');
    let wanted: Vec<(String, bool)> = prep
        .features
        .iter()
        .map(|f| {
            (
                f.column.clone(),
                matches!(f.code, ColumnCode::Levels { .. }),
            )
        })
        .collect();
    let cells = feature_cells(path, sep, &wanted)?;
    let rows = cells.first().map_or(0, Cells::len);
    for (f, c) in prep.features.iter().zip(&cells) {
        check_cells(path, &f.column, &f.code, c, prep.unseen_levels == "error")?;
    }
    let encoder = Encoder::from_codes(prep.features.iter().map(|f| f.code.clone()).collect());
    let all: Vec<usize> = (0..rows).collect();
    let mut design: Vec<Vec<f64>> = Vec::new();
    for (j, c) in cells.iter().enumerate() {
        design.extend(encoder.encode_column(j, c, &all));
    }
    let shift = usize::from(prep.intercept);
    if design.len() != scaling.len() || design.len() + shift != columns.len() {
        return Err(Error::data(
            path,
            format!(
                "the run's stored preparation makes {} design columns but its record lists {}: results.json was edited or is from another bayeslab; run the experiment again",
                design.len() + shift,
                columns.len()
            ),
        ));
    }
    let mut x = Mat::<f64>::zeros(rows, columns.len());
    if prep.intercept {
        x.col_as_slice_mut(0).fill(1.0);
    }
    for (k, (col, s)) in design.iter().zip(scaling).enumerate() {
        for (o, &v) in x.col_as_slice_mut(k + shift).iter_mut().zip(col) {
            *o = standardise(v, s.centre, s.scale);
        }
    }
    Ok(x)
}

/// Refuse what the run could not have prepared: a missing cell where the training rows left no
/// fill value, and (under `unseen_levels = "error"`) a level the training rows did not have.
fn check_cells(
    path: &Path,
    name: &str,
    code: &ColumnCode,
    cells: &Cells,
    refuse_unseen: bool,
) -> Result<()> {
    let row = |i: usize| crate::read::csv::row_at(path, i);
    match (code, cells) {
        (ColumnCode::Number { fill: None, .. }, Cells::Numbers(v)) => {
            if let Some(i) = v.position(f64::is_nan) {
                return Err(Error::data(
                    path,
                    format!(
                        "column \"{name}\", {}: the value is missing, and the run learnt no fill value for \"{name}\" (its training rows had no gap there); fill it in, or leave the row out",
                        row(i)
                    ),
                ));
            }
        }
        (ColumnCode::Levels { levels, fill, .. }, Cells::Levels(v)) => {
            for (i, cell) in v.iter().enumerate() {
                match cell {
                    None if fill.is_none() => {
                        return Err(Error::data(
                            path,
                            format!(
                                "column \"{name}\", {}: the value is missing, and the run learnt no fill level for \"{name}\"; fill it in, or leave the row out",
                                row(i)
                            ),
                        ))
                    }
                    Some(l) if refuse_unseen && !levels.contains(l) => {
                        return Err(Error::data(
                            path,
                            format!(
                                "column \"{name}\", {}: level \"{l}\" was not among the run's training levels ({}), so it has no coefficient; \
                                 the run's [data] unseen_levels = \"error\" refuses it (\"zero\" would code it as the reference level): \
                                 correct the value, or run the experiment again with unseen_levels = \"zero\"",
                                row(i),
                                levels.join(", ")
                            ),
                        ))
                    }
                    _ => {}
                }
            }
        }
        _ => {}
    }
    Ok(())
}
