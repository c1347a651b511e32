//! Where the prediction pass puts its rows: the predictions table in memory, or, for a streamed
//! source, predictions.csv written chunk by chunk into a hidden scratch directory beside the
//! output (or the system's temporary directory without one), which the output writer links in.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use bayeslab_core::error::{Error, Result};
use bayeslab_core::files::Scratch;
use bayeslab_core::record::{
    csv_header, csv_rows, PredictionColumn, PredictionTable, PredictionsFile, Rows,
};

pub enum Sink {
    Table(PredictionTable),
    File {
        path: PathBuf,
        file: PredictionsFile,
        writer: std::io::BufWriter<std::fs::File>,
        header: bool,
    },
}

impl Sink {
    pub fn memory() -> Sink {
        Sink::Table(PredictionTable::default())
    }

    /// A new predictions.csv for experiment `name`, beside `out` when given.
    pub fn file(name: &str, out: Option<&Path>) -> Result<Sink> {
        let (path, scratch) = match out {
            Some(out) => {
                let scratch = Scratch::beside(out)?;
                (scratch.path().join("predictions.csv"), Some(scratch))
            }
            None => (
                std::env::temp_dir().join(format!(
                    "bayeslab-{name}-{}-{}.predictions.csv",
                    std::process::id(),
                    std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .map_or(0, |d| d.as_nanos())
                )),
                None,
            ),
        };
        let keep = scratch.map(|s| Box::new(s) as Box<dyn std::fmt::Debug + Send + Sync>);
        let file = PredictionsFile::new(path.clone(), keep);
        let writer = std::fs::File::create(&path).map_err(|e| output_error(&path, e))?;
        Ok(Sink::File {
            path,
            file,
            writer: std::io::BufWriter::new(writer),
            header: false,
        })
    }

    /// Whether the sink holds the values (a table) rather than writing them out.
    pub fn keeps_values(&self) -> bool {
        matches!(self, Sink::Table(_))
    }

    /// The test rows of one chunk: their labels, places and keys, and every column's
    /// predictions; `key` names the `[data] id` column.
    pub fn rows(
        &mut self,
        rows: &Rows<'_>,
        key: Option<&str>,
        chunk: &[PredictionColumn],
    ) -> Result<()> {
        let Sink::File {
            path,
            writer,
            header,
            ..
        } = self
        else {
            return Ok(());
        };
        let mut text = if *header {
            String::new()
        } else {
            csv_header(key, chunk)
        };
        *header = true;
        csv_rows(&mut text, rows, chunk);
        writer
            .write_all(text.as_bytes())
            .map_err(|e| output_error(path, e))
    }

    /// Whole columns for the table, and the labels, places and keys of every test row.
    pub fn columns(&mut self, rows: &Rows<'_>, key: Option<&str>, columns: Vec<PredictionColumn>) {
        if let Sink::Table(table) = self {
            if table.y.is_empty() {
                table.y = rows.y.to_vec();
                table.data_rows = rows.data_rows.to_vec();
                table.key = key.zip(rows.keys).map(|(k, v)| (k.to_string(), v.to_vec()));
            }
            table.columns.extend(columns);
        }
    }

    /// The finished table: a streamed file is flushed to disk first.
    pub fn finish(self) -> Result<PredictionTable> {
        match self {
            Sink::Table(table) => Ok(table),
            Sink::File {
                path, file, writer, ..
            } => {
                writer
                    .into_inner()
                    .map_err(|e| output_error(&path, e.into_error()))?
                    .sync_all()
                    .map_err(|e| output_error(&path, e))?;
                Ok(PredictionTable {
                    file: Some(file),
                    ..PredictionTable::default()
                })
            }
        }
    }
}

fn output_error(path: &Path, source: std::io::Error) -> Error {
    Error::Output {
        path: path.to_path_buf(),
        source,
    }
}
