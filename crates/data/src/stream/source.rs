//! A streamed data file held to what its statistics pass read: every later pass over it first
//! checks that it is the same file (length, modification time and, on Unix, device and inode)
//! and, once read, that it gave the rows the statistics pass counted and the values the first
//! pass over the same rows read (a fingerprint of every value, so an edit in place that kept
//! the length and the time is caught too). A file appended to or replaced during a run is
//! refused with the file named, instead of a fit, a record and predictions that each saw
//! different rows.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::SystemTime;

use bayeslab_core::error::{Error, Result};

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
    /// The fingerprint of the first pass over the training rows, and over the test rows.
    content: [OnceLock<u64>; 2],
}

impl Source {
    /// Stamp `path` before its statistics pass.
    pub(super) fn before_pass(path: &Path) -> Result<Source> {
        Ok(Source {
            path: path.to_path_buf(),
            stamp: Stamp::of(path)?,
            rows: None,
            content: Default::default(),
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

    /// Refuse a pass over the test rows (`test`) or the training rows whose values' fingerprint
    /// differs from the first such pass's.
    pub(super) fn check_content(&self, test: bool, fingerprint: u64, when: &str) -> Result<()> {
        let first = *self.content[usize::from(test)].get_or_init(|| fingerprint);
        if first == fingerprint {
            return Ok(());
        }
        Err(changed(
            &self.path,
            when,
            "its values differ from those an earlier pass read",
        ))
    }
}

/// A running fingerprint of the values a pass reads, in order (FxHash's multiply-rotate step
/// over each value's bits): any changed, added, removed or reordered value changes it but for
/// a chance of 2^-64, which is all a check of a file that should not change needs.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Fingerprint(pub(super) u64);

impl Fingerprint {
    pub(super) fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    /// Every value of a chunk: each column's values, the classes and the data rows.
    pub(super) fn chunk(&mut self, cols: &[Vec<f64>], y: &[f64], rows: &[usize]) {
        for v in cols.iter().flatten().chain(y) {
            self.add(v.to_bits());
        }
        for &r in rows {
            self.add(r as u64);
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
    use super::{Fingerprint, Source};

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

    #[test]
    fn a_pass_that_reads_other_values_than_the_first_pass_over_the_same_rows_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("d.csv");
        std::fs::write(&path, "a,y\n1,0\n").unwrap();
        let s = Source::before_pass(&path).unwrap();
        let print = |cols: &[Vec<f64>]| {
            let mut f = Fingerprint::default();
            f.chunk(cols, &[0.0, 1.0], &[0, 1]);
            f.0
        };
        let (a, b) = (print(&[vec![1.0, 2.0]]), print(&[vec![1.0, 2.5]]));
        assert_ne!(a, b);
        // Swapping two values changes the fingerprint too: it follows the order.
        assert_ne!(a, print(&[vec![2.0, 1.0]]));
        s.check_content(false, a, "pass 1").unwrap();
        s.check_content(false, a, "pass 2").unwrap();
        // The test rows keep a fingerprint of their own.
        s.check_content(true, b, "pass 2").unwrap();
        let e = s.check_content(false, b, "pass 3").unwrap_err().to_string();
        assert!(e.contains("values differ") && e.contains("pass 3"), "{e}");
    }
}
