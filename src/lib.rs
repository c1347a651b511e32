//! bayeslab's library face: the workspace's crates under the module names the binary and the
//! tests use. The crates are the layers (docs/development/architecture.md): bayeslab-core,
//! bayeslab-data, bayeslab-engine, bayeslab-report and bayeslab-tui.

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
pub use bayeslab_tui as tui;
