//! What every measurement shares: the progress callback, timing one repetition, and the
//! record with its median and peak memory.

use std::path::Path;
use std::time::Instant;

use crate::bench::{median, memory};
use crate::bench::{Task, TaskRecord};
use bayeslab_core::error::Result;

/// Progress messages for the person waiting (the command line prints them on stderr).
pub type Progress<'a> = &'a mut dyn FnMut(&str);

/// The shared part of every record: times, median and the peak over the input size.
pub(super) fn record(
    task: Task,
    file: &Path,
    (rows, cols): (usize, usize),
    seconds: Vec<f64>,
    peak_reset: bool,
) -> TaskRecord {
    let input_bytes = (rows * cols * 8) as u64;
    let peak = memory::peak_bytes();
    TaskRecord {
        task,
        file: file.display().to_string(),
        rows,
        cols,
        input_bytes,
        median_seconds: median(&seconds),
        seconds,
        start_rss_bytes: None,
        peak_rss_bytes: peak,
        peak_reset,
        peak_over_input: peak.map(|p| p as f64 / input_bytes.max(1) as f64),
        load: None,
        fit: None,
        predict: None,
        bound: None,
        khat: None,
    }
}

pub(super) fn timed<T>(f: impl FnOnce() -> Result<T>) -> Result<(T, f64)> {
    let start = Instant::now();
    let out = f()?;
    Ok((out, start.elapsed().as_secs_f64()))
}
