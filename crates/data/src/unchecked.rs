//! The unsafe code of the data crate but one kind, behind safe functions: read-only file
//! mappings and the pages they hand back, glibc's allocator thresholds, the SIGBUS handler of
//! the mapped design cache, and bytes viewed as numbers. The one kind elsewhere is the design's
//! uninitialised columns, which several threads write through core's `SharedColumns` (the .npy
//! reader, the design fill and the Parquet decoder, each block under its own SAFETY note).

use std::fs::File;

use memmap2::Mmap;

/// `file` mapped read-only. Callers map files that nobody writes while they are mapped (the
/// run's own design cache; a data file hashed once); a file cut short meanwhile by another
/// program ends the process at the next read past its end (SIGBUS, [`exit_on_sigbus`]), as
/// any mapped read of it would (polars maps a Parquet file the same way).
pub(crate) fn map(file: &File) -> std::io::Result<Mmap> {
    // SAFETY: the mapping is only read, and its file is not written while mapped (above).
    unsafe { Mmap::map(file) }
}

/// Hand back the pages of `length` bytes at `start` of `map` that the caller is done with: the
/// next read of them maps them again from the page cache, with the same bytes.
#[cfg(unix)]
pub(crate) fn release_pages(map: &Mmap, start: usize, length: usize) {
    use memmap2::UncheckedAdvice;
    // SAFETY: a read-only mapping of a file: a page dropped is read again from the page cache
    // with the same bytes, so no reference into the mapping can see anything else.
    let _ = unsafe { map.unchecked_advise_range(UncheckedAdvice::DontNeed, start, length) };
}

/// glibc's thresholds: blocks up to `mmap` bytes from its heap rather than mapped afresh, and
/// up to `trim` bytes free at the heap's top kept.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub(crate) fn allocator_thresholds(mmap: i32, trim: i32) {
    // SAFETY: mallopt changes only the allocator's thresholds; any value is allowed.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, mmap);
        libc::mallopt(libc::M_TRIM_THRESHOLD, trim);
    }
}

/// Give the heap's free pages back to the system (glibc's malloc_trim).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub(crate) fn trim_heap() {
    extern "C" {
        fn malloc_trim(pad: usize) -> std::ffi::c_int;
    }
    // SAFETY: malloc_trim takes no pointer and only releases pages no allocation uses.
    unsafe {
        malloc_trim(0);
    }
}

/// The message the SIGBUS handler writes: fixed bytes, as only `write` may run in a handler.
#[cfg(target_os = "linux")]
const SIGBUS_MESSAGE: &[u8] = b"error: a file bayeslab had mapped (the design cache of a streamed run, in the run's scratch \
directory) was cut short while a pass read it, so the run stopped; nothing was written. Leave the run's \
files alone while it runs and run again, or set [data] cache = false to read the data file on every pass\n";

/// Install, once per process, a SIGBUS handler that writes what happened and ends the process
/// with exit code 2 (Linux; elsewhere a cut file still stops the pass at the length checks).
pub(crate) fn exit_on_sigbus() {
    #[cfg(target_os = "linux")]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            extern "C" {
                fn signal(signum: std::ffi::c_int, handler: usize) -> usize;
            }
            const SIGBUS: std::ffi::c_int = 7;
            // SAFETY: `on_sigbus` only calls the async-signal-safe write(2) and _exit(2).
            unsafe {
                signal(SIGBUS, on_sigbus as extern "C" fn(std::ffi::c_int) as usize);
            }
        });
    }
}

#[cfg(target_os = "linux")]
extern "C" fn on_sigbus(_: std::ffi::c_int) {
    extern "C" {
        fn write(fd: std::ffi::c_int, buf: *const u8, count: usize) -> isize;
        fn _exit(status: std::ffi::c_int) -> !;
    }
    // SAFETY: writing a static buffer to stderr and exiting: both async-signal-safe.
    unsafe {
        write(2, SIGBUS_MESSAGE.as_ptr(), SIGBUS_MESSAGE.len());
        _exit(2);
    }
}

/// `bytes` as the f64 values they hold in native order: the misaligned bytes before them, the
/// values, and the bytes after.
pub(crate) fn as_f64s(bytes: &[u8]) -> (&[u8], &[f64], &[u8]) {
    // SAFETY: every bit pattern is a valid f64; align_to puts misaligned bytes in the prefix.
    unsafe { bytes.align_to::<f64>() }
}

/// `bytes` as the usize values they hold in native order, as [`as_f64s`].
pub(crate) fn as_usizes(bytes: &[u8]) -> (&[u8], &[usize], &[u8]) {
    // SAFETY: every bit pattern is a valid usize; align_to puts misaligned bytes in the prefix.
    unsafe { bytes.align_to::<usize>() }
}
