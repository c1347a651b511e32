//! Data: load a CSV or Parquet file (polars, in [`table`] only), parse the labels, split,
//! handle missing values, encode categorical columns and fill gaps ([`encode`]), standardise and
//! add the intercept.

mod chunk_tables;
mod chunks;
mod classes;
mod csv;
mod dataset;
pub mod dense;
mod encode;
mod features;
mod files;
#[cfg(test)]
mod format_tests;
mod labels;
mod load;
mod loaded;
mod missing;
mod moments;
pub mod npy;
mod pair;
mod parquet_columns;
mod parquet_pages;
pub(crate) mod parquet_place;
pub mod parquet_sink;
mod place_plan;
pub mod plan;
mod prepare;
mod release;
pub mod roles;
mod score;
mod stream;
#[cfg(test)]
mod stream_tests;
mod table;
#[cfg(test)]
mod tests;

pub use dataset::{Dataset, Design, INTERCEPT};
pub use files::sha256_file;
pub use load::{load, load_with};
pub use loaded::{polars_read, ReadProbe};
pub use prepare::is_constant;
pub use score::prepare_new;
pub use stream::{DesignChunk, DesignRows, Part, PassStats, StreamedData};
pub use table::{read_column, read_key};
