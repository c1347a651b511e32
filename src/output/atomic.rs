//! All-or-nothing output directories: files are written into a fresh hidden sibling
//! directory, flushed to disk, and only then renamed into place. An interrupted run leaves
//! either the previous complete directory or none, never a half-written file in it.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::Artifact;
use crate::error::Error;

fn output_err(path: &Path) -> impl FnOnce(std::io::Error) -> Error + '_ {
    move |source| Error::Output {
        path: path.to_path_buf(),
        source,
    }
}

fn sibling(dir: &Path, tag: &str) -> PathBuf {
    let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or("run");
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    dir.with_file_name(format!(".{name}.{tag}-{}-{nanos}", std::process::id()))
}

/// Write one file atomically: a hidden temporary beside it, flushed, then renamed over it.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        fs::create_dir_all(parent).map_err(output_err(parent))?;
    }
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

/// Replace directory `dir` with one holding exactly `artifacts`.
pub fn write_dir(dir: &Path, artifacts: &[Artifact]) -> Result<(), Error> {
    write_dir_with_files(dir, artifacts, &[])
}

/// [`write_dir`], plus files already on disk copied in as (name in `dir`, current path): a
/// streamed predictions.csv that was never held in memory.
pub fn write_dir_with_files(
    dir: &Path,
    artifacts: &[Artifact],
    files: &[(String, PathBuf)],
) -> Result<(), Error> {
    if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
        fs::create_dir_all(parent).map_err(output_err(parent))?;
    }
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
            fs::copy(from, &path).map_err(output_err(&path))?;
            fs::File::open(&path)
                .and_then(|f| f.sync_all())
                .map_err(output_err(&path))?;
        }
        swap_into_place(&tmp, dir)
    })();
    if result.is_err() {
        let _ = fs::remove_dir_all(&tmp);
    }
    result
}

fn swap_into_place(tmp: &Path, dir: &Path) -> Result<(), Error> {
    if dir.exists() {
        if !dir.is_dir() {
            return Err(Error::Output {
                path: dir.to_path_buf(),
                source: std::io::Error::other(
                    "exists and is not a directory; choose another --out",
                ),
            });
        }
        let old = sibling(dir, "old");
        fs::rename(dir, &old).map_err(output_err(dir))?;
        if let Err(e) = fs::rename(tmp, dir) {
            let _ = fs::rename(&old, dir);
            return Err(output_err(dir)(e));
        }
        let _ = fs::remove_dir_all(&old);
    } else {
        fs::rename(tmp, dir).map_err(output_err(dir))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn art(name: &str, text: &str) -> Artifact {
        Artifact {
            name: name.into(),
            bytes: text.as_bytes().to_vec(),
        }
    }

    #[test]
    fn replaces_the_whole_directory_and_leaves_no_temporaries() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("runs").join("exp");
        write_dir(
            &dir,
            &[
                art("a.txt", "1"),
                art("b.txt", "2"),
                art("plots/p.svg", "<svg/>"),
            ],
        )
        .unwrap();
        assert_eq!(
            fs::read_to_string(dir.join("plots/p.svg")).unwrap(),
            "<svg/>"
        );
        write_dir(&dir, &[art("a.txt", "3")]).unwrap();
        assert_eq!(fs::read_to_string(dir.join("a.txt")).unwrap(), "3");
        assert!(
            !dir.join("b.txt").exists(),
            "stale files from the previous run are gone"
        );
        let names: Vec<_> = fs::read_dir(root.path().join("runs"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("exp")]);
    }

    #[test]
    fn a_failed_write_keeps_the_previous_directory() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("exp");
        write_dir(&dir, &[art("a.txt", "old")]).unwrap();
        // A file name that cannot be created (it contains NUL) fails mid-way.
        let err = write_dir(
            &dir,
            &[
                art("a.txt", "new"),
                art("plots/x.svg", "<svg/>"),
                art("b\0.txt", "x"),
            ],
        );
        assert!(err.is_err());
        assert_eq!(fs::read_to_string(dir.join("a.txt")).unwrap(), "old");
        assert_eq!(fs::read_dir(root.path()).unwrap().count(), 1);
    }
}
