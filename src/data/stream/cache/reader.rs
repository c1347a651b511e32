//! Reading a complete cache on a second thread: the reader fills the next block while the
//! fit consumes the current one, through a channel that holds one block. Blocks arrive in
//! file order whatever the threads' timing, so the sums a pass makes are the same.
//!
//! The blocks circulate: the fit hands each one back when done and the reader refills it, so a
//! pass allocates at most three, all of one size (a chunk's rows). Allocating a fresh matrix
//! per block on the reader and freeing it on the fit's thread made glibc's heap grow to about
//! four times the blocks in flight (1,000,000 x 50: 470 MiB peak against 121 MiB decoding the
//! file), since blocks of slightly different row counts never fit each other's freed space.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::time::Instant;

use faer::Mat;

use super::format::{self, Footer, BLOCK_HEAD_BYTES, HEADER_BYTES};
use crate::data::stream::DesignChunk;
use crate::error::{Error, Result};

/// Blocks waiting in the channel beside the one being filled and the one being consumed (see
/// `budget::cached_pass_per_row`).
pub(crate) const QUEUED_BLOCKS: usize = 1;

type Block = std::result::Result<DesignChunk, String>;

/// Hand every block of the cache at `path` (whose header and footer were checked) to `f`, in
/// order. Returns the seconds `f` spent waiting for the reader. A block whose checksum, shape
/// or count disagrees with the footer stops the pass with an error before it reaches `f`.
pub(super) fn replay(
    path: &Path,
    file: File,
    footer: Footer,
    columns: usize,
    max_rows: usize,
    f: &mut dyn FnMut(&DesignChunk) -> Result<()>,
) -> Result<f64> {
    let corrupt = |what: String| {
        Error::data(
            path,
            format!(
                "the design cache of this run is damaged ({what}), so this pass stopped rather than read it; \
                 run again, or set [data] cache = false to read the data file on every pass"
            ),
        )
    };
    let (send, receive) = sync_channel::<Block>(QUEUED_BLOCKS);
    let (give_back, returned) = sync_channel::<DesignChunk>(QUEUED_BLOCKS + 2);
    // No block holds more rows than a chunk, nor than the whole cache.
    let capacity = max_rows.min(footer.rows as usize).max(1);
    std::thread::scope(|scope| {
        scope.spawn(move || {
            let mut next = || {
                returned.try_recv().unwrap_or_else(|_| DesignChunk {
                    x: Mat::with_capacity(capacity, columns),
                    y: Vec::with_capacity(capacity),
                    source_rows: Vec::with_capacity(capacity),
                })
            };
            let outcome = read_blocks(file, footer, columns, capacity, &mut next, &mut |chunk| {
                send.send(Ok(chunk)).is_ok()
            });
            if let Err(what) = outcome {
                let _ = send.send(Err(what));
            }
        });
        consume(receive, give_back, f, &corrupt)
    })
}

fn consume(
    receive: Receiver<Block>,
    give_back: SyncSender<DesignChunk>,
    f: &mut dyn FnMut(&DesignChunk) -> Result<()>,
    corrupt: &dyn Fn(String) -> Error,
) -> Result<f64> {
    let mut waited = 0.0;
    loop {
        let t = Instant::now();
        let Ok(next) = receive.recv() else {
            return Ok(waited);
        };
        waited += t.elapsed().as_secs_f64();
        // Returning drops the receiver, which stops the reader at its next block.
        let chunk = next.map_err(corrupt)?;
        f(&chunk)?;
        let _ = give_back.try_send(chunk);
    }
}

/// Read and check every block into chunks from `next` (a returned one, or a new one), handing
/// each to `send` until it returns false (the consumer stopped).
fn read_blocks(
    file: File,
    footer: Footer,
    columns: usize,
    max_rows: usize,
    next: &mut dyn FnMut() -> DesignChunk,
    send: &mut dyn FnMut(DesignChunk) -> bool,
) -> std::result::Result<(), String> {
    // Large sequential reads: each column of a block is one read_exact (a chunk's rows x 8
    // bytes), passing the small buffer by.
    let mut input = BufReader::with_capacity(1 << 16, file);
    let io = |e: std::io::Error| format!("cannot read it: {e}");
    let mut skip = [0u8; HEADER_BYTES as usize];
    input.read_exact(&mut skip).map_err(io)?;
    let (mut rows, mut at) = (0u64, HEADER_BYTES);
    let mut sums = format::Checksum::new();
    let mut head = [0u8; BLOCK_HEAD_BYTES];
    let mut column = Vec::new();
    for block in 0..footer.blocks {
        input.read_exact(&mut head).map_err(io)?;
        let (r, c) = format::block_head(&head);
        if c != columns as u64 || r == 0 || r > max_rows as u64 {
            return Err(format!(
                "block {block} says {r} rows of {c} columns, expected up to {max_rows} rows of {columns}"
            ));
        }
        let mut chunk = next();
        let checksum = format::read_block(&mut input, &head, &mut chunk, &mut column)
            .map_err(|e| format!("block {block}: {e}"))?;
        sums.update(&checksum.to_le_bytes());
        rows += r;
        at += (BLOCK_HEAD_BYTES + format::block_body_bytes(r as usize, columns)) as u64;
        // The totals are checked before the last block is handed on, so that a pass never
        // consumes the whole of a file that does not add up.
        let last = block + 1 == footer.blocks;
        if last
            && (rows != footer.rows
                || at != footer.bytes
                || sums.clone().finish() != footer.checksum)
        {
            return Err("its blocks do not add up to its footer".into());
        }
        if !send(chunk) {
            return Ok(());
        }
    }
    Ok(())
}
