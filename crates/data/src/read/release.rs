//! Freed memory handed back to the system: each chunk's frame and table once the in-memory read
//! has gathered its columns, and each raw column once the design holds it. glibc's allocator
//! keeps freed blocks of its heap resident (only the top of the heap and separately mapped blocks
//! go back by themselves), so without this every chunk read and every raw column copied would
//! still count in the peak. `malloc_trim(0)` returns the free pages of every arena (glibc >=
//! 2.8); it runs once per [`TRIM_BYTES`] released, so its cost (a walk over the free lists) stays
//! small beside the reading and copying.

use std::sync::{Arc, Mutex};

/// Bytes released between two trims.
const TRIM_BYTES: usize = 32 << 20;

#[derive(Default)]
pub(crate) struct Release {
    pending: usize,
}

impl Release {
    /// Count `bytes` just freed; trim when enough have gathered.
    pub(crate) fn freed(&mut self, bytes: usize) {
        self.pending += bytes;
        if self.pending >= TRIM_BYTES {
            trim();
            self.pending = 0;
        }
    }
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
use crate::unchecked::trim_heap as trim;

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn trim() {}

/// Buffers handed back once read and taken again for the next chunk of the same read: a fresh
/// buffer costs the kernel a page fault and a zeroed page for every 4 KiB of it (issue 32: a
/// chunk's text was a third of a CSV read's time; each chunk's columns, a tenth of a Parquet
/// read's). At most the chunks in flight hold them; they are dropped with the read.
pub(crate) struct Recycled<T>(Arc<Mutex<Vec<Vec<T>>>>);

impl<T> Default for Recycled<T> {
    fn default() -> Self {
        Recycled(Arc::default())
    }
}

impl<T> Clone for Recycled<T> {
    fn clone(&self) -> Self {
        Recycled(Arc::clone(&self.0))
    }
}

impl<T> Recycled<T> {
    /// An empty buffer: one handed back, or a new one.
    pub(crate) fn take(&self) -> Vec<T> {
        self.0
            .lock()
            .ok()
            .and_then(|mut b| b.pop())
            .unwrap_or_default()
    }

    /// Hand `buffer` back, emptied, for a later [`Self::take`].
    pub(crate) fn give(&self, mut buffer: Vec<T>) {
        buffer.clear();
        if let Ok(mut b) = self.0.lock() {
            b.push(buffer);
        }
    }
}

/// `f` run with glibc keeping freed memory for the next allocation: blocks up to 32 MiB taken
/// from its heap rather than mapped afresh, and up to 128 MiB free at the heap's top kept. A
/// decoder that allocates a buffer per page (the `parquet` crate's) otherwise faults in fresh,
/// zeroed pages for every page it decodes (issue 32: 0.80–1.12 s against 0.40–0.42 s for a
/// 400 MB file). glibc's defaults (128 KiB for both) are put back after, and the heap trimmed,
/// so the peak of what follows is as before; its thresholds no longer move with what is freed.
pub(crate) fn keeping_freed_pages<T>(f: impl FnOnce() -> T) -> T {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    crate::unchecked::allocator_thresholds(32 << 20, 128 << 20);
    let out = f();
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    crate::unchecked::allocator_thresholds(128 << 10, 128 << 10);
    trim();
    out
}
