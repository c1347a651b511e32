//! Reading a complete cache without copying it: the file is mapped read-only and the fit reads
//! each block's columns where they lie in the mapping, as a `MatRef`. A second thread walks the
//! blocks ahead of the fit, checking each one's shape and checksum (which touches its pages, so
//! the fit finds them mapped) and handing on only blocks that passed; blocks arrive in file
//! order whatever the threads' timing, so the sums a pass makes are the same, bit for bit.
//!
//! Measured on 1,000,000 x 50 (perf, 5 cached passes): reading each column into a byte buffer,
//! checksumming it and copying it into a chunk's matrix cost the reading thread about 0.08 s of
//! CPU a pass (a kernel copy from the page cache, the checksum, the copy into the matrix) beside
//! about 0.2 s of CPU for the fit's own Newton pass, on the same two cores; mapped, only the
//! checksum is left.
//!
//! Why mapping is safe here: the file lies in the run's own scratch directory, was written
//! whole under a temporary name and renamed into place before any pass maps it, and nothing
//! writes or truncates it afterwards (the run removes it at the end). Its checksums are still
//! verified on every pass before a block reaches the fit; they catch a file damaged on disk, not
//! a process that rewrites the mapped file between the check and the fit's read.
//!
//! Memory: a mapped page counts in the process's resident set once touched, although it is page
//! cache, so each block's pages are released (`MADV_DONTNEED`: the mapping forgets them and
//! the page cache keeps them) once the fit is done with it, by the checking thread before it
//! maps the next block. The block being checked, the one queued and the one in the fit are
//! resident (what `budget::cache_blocks_per_row` counts), and for a moment the one the fit just
//! finished.

use std::fs::File;
use std::path::Path;
use std::sync::mpsc::{channel, sync_channel, Receiver, Sender};
use std::time::Instant;

use memmap2::Mmap;
// Paging hints exist on Unix only (memmap2 has no `advise` elsewhere): on Windows the cache is
// read through the same mapping without them.
#[cfg(unix)]
use memmap2::Advice;

use super::format::{self, Footer, BLOCK_HEAD_BYTES, HEADER_BYTES};
use crate::stream::DesignRows;
use bayeslab_core::error::{Error, Result};

/// Blocks waiting in the channel beside the one being checked and the one being consumed (see
/// `budget::cache_blocks_per_row`).
pub(crate) const QUEUED_BLOCKS: usize = 1;

/// A checked block: where its values start in the file, its rows and all its bytes.
#[derive(Debug, Clone, Copy)]
struct Span {
    values: usize,
    rows: usize,
    start: usize,
    length: usize,
}

type Checked = std::result::Result<Span, String>;

/// What a pass over the cache cost beside the fit's own work.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Replay {
    /// Seconds `f` spent waiting for the checking thread.
    pub(crate) waited: f64,
    /// CPU seconds of the checking thread (Linux; 10 ms resolution), which shares the cores
    /// with the fit.
    pub(crate) checking_cpu: Option<f64>,
}

/// Hand every block of the cache at `path` (whose header and footer were checked) to `f`, in
/// order. A block whose checksum, shape or count disagrees with the footer stops the pass with
/// an error before it reaches `f`.
pub(super) fn replay(
    path: &Path,
    file: File,
    footer: Footer,
    columns: usize,
    max_rows: usize,
    f: &mut dyn FnMut(DesignRows<'_>) -> Result<()>,
) -> Result<Replay> {
    let corrupt = |what: String| {
        Error::data(
            path,
            format!(
                "the design cache of this run is damaged ({what}), so this pass stopped rather than read it; \
                 run again, or set [data] cache = false to read the data file on every pass"
            ),
        )
    };
    super::guard::install();
    // A complete file private to this run, never written again while mapped (the module's
    // comment).
    let map = crate::unchecked::map(&file).map_err(|e| corrupt(format!("cannot map it: {e}")))?;
    if map.len() as u64 != footer.bytes + format::FOOTER_BYTES {
        return Err(corrupt("its length changed after it was opened".into()));
    }
    // Read-ahead for a front-to-back walk; only a hint, so a refusal changes nothing.
    #[cfg(unix)]
    let _ = map.advise(Advice::Sequential);
    let bytes: &[u8] = &map;
    let map_ref = &map;
    let file_ref = &file;
    let (send, receive) = sync_channel::<Checked>(QUEUED_BLOCKS);
    // Blocks the fit is done with go back to the checking thread, which releases their pages.
    let (done, consumed) = channel::<Span>();
    std::thread::scope(|scope| {
        let checking = scope.spawn(move || {
            let start = thread_cpu_seconds();
            let populate = |at: usize, length: usize| {
                // A file cut short is refused before its pages are touched.
                super::guard::holds(file_ref, at + length) && {
                    populate(map_ref, at, length);
                    true
                }
            };
            let outcome = check_blocks(bytes, footer, columns, max_rows, &populate, &mut |span| {
                consumed.try_iter().for_each(|done| release(map_ref, done));
                send.send(Ok(span)).is_ok()
            });
            if let Err(what) = outcome {
                let _ = send.send(Err(what));
            }
            drop(send);
            // Until the fit returns and drops its end.
            consumed.iter().for_each(|done| release(map_ref, done));
            Some(thread_cpu_seconds()? - start?)
        });
        let waited = consume(&map, &file, receive, done, columns, f, &corrupt)?;
        let checking_cpu = checking.join().ok().flatten();
        Ok(Replay {
            waited,
            checking_cpu,
        })
    })
}

/// The calling thread's CPU seconds (user and system) from /proc/thread-self/stat, in the
/// kernel's fixed 100 ticks a second; `None` where there is no such file (not Linux).
#[cfg(not(target_os = "linux"))]
fn thread_cpu_seconds() -> Option<f64> {
    None
}

/// The calling thread's CPU seconds (user and system) from /proc/thread-self/stat, in the
/// kernel's fixed 100 ticks a second; `None` where the file cannot be read.
#[cfg(target_os = "linux")]
fn thread_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // Fields after the command name (which may hold spaces) in parentheses: the state is the
    // third field of the line, utime the 14th and stime the 15th.
    let rest = &stat[stat.rfind(')')? + 1..];
    let mut fields = rest.split_whitespace().skip(11);
    let user: u64 = fields.next()?.parse().ok()?;
    let system: u64 = fields.next()?.parse().ok()?;
    Some((user + system) as f64 / 100.0)
}

