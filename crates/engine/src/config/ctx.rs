//! The validation context every part of config/ checks values with: the experiment file
//! (named in each error) and its folder (where relative paths start). The range checks that
//! cite a limit are in [`super::limits`].

use std::path::{Path, PathBuf};

use bayeslab_core::error::{Error, Result};

/// Validation context: the file for error messages and the directory for relative paths.
pub(super) struct Ctx<'a> {
    pub(super) file: &'a Path,
    /// The experiment file's folder: relative paths inside it start here.
    pub(super) dir: PathBuf,
}

impl<'a> Ctx<'a> {
    pub(super) fn new(file: &'a Path) -> Self {
        let dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
        Ctx { file, dir }
    }

    pub(super) fn err(&self, message: impl Into<String>) -> Error {
        Error::config(self.file, message)
    }

    pub(super) fn path(&self, key: &str, value: &str) -> Result<PathBuf> {
        let p = self.dir.join(value);
        if !p.is_file() {
            let what = not_a_file(&p);
            return Err(self.err(format!(
                "{key} = \"{value}\": {what} ({}); paths are relative to the experiment file's folder",
                p.display()
            )));
        }
        Ok(p)
    }

    pub(super) fn positive_f64(&self, key: &str, v: f64, allow_zero: bool) -> Result<f64> {
        let ok = v.is_finite() && (v > 0.0 || (allow_zero && v == 0.0));
        if !ok {
            let bound = if allow_zero { ">= 0" } else { "> 0" };
            return Err(self.err(format!("{key} = {v}: must be a finite number {bound}")));
        }
        Ok(v)
    }

    pub(super) fn count(&self, key: &str, v: u64, min: u64) -> Result<usize> {
        if v < min {
            return Err(self.err(format!("{key} = {v}: must be at least {min}")));
        }
        usize::try_from(v).map_err(|_| self.err(format!("{key} = {v}: too large")))
    }
}

/// Names become directory and column names: keep them to a safe alphabet.
pub(super) fn validate_name(ctx: &Ctx<'_>, key: &str, name: &str) -> Result<String> {
    let ok = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        && !name.starts_with('.');
    if !ok {
        return Err(ctx.err(format!(
            "{key} = \"{name}\": use letters, digits, '-', '_' or '.' (it names files and columns)"
        )));
    }
    Ok(name.to_string())
}

/// What is at `p`, which is not a regular file: "no such file", or what it is instead (a
/// folder, a FIFO, a device or a socket), which bayeslab cannot read as data.
pub(in crate::config) fn not_a_file(p: &Path) -> &'static str {
    #[cfg(unix)]
    use std::os::unix::fs::FileTypeExt;
    let Ok(meta) = std::fs::metadata(p) else {
        return "no such file";
    };
    let t = meta.file_type();
    if t.is_dir() {
        return "this is a folder, not a file";
    }
    #[cfg(unix)]
    {
        if t.is_fifo() {
            return "this is a FIFO (a named pipe), not a regular file; bayeslab reads a data file more than once";
        }
        if t.is_socket() {
            return "this is a socket, not a regular file";
        }
        if t.is_block_device() || t.is_char_device() {
            return "this is a device, not a regular file";
        }
    }
    "this is not a regular file"
}
