//! Which existing directories an output may replace: an empty one, or a previous bayeslab
//! output — never anything else, and never one that holds the working directory, the
//! experiment file or its data. Replacing is deleting, so the rule errs on refusing.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use super::siblings::lock_parent;
use crate::error::Error;

/// The files whose presence makes a directory a bayeslab output: results.json (a run, an
/// approximation lab, a TUI export), sweep.json (a sweep) or figures.json (`bayeslab
/// export-figures`), each a JSON object whose first key is `schema_version`.
const MARKERS: [&str; 3] = ["results.json", "sweep.json", "figures.json"];

/// What `bayeslab compare --out DIR` writes into a directory of its own.
const COMPARISON: [&str; 2] = ["comparison.json", "comparison.md"];

fn refuse(dir: &Path, why: String) -> Error {
    Error::Config {
        file: dir.to_path_buf(),
        message: format!("refusing to replace this directory: {why}"),
    }
}

/// Whether `path` is a JSON object whose first key is `schema_version` (reading 4 KiB at most:
/// a results.json may be large).
fn is_record(path: &Path) -> bool {
    let mut head = Vec::new();
    let read = fs::File::open(path).and_then(|f| f.take(4096).read_to_end(&mut head));
    if read.is_err() {
        return false;
    }
    let text = String::from_utf8_lossy(&head);
    text.trim_start()
        .strip_prefix('{')
        .is_some_and(|rest| rest.trim_start().starts_with("\"schema_version\""))
}

/// Refuse an output directory `dir` that exists and may not be replaced: a file, or a
/// directory [`check_replaceable`] refuses. A `dir` that does not exist is fine. Under the lock
/// that writers of `dir` take ([`lock_parent`]), so that it never looks at one half-replaced.
pub fn check_out(dir: &Path, inputs: &[PathBuf]) -> Result<(), Error> {
    super::owned::check_ancestors(dir, "--out")?;
    if fs::symlink_metadata(dir).is_err() {
        return Ok(());
    }
    let _lock = lock_parent(dir)?;
    check_out_locked(dir, inputs)
}

/// [`check_out`] for a caller that holds the lock.
pub(super) fn check_out_locked(dir: &Path, inputs: &[PathBuf]) -> Result<(), Error> {
    match fs::metadata(dir) {
        Ok(m) if m.is_dir() => check_replaceable(dir, inputs),
        Ok(_) => Err(Error::Config {
            file: dir.to_path_buf(),
            message: "exists and is not a directory; choose another --out".into(),
        }),
        Err(_) => Ok(()),
    }
}

/// Refuse to replace `dir` (an existing directory) unless it may go: see the module docs.
/// `inputs` are the files the run read (experiment, data), which must not be inside it.
pub fn check_replaceable(dir: &Path, inputs: &[PathBuf]) -> Result<(), Error> {
    let canonical = fs::canonicalize(dir).map_err(|source| Error::Output {
        path: dir.to_path_buf(),
        source,
    })?;
    let fix = "choose another --out";
    if let Ok(cwd) = std::env::current_dir().and_then(fs::canonicalize) {
        if cwd.starts_with(&canonical) {
            return Err(refuse(
                dir,
                format!("it is or holds the working directory; {fix}"),
            ));
        }
    }
    for input in inputs {
        if fs::canonicalize(input).is_ok_and(|c| c.starts_with(&canonical)) {
            return Err(refuse(
                dir,
                format!("it holds {}, an input of this run; {fix}", input.display()),
            ));
        }
    }
    let entries: Vec<String> = fs::read_dir(dir)
        .map_err(|source| Error::Output {
            path: dir.to_path_buf(),
            source,
        })?
        .map(|e| e.map(|e| e.file_name().to_string_lossy().into_owned()))
        .collect::<Result<_, _>>()
        .map_err(|source| Error::Output {
            path: dir.to_path_buf(),
            source,
        })?;
    let marked = MARKERS
        .iter()
        .any(|m| entries.iter().any(|e| e == m) && is_record(&dir.join(m)));
    let comparison =
        entries.iter().all(|e| COMPARISON.contains(&e.as_str())) && !entries.is_empty();
    if entries.is_empty() || marked || comparison {
        return Ok(());
    }
    Err(refuse(
        dir,
        format!(
            "it is not empty and not a bayeslab output (it has no results.json or sweep.json \
             from a previous run); {fix}, or remove it yourself"
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_empty_directories_and_previous_outputs_may_be_replaced() {
        let root = tempfile::tempdir().unwrap();
        let d = root.path().join("d");
        fs::create_dir(&d).unwrap();
        assert!(check_replaceable(&d, &[]).is_ok(), "empty");
        fs::write(d.join("results.json"), "{\n  \"schema_version\": 1,\n}").unwrap();
        fs::write(d.join("notes.txt"), "x").unwrap();
        assert!(check_replaceable(&d, &[]).is_ok(), "a run");
        fs::write(d.join("results.json"), "{\"rows\": []}").unwrap();
        let e = check_replaceable(&d, &[]).unwrap_err().to_string();
        assert!(e.contains("not a bayeslab output"), "{e}");
        fs::write(d.join("sweep.json"), " { \"schema_version\": 1}").unwrap();
        assert!(check_replaceable(&d, &[]).is_ok(), "a sweep");
        let e = check_replaceable(&d, &[d.join("notes.txt")])
            .unwrap_err()
            .to_string();
        assert!(e.contains("notes.txt, an input of this run"), "{e}");
        assert!(check_replaceable(&d, &[root.path().join("elsewhere")]).is_ok());

        let c = root.path().join("c");
        fs::create_dir(&c).unwrap();
        fs::write(c.join("comparison.json"), "[]").unwrap();
        fs::write(c.join("comparison.md"), "#").unwrap();
        assert!(check_replaceable(&c, &[]).is_ok(), "a comparison");
    }
}
