//! Writing a `.npy` file of float64 values as they arrive, without holding the array.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use super::header::header;
use bayeslab_core::error::{Error, Result};

/// Streams a C-order float64 array of a known shape to a file: the header first, then the
/// values in order; [`Writer::finish`] checks that exactly the promised number arrived.
pub struct Writer {
    path: PathBuf,
    out: BufWriter<File>,
    expected: usize,
    written: usize,
}

impl Writer {
    pub fn create(path: &Path, shape: &[usize]) -> Result<Self> {
        let file = File::create(path).map_err(|e| output(path, e))?;
        let mut out = BufWriter::with_capacity(1 << 20, file);
        out.write_all(&header(shape)).map_err(|e| output(path, e))?;
        Ok(Writer {
            path: path.to_path_buf(),
            out,
            expected: shape.iter().product(),
            written: 0,
        })
    }

    pub fn write(&mut self, values: &[f64]) -> Result<()> {
        let mut bytes = Vec::with_capacity(8 * values.len());
        for v in values {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
        self.out
            .write_all(&bytes)
            .map_err(|e| output(&self.path, e))?;
        self.written += values.len();
        Ok(())
    }

    /// Flush and sync to disk.
    pub fn finish(self) -> Result<()> {
        assert_eq!(
            self.written,
            self.expected,
            "{}: wrote a different number of values than the header's shape",
            self.path.display()
        );
        let file = self
            .out
            .into_inner()
            .map_err(|e| output(&self.path, e.into_error()))?;
        file.sync_all().map_err(|e| output(&self.path, e))
    }
}

fn output(path: &Path, source: std::io::Error) -> Error {
    Error::Output {
        path: path.to_path_buf(),
        source,
    }
}
