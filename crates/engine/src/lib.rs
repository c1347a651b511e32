//! bayeslab's engine: everything between an experiment file and a run record, with no screen,
//! no figures and no command line.
//!
//! [`config`] turns an experiment TOML into a validated [`config::Plan`]; [`run`] loads the data
//! (through `bayeslab-data`), fits every method (through `bayeslab-core`) and fills one
//! [`bayeslab_core::record::ExperimentRecord`], telling its front ends what it does by one
//! [`run::Event`] vocabulary; [`compare`] sets two records side by side; [`lab`] holds the
//! approximation lab's distances and distributions; [`bench`] times the methods; [`synth`] writes
//! synthetic data sets.

#![forbid(unsafe_code)]

pub mod bench;
pub mod compare;
pub mod config;
pub mod lab;
pub mod run;
pub mod synth;
