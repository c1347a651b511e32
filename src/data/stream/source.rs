//! A streamed data file held to what its statistics pass read: every later pass over it first
//! checks that it is the same file (length, modification time and, on Unix, device and inode)
//! and, once read, that it gave the rows the statistics pass counted. A file appended to or
//! replaced during a run is refused with the file named, instead of a fit, a record and
//! predictions that each saw different rows.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::error::{Error, Result};

/// What identifies a file's contents without reading them.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Stamp {
    len: u64,
    modified: Option<SystemTime>,
    /// (device, inode) on Unix: a file replaced by a rename has a new inode.
    node: Option<(u64, u64)>,
}

impl Stamp {
    fn of(path: &Path) -> Result<Stamp> {
        let meta = std::fs::metadata(path)
            .map_err(|e| Error::data(path, format!("cannot read the file's details: {e}")))?;
        #[cfg(unix)]
        let node = {
            use std::os::unix::fs::MetadataExt;
            Some((meta.dev(), meta.ino()))
        };
        #[cfg(not(unix))]
        let node = None;
        Ok(Stamp {
            len: meta.len(),
            modified: meta.modified().ok(),
            node,
        })
    }

    /// What differs from `before`, in words.
    fn change(&self, before: &Stamp) -> Option<String> {
        if self.node != before.node {
            Some("it was replaced by another file".into())
        } else if self.len != before.len {
            Some(format!(
                "its length went from {} to {} bytes",
                before.len, self.len
            ))
        } else if self.modified != before.modified {
            Some("it was modified".into())
        } else {
            None
        }
    }
}

/// One streamed file: its stamp when the statistics pass began and the rows it read.
#[derive(Debug, Clone)]
pub(super) struct Source {
    path: PathBuf,
    stamp: Stamp,
    pub(super) rows: Option<usize>,
}

impl Source {
    /// Stamp `path` before its statistics pass.
    pub(super) fn before_pass(path: &Path) -> Result<Source> {
        Ok(Source {
            path: path.to_path_buf(),
            stamp: Stamp::of(path)?,
            rows: None,
        })
    }

    /// Refuse the file when it is no longer what the statistics pass read (`when`: which pass).
    pub(super) fn check(&self, when: &str) -> Result<()> {
        match Stamp::of(&self.path)?.change(&self.stamp) {
            None => Ok(()),
            Some(change) => Err(changed(&self.path, when, &change)),
        }
    }

    /// Refuse a pass that read `rows` rows where the statistics pass read another number.
    pub(super) fn check_rows(&self, rows: usize, when: &str) -> Result<()> {
        match self.rows {
            Some(r) if r != rows => Err(changed(
                &self.path,
                when,
                &format!("it had {r} data rows and now has {rows}"),
            )),
            _ => Ok(()),
        }
    }
}

fn changed(path: &Path, when: &str, change: &str) -> Error {
    Error::data(
        path,
        format!(
            "the data file changed during the run ({when}): {change}. A streamed run reads the file once per pass, \
             so every pass must see the same rows; let whatever writes the file finish (or copy it first), then run again"
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::Source;

    #[test]
    fn an_appended_or_replaced_file_is_refused_and_an_untouched_one_passes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.csv");
        std::fs::write(&path, "a,y\n1,0\n").unwrap();
        let mut s = Source::before_pass(&path).unwrap();
        s.rows = Some(1);
        s.check("pass 2").unwrap();
        s.check_rows(1, "pass 2").unwrap();
        let e = s.check_rows(2, "pass 2").unwrap_err().to_string();
        assert!(e.contains("had 1 data rows and now has 2"), "{e}");
        std::fs::write(&path, "a,y\n1,0\n2,1\n").unwrap();
        let e = s.check("pass 2").unwrap_err().to_string();
        assert!(
            e.contains("changed during the run") && e.contains("length"),
            "{e}"
        );
        let other = dir.path().join("e.csv");
        std::fs::write(&other, "a,y\n1,0\n").unwrap();
        let s = Source::before_pass(&path).unwrap();
        std::fs::rename(&other, &path).unwrap();
        let e = s.check("pass 3").unwrap_err().to_string();
        assert!(e.contains("replaced"), "{e}");
    }
}
