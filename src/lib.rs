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

pub mod bench;
pub mod catalog;
pub mod compare;
pub mod config;
pub mod data;
pub mod error;
pub mod files;
pub mod lab;
pub mod metrics;
pub mod model;
pub mod npy;
pub mod numeric;
pub mod optim;
pub mod output;
pub mod record;
pub mod run;
pub mod synth;
#[cfg(test)]
mod test_threads;
pub mod tui;

pub use error::{Error, Result};
