//! Numeric files as one dense matrix, for the benchmark harness (issue 8): every numeric
//! column but the target becomes a column of X (file order), the target a 0/1 vector. Reading
//! goes through [`crate::read::table::read_frame`], the same polars reader `bayeslab run` uses, and
//! the seconds spent inside polars are reported apart from the conversion.

use std::path::Path;
use std::time::Instant;

use faer::Mat;
use polars::prelude::*;

use bayeslab_core::error::{Error, Result};

#[derive(Debug, Clone)]
pub struct Dense {
    pub names: Vec<String>,
    pub x: Mat<f64>,
    pub y: Vec<f64>,
    /// Seconds spent in polars' reader (file to DataFrame), before the conversion to X.
    pub read_seconds: f64,
}

/// Read `path` (CSV or Parquet) into X and y, with `target` as the 0/1 label column.
pub fn read_dense(path: &Path, target: &str) -> Result<Dense> {
    let start = Instant::now();
    let df = crate::read::table::read_frame(path)?;
    let read_seconds = start.elapsed().as_secs_f64();
    let n = df.height();
    let names: Vec<String> = df
        .get_column_names()
        .iter()
        .map(|s| s.to_string())
        .collect();
    if !names.iter().any(|c| c == target) {
        return Err(Error::data(
            path,
            format!(
                "there is no label column \"{target}\"; the file has columns: {}. Files from `bayeslab synth` have x1..xD and y",
                names.join(", ")
            ),
        ));
    }
    let columns = df.into_columns();
    let features = columns.iter().filter(|c| c.name() != target).count();
    let mut x = Mat::<f64>::zeros(n, features);
    let mut y = Vec::new();
    let mut feature_names = Vec::with_capacity(features);
    // Each polars column is dropped as soon as it is copied, so the peak stays near frame + X.
    for col in columns {
        let name = col.name().to_string();
        let values = floats(path, &col)?;
        drop(col);
        if name == target {
            if let Some((i, v)) = values
                .iter()
                .enumerate()
                .find(|(_, &v)| v != 0.0 && v != 1.0)
            {
                return Err(Error::data(
                    path,
                    format!("label column \"{target}\", data row {i}: {v} is not 0 or 1"),
                ));
            }
            y = values;
        } else {
            x.col_as_slice_mut(feature_names.len())
                .copy_from_slice(&values);
            feature_names.push(name);
        }
    }
    Ok(Dense {
        names: feature_names,
        x,
        y,
        read_seconds,
    })
}

fn floats(path: &Path, col: &Column) -> Result<Vec<f64>> {
    let name = col.name().to_string();
    let dtype = col.dtype().clone();
    if !dtype.is_primitive_numeric() {
        return Err(Error::data(
            path,
            format!("column \"{name}\" has type {dtype}; every column must be numeric for the benchmark"),
        ));
    }
    if col.null_count() > 0 {
        return Err(Error::data(
            path,
            format!(
                "column \"{name}\" has {} missing values; the benchmark needs complete data",
                col.null_count()
            ),
        ));
    }
    let cast = col
        .cast(&DataType::Float64)
        .map_err(|e| Error::data(path, format!("column \"{name}\": {e}")))?;
    let ca = cast
        .f64()
        .map_err(|e| Error::data(path, format!("column \"{name}\": {e}")))?;
    let mut out = Vec::with_capacity(ca.len());
    for arr in ca.downcast_iter() {
        out.extend_from_slice(arr.values().as_slice());
    }
    Ok(out)
}
