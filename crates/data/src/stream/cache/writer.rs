//! Writing a design cache during the first pass: blocks appended as the chunks go by, the footer
//! last, then the rename that makes it a cache a later pass may read.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::sync::atomic::Ordering;

use super::format::{self, Footer};
use super::{partial, PassCache};
use crate::stream::DesignChunk;

/// A cache being written by the first pass. Dropped before [`Writer::finish`] (a pass that
/// failed or was cancelled), it removes its partial file.
pub(crate) struct Writer<'a> {
    cache: &'a PassCache,
    out: Option<BufWriter<File>>,
    footer: Footer,
    sums: format::Checksum,
    column: Vec<u8>,
}

impl<'a> Writer<'a> {
    /// A writer of `cache` into `out`, which holds the `header` bytes already.
    pub(super) fn new(cache: &'a PassCache, out: BufWriter<File>, header: u64) -> Writer<'a> {
        Writer {
            cache,
            out: Some(out),
            footer: Footer {
                bytes: header,
                ..Footer::default()
            },
            sums: format::Checksum::new(),
            column: Vec::new(),
        }
    }

    /// Append one chunk; on a write error the cache is abandoned (and no later pass tries again).
    pub(crate) fn block(&mut self, chunk: &DesignChunk) {
        let Some(out) = self.out.as_mut() else {
            return;
        };
        match format::write_block(chunk, &mut self.column, out) {
            Ok(checksum) => {
                self.sums.update(&checksum.to_le_bytes());
                self.footer.blocks += 1;
                self.footer.rows += chunk.y.len() as u64;
                self.footer.bytes += (format::BLOCK_HEAD_BYTES
                    + format::block_body_bytes(chunk.y.len(), chunk.x.ncols()))
                    as u64;
            }
            Err(_) => self.abandon(),
        }
    }

    /// Write the footer after every block of a pass of `chunks` file chunks and rename the
    /// file into place: only now can a pass read it.
    pub(crate) fn finish(mut self, chunks: usize) {
        let Some(mut out) = self.out.take() else {
            return;
        };
        self.footer.chunks = chunks as u64;
        self.footer.checksum = std::mem::replace(&mut self.sums, format::Checksum::new()).finish();
        let partial = partial(&self.cache.path);
        let done = out
            .write_all(&self.footer.to_bytes())
            .and_then(|()| out.flush())
            .and_then(|()| std::fs::rename(&partial, &self.cache.path));
        if done.is_err() {
            self.abandon();
        }
    }

    fn abandon(&mut self) {
        self.out = None;
        self.cache.off.store(true, Ordering::Relaxed);
        let _ = std::fs::remove_file(partial(&self.cache.path));
    }
}

impl Drop for Writer<'_> {
    fn drop(&mut self) {
        if self.out.take().is_some() {
            let _ = std::fs::remove_file(partial(&self.cache.path));
        }
    }
}
