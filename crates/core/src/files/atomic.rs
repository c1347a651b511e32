//! All-or-nothing output directories: files are written into a fresh hidden sibling
//! directory, flushed to disk, and only then renamed into place. An interrupted run leaves
//! either the previous complete directory or none, never a half-written file in it.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::guard::{check_out, check_out_locked};
use super::siblings::{lock_parent, remove_stale, sibling};
use super::Artifact;
use crate::error::Error;

fn output_err(path: &Path) -> impl FnOnce(std::io::Error) -> Error + '_ {
    move |source| Error::Output {
        path: path.to_path_buf(),
        source,
    }
}

/// Write one file atomically: a hidden temporary beside it, flushed, then renamed over it.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        fs::create_dir_all(parent).map_err(output_err(parent))?;
    }
    remove_stale(path);
    let tmp = sibling(path, "tmp");
    let result = (|| {
        let mut f = fs::File::create(&tmp).map_err(output_err(&tmp))?;
        f.write_all(bytes).map_err(output_err(&tmp))?;
        f.sync_all().map_err(output_err(&tmp))?;
        fs::rename(&tmp, path).map_err(output_err(path))
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// Replace directory `dir` with one holding exactly `artifacts`. An existing `dir` is replaced
/// only when it is empty or a previous bayeslab output ([`check_out`]).
pub fn write_dir(dir: &Path, artifacts: &[Artifact]) -> Result<(), Error> {
    write_dir_with_files(dir, artifacts, &[], &[])
}

/// [`write_dir`], plus files already on disk put in as (name in `dir`, current path): a
/// streamed predictions.csv that was never held in memory (hard-linked when it is on the same
/// file system, as in a [`super::Scratch`], else copied). `inputs` are the files the run read,
/// which `dir` must not hold.
pub fn write_dir_with_files(
    dir: &Path,
    artifacts: &[Artifact],
    files: &[(String, PathBuf)],
    inputs: &[PathBuf],
) -> Result<(), Error> {
    if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
        fs::create_dir_all(parent).map_err(output_err(parent))?;
    }
    let resolved;
    let dir = if dir.file_name().is_none() {
        // ".", "..", "a/..": the directory's own name is needed for its siblings
        resolved = fs::canonicalize(dir).map_err(output_err(dir))?;
        resolved.as_path()
    } else {
        dir
    };
    // before any work, so that a refusal costs nothing; repeated under the lock in the swap
    check_out(dir, inputs)?;
    remove_stale(dir);
    let tmp = sibling(dir, "tmp");
    let result = (|| {
        fs::create_dir(&tmp).map_err(output_err(&tmp))?;
        for a in artifacts {
            let path = tmp.join(&a.name);
            if let Some(parent) = path.parent().filter(|p| *p != tmp) {
                fs::create_dir_all(parent).map_err(output_err(parent))?;
            }
            let mut f = fs::File::create(&path).map_err(output_err(&path))?;
            f.write_all(&a.bytes).map_err(output_err(&path))?;
            f.sync_all().map_err(output_err(&path))?;
        }
        for (name, from) in files {
            let path = tmp.join(name);
            if fs::hard_link(from, &path).is_err() {
                fs::copy(from, &path).map_err(output_err(&path))?;
            }
            fs::File::open(&path)
                .and_then(|f| f.sync_all())
                .map_err(output_err(&path))?;
        }
        swap_into_place(&tmp, dir, inputs)
    })();
    if result.is_err() {
        let _ = fs::remove_dir_all(&tmp);
    }
    result
}

/// Rename the finished `tmp` to `dir`, moving a replaceable `dir` aside first; under a lock on
/// their folder, so that concurrent writers of `dir` take turns.
fn swap_into_place(tmp: &Path, dir: &Path, inputs: &[PathBuf]) -> Result<(), Error> {
    let lock = lock_parent(dir)?;
    check_out_locked(dir, inputs)?;
    let old = match fs::symlink_metadata(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(output_err(dir)(e)),
        Ok(_) => {
            let old = sibling(dir, "old");
            fs::rename(dir, &old).map_err(output_err(dir))?;
            Some(old)
        }
    };
    if let Err(e) = fs::rename(tmp, dir) {
        if let Some(old) = &old {
            let _ = fs::rename(old, dir);
        }
        return Err(output_err(dir)(e));
    }
    drop(lock);
    if let Some(old) = old {
        let _ = fs::remove_dir_all(&old);
    }
    Ok(())
}

#[cfg(test)]
#[path = "atomic_tests.rs"]
mod tests;
