//! The files of one data set as `bayeslab synth` names them: STEM.parquet, STEM.csv and the pair
//! STEM.X.npy + STEM.y.npy. Any of them may be given (or the bare STEM); the others that exist
//! are found beside it.

use std::path::{Path, PathBuf};

use faer::Mat;

use bayeslab_core::error::{Error, Result};
use bayeslab_data::npy;

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
        let d = bayeslab_data::dense::read_dense(path, "y")?;
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
    // Neither 0 nor 1 exactly when v (v - 1) is not 0 (NaN and the infinities included): one
    // test per label. Testing `v != 0.0` first branched on labels drawn at random, mispredicted
    // half the time (5 ms of the 1,000,000-row .npy read).
    match y.iter().position(|&v| v * (v - 1.0) != 0.0) {
        None => Ok(()),
        Some(i) => Err(Error::data(
            path,
            format!("label {i} is {}; labels must be 0 or 1", y[i]),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::check_labels;
    use std::path::Path;

    #[test]
    fn labels_other_than_0_and_1_are_refused_at_the_first_one() {
        assert!(check_labels(Path::new("y.npy"), &[0.0, 1.0, -0.0, 1.0]).is_ok());
        let tiny = f64::from_bits(1);
        let odd = [
            2.0,
            0.5,
            -1.0,
            tiny,
            -tiny,
            1.0 + f64::EPSILON,
            1.0 - f64::EPSILON / 2.0,
            1e300,
            -1e300,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
        ];
        for v in odd {
            let e = check_labels(Path::new("y.npy"), &[0.0, 1.0, v, 2.0]).unwrap_err();
            assert!(e.to_string().contains("label 2 is"), "{v}: {e}");
        }
    }
}
