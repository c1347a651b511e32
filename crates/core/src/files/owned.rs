//! The rule every single-file writer shares (`compare --out`, `bench --out`, `synth --out` and
//! the names it derives): a file may be replaced only when it is absent or bayeslab's own
//! earlier output of the same kind, never an input of the command, and never under something
//! that is not a directory. Checked before any work is done, so that a refusal costs nothing
//! and leaves everything as it was. guard.rs holds the same rule for output directories.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::error::Error;

/// How a writer recognises its own earlier output in a file it is about to replace.
#[derive(Debug, Clone)]
pub enum Own {
    /// A JSON object whose first key is `schema_version` (bench.json, STEM.synth.json).
    Record,
    /// comparison.json: a JSON array of comparison lines, each an object whose first key is
    /// `run`.
    Comparison,
    /// A text file whose first line is exactly this heading (comparison.md).
    Heading(&'static str),
    /// A file named in the `files` list of this synth manifest (STEM.synth.json, itself a
    /// [`Own::Record`]) beside it.
    ListedIn(PathBuf),
}

/// At most this many bytes are read to recognise a file (a record may be large).
const HEAD: u64 = 4096;

fn head(path: &Path) -> Option<String> {
    let mut bytes = Vec::new();
    let f = fs::File::open(path).ok()?;
    f.take(HEAD).read_to_end(&mut bytes).ok()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// Whether the JSON text starts with `{` or `[` (`open`) and then the string `"key"`.
fn opens_with(text: &str, open: &str, key: &str) -> bool {
    text.trim_start()
        .strip_prefix(open)
        .is_some_and(|rest| rest.trim_start().starts_with(&format!("\"{key}\"")))
}

impl Own {
    /// Whether the existing file `path` is this kind of bayeslab output.
    pub fn recognises(&self, path: &Path) -> bool {
        let Some(text) = head(path) else {
            return false;
        };
        match self {
            Own::Record => opens_with(&text, "{", "schema_version"),
            Own::Comparison => {
                let t = text.trim_start();
                t.strip_prefix('[').is_some_and(|rest| {
                    rest.trim_start().starts_with(']') || opens_with(rest, "{", "run")
                })
            }
            Own::Heading(h) => text.lines().next() == Some(*h),
            Own::ListedIn(manifest) => listed(manifest, path),
        }
    }

    /// What this kind of output is, for the message refusing a file that is not one.
    fn what(&self) -> String {
        match self {
            Own::Record => {
                "a bayeslab record (a JSON object starting with \"schema_version\")".into()
            }
            Own::Comparison => "a comparison.json written by bayeslab compare".into(),
            Own::Heading(h) => format!("a file written by bayeslab (its first line \"{h}\")"),
            Own::ListedIn(m) => format!(
                "a file listed in {}, the record of an earlier bayeslab synth",
                m.display()
            ),
        }
    }
}

/// Whether `path`'s name is in the `files` of the synth manifest `manifest` (a record).
fn listed(manifest: &Path, path: &Path) -> bool {
    if !Own::Record.recognises(manifest) {
        return false;
    }
    let Ok(text) = fs::read_to_string(manifest) else {
        return false;
    };
    let Ok(json) = serde_json::from_str::<serde_json::Value>(&text) else {
        return false;
    };
    let name = path.file_name();
    json["files"].as_array().is_some_and(|files| {
        files
            .iter()
            .filter_map(|f| f.as_str())
            .any(|f| Path::new(f).file_name() == name)
    })
}

fn refuse(path: &Path, flag: &str, why: String) -> Error {
    Error::Config {
        file: path.to_path_buf(),
        message: format!("refusing to write {flag} here: {why}; choose another {flag}"),
    }
}

/// Refuse an output `path` whose nearest existing ancestor is not a directory: nothing can be
/// written under a regular file, and finding out after the work would waste it.
pub fn check_ancestors(path: &Path, flag: &str) -> Result<(), Error> {
    for dir in path.ancestors().skip(1) {
        if dir.as_os_str().is_empty() {
            return Ok(());
        }
        match fs::metadata(dir) {
            Ok(m) if m.is_dir() => return Ok(()),
            Ok(_) => {
                return Err(refuse(
                    path,
                    flag,
                    format!(
                        "{} is a file, not a directory, so nothing can be written under it",
                        dir.display()
                    ),
                ))
            }
            Err(_) => continue,
        }
    }
    Ok(())
}

/// Refuse to write the file `path` (for the option `flag`) unless it is absent or `own`
/// recognises it, it is none of `inputs`, and it is not under a regular file.
pub fn check_file_out(path: &Path, flag: &str, own: &Own, inputs: &[PathBuf]) -> Result<(), Error> {
    check_ancestors(path, flag)?;
    let Ok(meta) = fs::symlink_metadata(path) else {
        return Ok(());
    };
    let canonical = fs::canonicalize(path).ok();
    if let Some(input) = inputs
        .iter()
        .find(|i| canonical.is_some() && fs::canonicalize(i).ok() == canonical)
    {
        return Err(refuse(
            path,
            flag,
            format!(
                "it is {}, an input of this command, and would be overwritten",
                input.display()
            ),
        ));
    }
    if meta.is_dir() {
        return Err(refuse(path, flag, "it is a directory".into()));
    }
    if !meta.is_file() {
        return Err(refuse(
            path,
            flag,
            "it is not a regular file (a link, a FIFO or a device)".into(),
        ));
    }
    if own.recognises(path) {
        return Ok(());
    }
    Err(refuse(
        path,
        flag,
        format!(
            "it exists and is not {}, so it may be yours; remove it yourself to replace it",
            own.what()
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_recognises_only_its_own_files() {
        let root = tempfile::tempdir().unwrap();
        let f = |name: &str, text: &str| {
            let p = root.path().join(name);
            fs::write(&p, text).unwrap();
            p
        };
        let record = f(
            "r.json",
            " {\n \"schema_version\": 1, \"files\": [\"d/x.parquet\"]}",
        );
        assert!(Own::Record.recognises(&record));
        assert!(!Own::Record.recognises(&f("n.json", "{\"rows\": 1}")));
        assert!(Own::Comparison.recognises(&f("c.json", "[\n  {\n    \"run\": \"a\"}]")));
        assert!(Own::Comparison.recognises(&f("e.json", "[]")));
        assert!(!Own::Comparison.recognises(&f("o.json", "[1, 2]")));
        let md = Own::Heading("# bayeslab comparison");
        assert!(md.recognises(&f("c.md", "# bayeslab comparison\n\nA = x")));
        assert!(!md.recognises(&f("m.md", "# my notes\n")));
        let listed = Own::ListedIn(record.clone());
        assert!(listed.recognises(&f("x.parquet", "PAR1")));
        assert!(!listed.recognises(&f("y.parquet", "PAR1")));
        assert!(
            !Own::ListedIn(root.path().join("n.json")).recognises(&root.path().join("x.parquet"))
        );
    }

    #[test]
    fn a_path_under_a_file_an_input_or_a_stranger_is_refused() {
        let root = tempfile::tempdir().unwrap();
        let file = root.path().join("plain.txt");
        fs::write(&file, "mine").unwrap();
        let under = file.join("sub").join("out.json");
        let e = check_file_out(&under, "--out", &Own::Record, &[])
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("plain.txt is a file, not a directory") && e.contains("--out"),
            "{e}"
        );
        let e = check_file_out(&file, "--out", &Own::Record, &[])
            .unwrap_err()
            .to_string();
        assert!(e.contains("may be yours"), "{e}");
        let e = check_file_out(&file, "--out", &Own::Record, std::slice::from_ref(&file))
            .unwrap_err()
            .to_string();
        assert!(e.contains("an input of this command"), "{e}");
        let e = check_file_out(root.path(), "--out", &Own::Record, &[])
            .unwrap_err()
            .to_string();
        assert!(e.contains("is a directory"), "{e}");
        assert!(check_file_out(&root.path().join("new.json"), "--out", &Own::Record, &[]).is_ok());
        assert!(check_ancestors(&root.path().join("a/b/c"), "--out").is_ok());
        assert_eq!(fs::read_to_string(&file).unwrap(), "mine");
    }
}
