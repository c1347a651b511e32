//! bayeslab-core: the part of bayeslab that knows the mathematics and the record, and nothing of
//! files' formats, screens or plots.
//!
//! [`catalog`] lists every method kind and its facts; [`numeric`] is the linear algebra and the
//! special functions (on faer); [`optim`] the shared Newton / gradient loop; [`model`] fits and
//! predicts every family on a design matrix; [`metrics`] scores predictions; [`record`] is every
//! type that results.json serialises; [`files`] writes outputs atomically without overwriting
//! what the user owns. The crate builds without polars, ratatui, plotters, resvg or clap
//! (docs/development/architecture.md draws the crate graph). Its unsafe code is in one module,
//! `unchecked`, behind safe functions; the rest of the crate denies it.

#![deny(unsafe_code)]

pub mod catalog;
pub mod error;
pub mod files;
pub mod metrics;
pub mod model;
pub mod numeric;
pub mod optim;
pub mod record;
pub mod suggest;
pub mod threads;
#[allow(unsafe_code)]
mod unchecked;

pub use error::{Error, Result};
