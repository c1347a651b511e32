//! Writing a Parquet file one row group at a time through polars' batched writer, so that a
//! file far larger than memory can be generated (`bayeslab synth`): float64 feature columns
//! and an int64 label column, polars' default compression (zstd).

use std::fs::File;
use std::path::{Path, PathBuf};

use polars::prelude::*;

use bayeslab_core::error::{Error, Result};

pub struct ParquetSink {
    path: PathBuf,
    names: Vec<PlSmallStr>,
    target: PlSmallStr,
    writer: polars::io::parquet::write::BatchedWriter<File>,
}

fn output(path: &Path, e: impl std::fmt::Display) -> Error {
    Error::Output {
        path: path.to_path_buf(),
        source: std::io::Error::other(e.to_string()),
    }
}

impl ParquetSink {
    /// Create the file with float64 columns `features` and an int64 column `target`.
    pub fn create(path: &Path, features: &[String], target: &str) -> Result<Self> {
        let names: Vec<PlSmallStr> = features.iter().map(|n| n.as_str().into()).collect();
        let schema: Schema = names
            .iter()
            .map(|n| Field::new(n.clone(), DataType::Float64))
            .chain(std::iter::once(Field::new(target.into(), DataType::Int64)))
            .collect();
        let file = File::create(path).map_err(|e| output(path, e))?;
        let writer = ParquetWriter::new(file)
            .batched(&schema)
            .map_err(|e| output(path, e))?;
        Ok(ParquetSink {
            path: path.to_path_buf(),
            names,
            target: target.into(),
            writer,
        })
    }

    /// Append one row group: one vector per feature column (all of the same length) and the labels.
    pub fn write(&mut self, columns: Vec<Vec<f64>>, labels: Vec<i64>) -> Result<()> {
        assert_eq!(columns.len(), self.names.len(), "one vector per feature");
        let rows = labels.len();
        let mut cols: Vec<Column> = columns
            .into_iter()
            .zip(&self.names)
            .map(|(v, n)| {
                assert_eq!(v.len(), rows, "feature columns as long as the labels");
                Column::new(n.clone(), v)
            })
            .collect();
        cols.push(Column::new(self.target.clone(), labels));
        let df = DataFrame::new(rows, cols).map_err(|e| output(&self.path, e))?;
        self.writer
            .write_batch(&df)
            .map_err(|e| output(&self.path, e))
    }

    /// Write the footer, close the file and sync it to disk.
    pub fn finish(self) -> Result<u64> {
        let size = self.writer.finish().map_err(|e| output(&self.path, e))?;
        drop(self.writer);
        File::open(&self.path)
            .and_then(|f| f.sync_all())
            .map_err(|e| output(&self.path, e))?;
        Ok(size)
    }
}

/// The values of one column of [`frame_bytes`].
pub enum Values {
    F64(Vec<f64>),
    U64(Vec<u64>),
}

/// A Parquet file, in memory, of `columns` (all of one length): what the outputs write for
/// pandas and polars (`draws/*.parquet`). Fails only on columns of unequal lengths.
pub fn frame_bytes(columns: Vec<(String, Values)>) -> std::result::Result<Vec<u8>, String> {
    let rows = columns.first().map_or(0, |(_, v)| match v {
        Values::F64(v) => v.len(),
        Values::U64(v) => v.len(),
    });
    let cols: Vec<Column> = columns
        .into_iter()
        .map(|(name, v)| match v {
            Values::F64(v) => Column::new(name.into(), v),
            Values::U64(v) => Column::new(name.into(), v),
        })
        .collect();
    let mut df = DataFrame::new(rows, cols).map_err(|e| e.to_string())?;
    let mut bytes = Vec::new();
    ParquetWriter::new(&mut bytes)
        .finish(&mut df)
        .map_err(|e| e.to_string())?;
    Ok(bytes)
}

/// The rows of each row group of a Parquet file, from its metadata: for the tests (here and
/// of `bayeslab synth`), which panic on a file that is not Parquet.
#[doc(hidden)]
pub fn row_group_rows(path: &Path) -> Vec<usize> {
    let file = File::open(path).expect("the Parquet file opens");
    let mut reader = ParquetReader::new(file);
    let metadata = reader.get_metadata().expect("the Parquet metadata reads");
    metadata.row_groups.iter().map(|g| g.num_rows()).collect()
}