/// Release the pages of a block the fit is done with. `MADV_DONTNEED` unmaps them (with a TLB
/// flush on every core the process runs on): done on the checking thread rather than between
/// the fit's blocks, where both fit threads would wait for it. Unix only: elsewhere the pages
/// stay mapped until the pass ends and drops the mapping.
#[cfg(not(unix))]
fn release(map: &Mmap, span: Span) {
    let _ = (map, span);
}

/// Release the pages of a block the fit is done with (see the Unix version above).
#[cfg(unix)]
fn release(map: &Mmap, span: Span) {
    // The fit sent `span` back after its last reference into the block ended.
    crate::unchecked::release_pages(map, span.start, span.length);
}

fn consume(
    map: &Mmap,
    file: &File,
    receive: Receiver<Checked>,
    done: Sender<Span>,
    columns: usize,
    f: &mut dyn FnMut(DesignRows<'_>) -> Result<()>,
    corrupt: &dyn Fn(String) -> Error,
) -> Result<f64> {
    let mut waited = 0.0;
    loop {
        let t = Instant::now();
        let Ok(next) = receive.recv() else {
            return Ok(waited);
        };
        waited += t.elapsed().as_secs_f64();
        // Returning drops the receiver, which stops the checking thread at its next block.
        let span = next.map_err(corrupt)?;
        if !super::guard::holds(file, span.start + span.length) {
            return Err(corrupt("the file was cut short while in use".into()));
        }
        let rows = format::block_rows(&map[span.values..], span.rows, columns).map_err(corrupt)?;
        f(rows)?;
        // No reference into this block outlives `f`.
        let _ = done.send(span);
    }
}

/// Map a block's pages in one call before it is checked (`MADV_POPULATE_READ`, Linux 5.14 on)
/// rather than a page fault every 16 pages as the checksum reaches them: the faults took about
/// a third of the checking thread's CPU. Only a hint: where it is refused, the reads fault.
fn populate(map: &Mmap, at: usize, length: usize) {
    #[cfg(target_os = "linux")]
    let _ = map.advise_range(Advice::PopulateRead, at, length);
    #[cfg(not(target_os = "linux"))]
    let _ = (map, at, length);
}

/// Check every block of the mapped cache `bytes` in order (`populate` maps a block's pages
/// first, and says false when the file no longer holds them: nothing past its end is read),
/// handing each one that passed to `send` until it returns false (the consumer stopped).
fn check_blocks(
    bytes: &[u8],
    footer: Footer,
    columns: usize,
    max_rows: usize,
    populate: &dyn Fn(usize, usize) -> bool,
    send: &mut dyn FnMut(Span) -> bool,
) -> std::result::Result<(), String> {
    let (mut rows, mut at) = (0u64, HEADER_BYTES as usize);
    let mut sums = format::Checksum::new();
    for block in 0..footer.blocks {
        if !populate(at, BLOCK_HEAD_BYTES) {
            return Err(format!(
                "the file was cut short at block {block} while in use"
            ));
        }
        let head = bytes
            .get(at..at + BLOCK_HEAD_BYTES)
            .ok_or_else(|| format!("block {block} lies past its end"))?;
        let (r, c) = format::block_head(head);
        if c != columns as u64 || r == 0 || r > max_rows as u64 {
            return Err(format!(
                "block {block} says {r} rows of {c} columns, expected up to {max_rows} rows of {columns}"
            ));
        }
        let length = BLOCK_HEAD_BYTES + format::block_body_bytes(r as usize, columns);
        if (at + length) as u64 <= footer.bytes && !populate(at, length) {
            return Err(format!(
                "the file was cut short at block {block} while in use"
            ));
        }
        let whole = bytes
            .get(at..at + length)
            .filter(|_| (at + length) as u64 <= footer.bytes)
            .ok_or_else(|| format!("block {block} lies past its end"))?;
        let checksum = format::checked_block(whole).map_err(|e| format!("block {block}: {e}"))?;
        sums.update(&checksum.to_le_bytes());
        rows += r;
        let span = Span {
            values: at + BLOCK_HEAD_BYTES,
            rows: r as usize,
            start: at,
            length,
        };
        at += length;
        // The totals are checked before the last block is handed on, so that a pass never
        // consumes the whole of a file that does not add up.
        let last = block + 1 == footer.blocks;
        if last
            && (rows != footer.rows
                || at as u64 != footer.bytes
                || sums.clone().finish() != footer.checksum)
        {
            return Err("its blocks do not add up to its footer".into());
        }
        if !send(span) {
            return Ok(());
        }
    }
    Ok(())
}
