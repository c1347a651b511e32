//! The files of one part (training or test) written chunk by chunk under temporary names:
//! `STEM.parquet` always, `STEM.X.npy` + `STEM.y.npy` and `STEM.csv` when asked.

use std::fmt::Write as _;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use bayeslab_core::error::{Error, Result};
use bayeslab_data::npy;
use bayeslab_data::parquet_sink::ParquetSink;

/// Rows formatted per parallel task when writing the CSV.
const CSV_ROWS_PER_TASK: usize = 1024;
/// Bytes of features per Parquet row group. The row groups have this fixed size whatever the
/// chunk size of the generator, so that the Parquet file's bytes depend on the seed alone.
const GROUP_BYTES: usize = 32 << 20;

/// Rows per Parquet row group for `features` float64 columns: [`GROUP_BYTES`] of features.
pub fn group_rows(features: usize) -> usize {
    (GROUP_BYTES / (8 * features.max(1))).max(1)
}

/// A file complete under a hidden temporary name beside its destination: [`Pending::commit`]
/// renames it into place; dropped uncommitted (an error elsewhere), it is removed.
pub struct Pending {
    tmp: PathBuf,
    dest: PathBuf,
    committed: bool,
}

impl Pending {
    fn new(dest: &Path) -> Result<Self> {
        if let Some(parent) = dest.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|e| output(parent, e))?;
        }
        let name = dest.file_name().and_then(|n| n.to_str()).unwrap_or("out");
        Ok(Pending {
            tmp: dest.with_file_name(format!(".{name}.tmp-{}", std::process::id())),
            dest: dest.to_path_buf(),
            committed: false,
        })
    }

    /// A small file written and synced at once.
    pub fn write(dest: &Path, bytes: &[u8]) -> Result<Self> {
        let p = Pending::new(dest)?;
        let mut f = File::create(&p.tmp).map_err(|e| output(&p.tmp, e))?;
        f.write_all(bytes).map_err(|e| output(&p.tmp, e))?;
        f.sync_all().map_err(|e| output(&p.tmp, e))?;
        Ok(p)
    }

    pub fn commit(mut self) -> Result<()> {
        std::fs::rename(&self.tmp, &self.dest).map_err(|e| output(&self.dest, e))?;
        self.committed = true;
        Ok(())
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        if !self.committed {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

fn output(path: &Path, source: std::io::Error) -> Error {
    Error::Output {
        path: path.to_path_buf(),
        source,
    }
}

fn with_suffix(stem: &Path, suffix: &str) -> PathBuf {
    let mut s = stem.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

pub fn meta_path(stem: &Path) -> PathBuf {
    with_suffix(stem, ".synth.json")
}

struct Csv {
    pending: Pending,
    out: BufWriter<File>,
}

/// Rows waiting for a full Parquet row group, column-wise.
struct Group {
    rows: usize,
    columns: Vec<Vec<f64>>,
    labels: Vec<i64>,
}

pub struct PartWriter {
    parquet: (Pending, ParquetSink),
    group: Group,
    npy: Option<[(Pending, npy::Writer); 2]>,
    csv: Option<Csv>,
}

impl PartWriter {
    /// Files for `rows` rows of the features `names` (and `y`): Parquet in row groups of
    /// `group_rows` rows (the last one shorter), and .npy and CSV when asked.
    pub fn create(
        stem: &Path,
        rows: usize,
        names: &[String],
        (npy, csv): (bool, bool),
        group_rows: usize,
    ) -> Result<Self> {
        let pq = Pending::new(&with_suffix(stem, ".parquet"))?;
        let sink = ParquetSink::create(&pq.tmp, names, "y")?;
        let npy = if npy {
            let px = Pending::new(&with_suffix(stem, ".X.npy"))?;
            let wx = npy::Writer::create(&px.tmp, &[rows, names.len()])?;
            let py = Pending::new(&with_suffix(stem, ".y.npy"))?;
            let wy = npy::Writer::create(&py.tmp, &[rows])?;
            Some([(px, wx), (py, wy)])
        } else {
            None
        };
        let csv = if csv {
            let pending = Pending::new(&with_suffix(stem, ".csv"))?;
            let file = File::create(&pending.tmp).map_err(|e| output(&pending.tmp, e))?;
            let mut out = BufWriter::with_capacity(1 << 20, file);
            writeln!(out, "{},y", names.join(",")).map_err(|e| output(&pending.tmp, e))?;
            Some(Csv { pending, out })
        } else {
            None
        };
        Ok(PartWriter {
            parquet: (pq, sink),
            group: Group {
                rows: group_rows.max(1),
                columns: vec![Vec::new(); names.len()],
                labels: Vec::new(),
            },
            npy,
            csv,
        })
    }

    /// Append rows: `x` row-major with `d` values per row, `y` the 0/1 labels.
    pub fn write(&mut self, x: &[f64], y: &[f64], d: usize) -> Result<()> {
        if let Some([(_, wx), (_, wy)]) = &mut self.npy {
            wx.write(x)?;
            wy.write(y)?;
        }
        if let Some(csv) = &mut self.csv {
            let text: Vec<String> = x
                .par_chunks(d * CSV_ROWS_PER_TASK)
                .zip(y.par_chunks(CSV_ROWS_PER_TASK))
                .map(|(xs, ys)| {
                    let mut s = String::with_capacity(xs.len() * 20);
                    for (row, label) in xs.chunks(d).zip(ys) {
                        for v in row {
                            // Display prints the shortest decimal that reads back to the same f64.
                            let _ = write!(s, "{v},");
                        }
                        let _ = writeln!(s, "{label}");
                    }
                    s
                })
                .collect();
            for t in text {
                csv.out
                    .write_all(t.as_bytes())
                    .map_err(|e| output(&csv.pending.tmp, e))?;
            }
        }
        let g = &mut self.group;
        g.columns.par_iter_mut().enumerate().for_each(|(j, col)| {
            col.extend(x.iter().skip(j).step_by(d));
        });
        g.labels.extend(y.iter().map(|&v| v as i64));
        while g.labels.len() >= g.rows {
            let rest_labels = g.labels.split_off(g.rows);
            let rest: Vec<Vec<f64>> = g.columns.iter_mut().map(|c| c.split_off(g.rows)).collect();
            let full = std::mem::replace(&mut g.columns, rest);
            let labels = std::mem::replace(&mut g.labels, rest_labels);
            self.parquet.1.write(full, labels)?;
        }
        Ok(())
    }

    /// Close every file; returns them pending (not yet renamed) and their final names.
    pub fn finish(self) -> Result<(Vec<Pending>, Vec<String>)> {
        let mut done = Vec::new();
        let (pq, mut sink) = self.parquet;
        if !self.group.labels.is_empty() {
            sink.write(self.group.columns, self.group.labels)?;
        }
        sink.finish()?;
        done.push(pq);
        if let Some(pairs) = self.npy {
            for (p, w) in pairs {
                w.finish()?;
                done.push(p);
            }
        }
        if let Some(csv) = self.csv {
            let file = csv
                .out
                .into_inner()
                .map_err(|e| output(&csv.pending.tmp, e.into_error()))?;
            file.sync_all().map_err(|e| output(&csv.pending.tmp, e))?;
            done.push(csv.pending);
        }
        let names = done.iter().map(|p| p.dest.display().to_string()).collect();
        Ok((done, names))
    }
}

#[cfg(test)]
#[path = "sink_tests.rs"]
mod tests;
