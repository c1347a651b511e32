//! Data: a CSV, Parquet or .npy file into design matrices, by stage:
//!
//! - `read`: the file into polars frames and plain columns, whole or chunk by chunk (polars is
//!   seen here and in the stages' column checks, nowhere above this crate);
//! - `place`: a Parquet pair's number columns decoded straight into their place in the design
//!   (the hand-written page decoder, behind the `parquet-in-place` feature);
//! - `prepare`: labels, missing values, the split, the encoding of categorical columns and
//!   filled gaps, standardisation, feature maps and the intercept, from the training rows;
//! - `load` and `stream`: the two ways through them, the whole file in memory ([`load()`]) or
//!   one chunk at a time ([`StreamedData`]).
//!
//! [`plan`] holds what the crate is asked to do, validated above it by the engine's config.
//!
//! Unsafe code is denied but in `unchecked` (mappings, the allocator, a signal handler, bytes as
//! numbers, behind safe functions) and in the three modules that write a design's uninitialised
//! columns from several threads: `place`, the .npy reader and the in-memory design fill.

#![deny(unsafe_code)]

pub mod dense;
mod load;
pub mod parquet_sink;
#[allow(unsafe_code)]
mod place;
pub mod plan;
mod prepare;
mod read;
mod stream;
#[cfg(test)]
mod stream_tests;
#[cfg(test)]
mod tests;
#[allow(unsafe_code)]
mod unchecked;

pub use load::loaded::polars_read;
pub use load::{load, load_with};
pub use prepare::dataset::{Dataset, Design, INTERCEPT};
pub use prepare::is_constant;
pub use prepare::score::prepare_new;
pub use read::files::sha256_file;
pub use read::table::{read_column, read_key};
pub use read::{npy, roles, ReadProbe};
pub use stream::{DesignChunk, DesignRows, Part, PassStats, StreamedData};
