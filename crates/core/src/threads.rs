//! For the tests (of this crate and the crates above it) that check a result is the same bits on
//! one thread or two: run a closure on a rayon pool of its own size.

/// `f` on a fresh rayon pool of `threads` threads (faer and rayon work inside it uses them).
pub fn on_threads<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a rayon pool of the asked size")
        .install(f)
}
