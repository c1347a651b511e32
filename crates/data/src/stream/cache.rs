//! The design cache of a streamed run (`[data] cache`, on by default): the first pass over the
//! training rows writes each chunk's design rows (after split, encoding, standardisation,
//! feature map and intercept, with labels and data rows) to a binary file; every later pass
//! maps that file and lends the fit its blocks where they lie, checked on a second thread ahead
//! of the fit (see `reader`), and decodes nothing, as Vowpal
//! Wabbit's `--cache` and XGBoost's external-memory pages do. The blocks are the first pass's
//! chunks, so every sum a pass makes is the same, bit for bit.
//!
//! A cache is trusted only when complete and made from the same rows: it is written under a
//! temporary name and renamed once its footer (counts and a checksum, written last) is on
//! disk; its header holds SHA-256 of the design settings and of the data file's identity
//! (path, length, modification time, device and inode, first and last 64 KiB), recomputed
//! before every pass. Any mismatch, a short or damaged file, and the cache is rebuilt by the
//! next pass, never read.
//! The file lives in a directory the runner owns and is removed when the data are dropped (the
//! end of the run, an error, a cancel).

mod checksum;
mod format;
mod guard;
mod reader;
#[cfg(test)]
mod tests;
mod writer;

use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use sha2::{Digest, Sha256};

use self::format::{Footer, Key, FOOTER_BYTES, HEADER_BYTES};
use super::DesignRows;
use bayeslab_core::error::Result;

pub(crate) use format::NATIVE;
pub(crate) use reader::Replay;
pub(crate) use reader::QUEUED_BLOCKS;
pub(crate) use writer::Writer;

/// The cache of one part's design rows, in a file removed when this is dropped.
#[derive(Debug)]
pub(super) struct PassCache {
    path: PathBuf,
    data_file: PathBuf,
    settings: [u8; 32],
    /// Set when a write failed (a full disk): later passes read the data file.
    off: AtomicBool,
}

impl PassCache {
    /// A cache at `path` of the rows of `data_file` made with `settings` (everything that
    /// shapes the design rows, in any stable text form).
    pub(super) fn new(path: PathBuf, data_file: &Path, settings: &str) -> PassCache {
        PassCache {
            path,
            data_file: data_file.to_path_buf(),
            settings: Sha256::digest(settings.as_bytes()).into(),
            off: AtomicBool::new(false),
        }
    }

    pub(super) fn path(&self) -> &Path {
        &self.path
    }

    /// The key a trusted cache must carry now, or `None` when the data file cannot be read
    /// (the pass over it will say why).
    fn key(&self) -> Option<Key> {
        Some(Key {
            settings: self.settings,
            data: data_identity(&self.data_file).ok()?,
        })
    }

    /// Replay the cache into `f` when a complete one of these rows exists; `Ok(None)` when
    /// there is none to trust (the caller reads the data file and may [`Self::writer`] one).
    /// Returns the chunks of the pass that made it and what the replay cost beside `f`.
    pub(super) fn replay(
        &self,
        columns: usize,
        max_rows: usize,
        f: &mut dyn FnMut(DesignRows<'_>) -> Result<()>,
    ) -> Result<Option<(usize, Replay)>> {
        let Some((file, footer)) = self.key().and_then(|key| open_trusted(&self.path, &key)) else {
            return Ok(None);
        };
        let replay = reader::replay(&self.path, file, footer, columns, max_rows, f)?;
        Ok(Some((footer.chunks as usize, replay)))
    }

    /// A writer for a new cache, replacing any old file; `None` when writes failed before, or
    /// the file cannot be created.
    pub(super) fn writer(&self) -> Option<Writer<'_>> {
        let _ = std::fs::remove_file(&self.path);
        if self.off.load(Ordering::Relaxed) {
            return None;
        }
        let key = self.key()?;
        let partial = partial(&self.path);
        let file = File::create(&partial).ok()?;
        // Each column of a block arrives as one write of a chunk's rows x 8 bytes, which passes a
        // small buffer by; the buffer (counted in the budget) only gathers the heads.
        let mut out = BufWriter::with_capacity(1 << 16, file);
        let header = format::header(&key);
        if out.write_all(&header).is_err() {
            let _ = std::fs::remove_file(&partial);
            return None;
        }
        Some(Writer::new(self, out, header.len() as u64))
    }
}

impl Drop for PassCache {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
        let _ = std::fs::remove_file(partial(&self.path));
    }
}

/// The name a cache is written under until it is complete.
fn partial(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".partial");
    PathBuf::from(name)
}

/// The cache at `path` opened after its header and footer, when it is complete and carries
/// `key`: the file's length must be exactly the footer's offset plus the footer.
fn open_trusted(path: &Path, key: &Key) -> Option<(File, Footer)> {
    let mut file = File::open(path).ok()?;
    let length = file.metadata().ok()?.len();
    if length < HEADER_BYTES + FOOTER_BYTES {
        return None;
    }
    let mut header = vec![0u8; HEADER_BYTES as usize];
    file.read_exact(&mut header).ok()?;
    if !format::header_matches(&header, key) {
        return None;
    }
    let mut end = vec![0u8; FOOTER_BYTES as usize];
    file.seek(SeekFrom::Start(length - FOOTER_BYTES)).ok()?;
    file.read_exact(&mut end).ok()?;
    let footer = Footer::parse(&end).filter(|f| f.bytes + FOOTER_BYTES == length)?;
    file.seek(SeekFrom::Start(0)).ok()?;
    Some((file, footer))
}

/// SHA-256 of what identifies the data file's contents without reading all of it: its path,
/// length, modification time, device and inode (on Unix) and its first and last 64 KiB (a
/// CSV's header and first rows, a Parquet file's metadata at its end). A file rewritten in
/// place changes its modification time; the bytes catch a copy that kept it. Small, because it is hashed before every pass:
/// with a MiB at each end it cost about 5 ms, a sixth of a cached pass over 200,000 x 20.
fn data_identity(path: &Path) -> std::io::Result<[u8; 32]> {
    const EDGE: u64 = 1 << 16;
    let mut file = File::open(path)?;
    let meta = file.metadata()?;
    let mut hash = Sha256::new();
    hash.update(std::fs::canonicalize(path)?.as_os_str().as_encoded_bytes());
    hash.update(meta.len().to_le_bytes());
    // A file replaced by a rename has a new inode even when its bytes and time are the old
    // ones (`cp -p`, rsync, or a copy made within one tick of a coarse file-system clock).
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        hash.update(meta.dev().to_le_bytes());
        hash.update(meta.ino().to_le_bytes());
    }
    let modified = meta
        .modified()?
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    hash.update(modified.to_le_bytes());
    let mut edge = Vec::new();
    (&mut file).take(EDGE).read_to_end(&mut edge)?;
    file.seek(SeekFrom::Start(meta.len().saturating_sub(EDGE)))?;
    file.take(EDGE).read_to_end(&mut edge)?;
    hash.update(&edge);
    Ok(hash.finalize().into())
}
