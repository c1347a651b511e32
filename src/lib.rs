//! bayeslab: a workbench for approximate Bayesian classification.
//!
//! The library is UI-free: [`config`] turns an experiment TOML into a validated [`config::Plan`],
//! [`data`] loads and prepares the data (the only module that uses polars), [`model`] fits and
//! predicts on top of the [`numeric`] core (faer) and the shared [`optim`] loop, [`metrics`]
//! evaluates, [`experiment`] runs a plan into one [`record::ExperimentRecord`], and [`output`]
//! renders that record to files. [`tui`] is the terminal workbench on top of all of them; it
//! lives in the library (not the binary) so that its state transitions, screens and frame
//! timing can be tested and benchmarked from `tests/` and `benches/`, and it is the only
//! module that imports ratatui/crossterm.

pub mod tui;

// The core crate's modules under their old names, for the tests, benches and binary that still
// reach them through this crate.
pub use bayeslab_core::{catalog, error, files, metrics, model, numeric, optim, record};
pub use bayeslab_core::{Error, Result};
// The data crate, likewise.
pub use bayeslab_data as data;
pub use bayeslab_data::npy;
// The engine crate, likewise.
pub use bayeslab_engine::{bench, compare, config, lab, run, synth};
pub use bayeslab_report as output;
