//! The hidden siblings of an output path, `.<name>.<tag>-<pid>-<n>`: `tmp` (the directory or
//! file being written), `old` (the previous directory, moved aside for the swap) and
//! `scratch` (files a run writes before its output, e.g. a streamed predictions.csv). Each
//! carries the id of the process that made it, so a later run can tell a sibling left by a
//! killed process (removed) from one still being written (kept).

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::Error;

const TAGS: [&str; 3] = ["tmp", "old", "scratch"];

/// A fresh hidden sibling of `path` tagged `tag`: unique within this process (a counter) and
/// across processes (the pid).
pub(super) fn sibling(path: &Path, tag: &str) -> PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    debug_assert!(TAGS.contains(&tag));
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("run");
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    path.with_file_name(format!(
        ".{name}.{tag}-{}-{nanos}{n:04}",
        std::process::id()
    ))
}

/// The pid in `entry` when it is a sibling of the path named `name`.
fn owner(entry: &str, name: &str) -> Option<u32> {
    let rest = entry
        .strip_prefix('.')?
        .strip_prefix(name)?
        .strip_prefix('.')?;
    let (tag, rest) = rest.split_once('-')?;
    let (pid, n) = rest.split_once('-')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (TAGS.contains(&tag) && digits(pid) && digits(n))
        .then(|| pid.parse().ok())
        .flatten()
}

/// Whether process `pid` may still be running: on Linux, whether /proc has it (without a
/// mounted /proc nobody can tell, and every process counts as alive, so nothing is removed).
#[cfg(target_os = "linux")]
fn alive(pid: u32) -> bool {
    pid == std::process::id()
        || !Path::new("/proc/self").exists()
        || Path::new("/proc").join(pid.to_string()).exists()
}

/// Whether process `pid` may still be running: on other Unix systems (macOS, the BSDs), whether
/// `kill(pid, 0)` finds it (EPERM: it exists but belongs to another user).
#[cfg(all(unix, not(target_os = "linux")))]
fn alive(pid: u32) -> bool {
    let Ok(id) = libc::pid_t::try_from(pid) else {
        return true;
    };
    pid == std::process::id() || crate::unchecked::process_exists(id)
}

/// Whether process `pid` may still be running: elsewhere (Windows) nobody can tell here, and
/// every process counts as alive, so stale siblings are left rather than risk a live run's.
#[cfg(not(unix))]
fn alive(_pid: u32) -> bool {
    true
}

/// Remove the siblings of `path` left by processes that are no longer running (a run killed
/// while writing). Best effort: a sibling that cannot be removed is left.
pub(super) fn remove_stale(path: &Path) {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return;
    };
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let Ok(entries) = fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(pid) = file_name.to_str().and_then(|e| owner(e, name)) else {
            continue;
        };
        if alive(pid) {
            continue;
        }
        let p = entry.path();
        let _ = match fs::symlink_metadata(&p) {
            Ok(m) if m.is_dir() => fs::remove_dir_all(&p),
            _ => fs::remove_file(&p),
        };
    }
}

/// An exclusive lock on the folder holding `path`, released when dropped: the check of what
/// `path` is and the renames that replace it happen under it, so that two runs writing the
/// same output take turns instead of seeing each other's half-done swap.
pub(super) fn lock_parent(path: &Path) -> Result<fs::File, Error> {
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let err = |source| Error::Output {
        path: parent.to_path_buf(),
        source,
    };
    let f = lock_file(parent).map_err(err)?;
    f.lock().map_err(err)?;
    Ok(f)
}

/// The file whose lock stands for the folder `parent`: the folder itself on Unix.
#[cfg(unix)]
fn lock_file(parent: &Path) -> std::io::Result<fs::File> {
    fs::File::open(parent)
}

/// The file whose lock stands for the folder `parent`: Windows does not open a folder as a
/// file, so a hidden `.bayeslab-lock` file in it (created once, left in place, never holding
/// anything).
#[cfg(not(unix))]
fn lock_file(parent: &Path) -> std::io::Result<fs::File> {
    fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(parent.join(".bayeslab-lock"))
}

/// A hidden directory beside the output `out` for files a run writes before its output
/// exists (a streamed predictions.csv): on the same file system, so they can be linked into
/// the output instead of copied, and found and removed by [`remove_stale`] when the run is
/// killed. Removed with its contents when dropped.
#[derive(Debug)]
pub struct Scratch(PathBuf);

impl Scratch {
    pub fn beside(out: &Path) -> Result<Scratch, Error> {
        if let Some(parent) = out.parent().filter(|p| !p.as_os_str().is_empty()) {
            fs::create_dir_all(parent).map_err(|source| Error::Output {
                path: parent.to_path_buf(),
                source,
            })?;
        }
        remove_stale(out);
        let dir = sibling(out, "scratch");
        fs::create_dir(&dir).map_err(|source| Error::Output {
            path: dir.clone(),
            source,
        })?;
        Ok(Scratch(dir))
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

#[cfg(test)]
#[path = "siblings_tests.rs"]
mod tests;
