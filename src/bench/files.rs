//! The files of one data set as `bayeslab synth` names them: STEM.parquet, STEM.csv and the pair
//! STEM.X.npy + STEM.y.npy. Any of them may be given (or the bare STEM); the others that exist
//! are found beside it.

use std::path::{Path, PathBuf};

use faer::Mat;

use crate::error::{Error, Result};
use crate::npy;

#[derive(Debug, Clone)]
pub struct FileSet {
    pub stem: PathBuf,
    pub parquet: Option<PathBuf>,
    pub csv: Option<PathBuf>,
    /// (X, y) and their shape (rows, cols) from the headers.
    pub npy: Option<(PathBuf, PathBuf, usize, usize)>,
}

const SUFFIXES: [&str; 4] = [".parquet", ".csv", ".X.npy", ".y.npy"];

fn with_suffix(stem: &Path, suffix: &str) -> PathBuf {
    let mut s = stem.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

/// The training matrix and labels, and the file they came from.
pub struct Loaded {
    pub x: Mat<f64>,
    pub y: Vec<f64>,
    pub file: PathBuf,
}

impl FileSet {
    /// Find the files of the data set named by `arg` (given to `flag`, e.g. `--train`).
    pub fn resolve(arg: &Path, flag: &str) -> Result<FileSet> {
        let text = arg.to_string_lossy();
        let named = SUFFIXES.iter().find(|s| text.ends_with(*s));
        let stem = match named {
            Some(s) => PathBuf::from(&text[..text.len() - s.len()]),
            None => arg.to_path_buf(),
        };
        let hint = format!(
            "write the data set with `bayeslab synth --rows N --features D --out {}.parquet --npy --csv`",
            stem.display()
        );
        if named.is_some() && !arg.is_file() {
            return Err(Error::config(arg, format!("{flag}: no such file; {hint}")));
        }
        let existing = |s: &str| Some(with_suffix(&stem, s)).filter(|p| p.is_file());
        let (xp, yp) = (existing(".X.npy"), existing(".y.npy"));
        let npy = match (xp, yp) {
            (Some(x), Some(y)) => {
                let (n, d) = npy_shape(&x, &y)?;
                Some((x, y, n, d))
            }
            (Some(x), None) | (None, Some(x)) => {
                let missing = if x.to_string_lossy().ends_with(".X.npy") {
                    ".y.npy"
                } else {
                    ".X.npy"
                };
                return Err(Error::config(
                    &x,
                    format!(
                        "{flag}: {} is missing; the .npy pair needs both files ({hint})",
                        with_suffix(&stem, missing).display()
                    ),
                ));
            }
            (None, None) => None,
        };
        let set = FileSet {
            parquet: existing(".parquet"),
            csv: existing(".csv"),
            npy,
            stem,
        };
        if set.parquet.is_none() && set.csv.is_none() && set.npy.is_none() {
            return Err(Error::config(
                arg,
                format!(
                    "{flag}: no data files (looked for {}); {hint}",
                    SUFFIXES[..3]
                        .iter()
                        .map(|s| with_suffix(&set.stem, s).display().to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        }
        Ok(set)
    }

    /// The number of columns, when known without reading the data.
    pub fn cols(&self) -> Option<usize> {
        self.npy.as_ref().map(|n| n.3)
    }

    /// X and y: from the .npy pair when present (straight into a faer matrix), otherwise through
    /// polars from the Parquet or CSV file.
    pub fn load(&self) -> Result<Loaded> {
        if let Some((xp, yp, _, _)) = &self.npy {
            let x = npy::read_matrix(xp)?;
            let y = npy::read_vector(yp)?;
            check_labels(yp, &y)?;
            return Ok(Loaded {
                x,
                y,
                file: xp.clone(),
            });
        }
        let path = self
            .parquet
            .as_ref()
            .or(self.csv.as_ref())
            .expect("resolve() found at least one file");
        let d = crate::data::dense::read_dense(path, "y")?;
        Ok(Loaded {
            x: d.x,
            y: d.y,
            file: path.clone(),
        })
    }
}

/// Both headers, and that they describe N x D and N.
fn npy_shape(x: &Path, y: &Path) -> Result<(usize, usize)> {
    let hx = npy::read_header(x)?;
    let hy = npy::read_header(y)?;
    let &[n, d] = hx.shape.as_slice() else {
        return Err(Error::data(
            x,
            format!(
                "the array has shape {:?}; X must be a 2-D array (rows, columns)",
                hx.shape
            ),
        ));
    };
    let ny = match hy.shape.as_slice() {
        &[m] | &[m, 1] => m,
        other => {
            return Err(Error::data(
                y,
                format!("the array has shape {other:?}; y must be a vector (rows,)"),
            ))
        }
    };
    if ny != n {
        return Err(Error::data(
            y,
            format!(
                "{ny} labels but {} has {n} rows; write both from the same data (bayeslab synth --npy)",
                x.display()
            ),
        ));
    }
    if n == 0 || d == 0 {
        return Err(Error::data(
            x,
            format!("the array has shape ({n}, {d}); it needs at least one row and one column"),
        ));
    }
    Ok((n, d))
}

fn check_labels(path: &Path, y: &[f64]) -> Result<()> {
    match y.iter().position(|&v| v != 0.0 && v != 1.0) {
        None => Ok(()),
        Some(i) => Err(Error::data(
            path,
            format!("label {i} is {}; labels must be 0 or 1", y[i]),
        )),
    }
}
