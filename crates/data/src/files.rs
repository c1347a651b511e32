//! What kind of file a path names, and the error for a column it lacks: shared by the
//! in-memory reader ([`super::table`]), the CSV details ([`super::csv`]), the Parquet column
//! selection ([`super::parquet_columns`]) and the streamed chunks ([`super::chunks`]).

use std::path::Path;

use bayeslab_core::error::Error;

/// Whether `path` names a Parquet file (by its extension); anything else is read as CSV.
pub(super) fn is_parquet(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| matches!(e.to_ascii_lowercase().as_str(), "parquet" | "pq"))
}

/// The error for a column the file lacks, with a suggestion and the columns it has.
pub(super) fn no_column(path: &Path, role: &str, name: &str, names: &[String]) -> Error {
    Error::data(
        path,
        format!(
            "{role} column \"{name}\" does not exist{}; the file has columns: {}",
            bayeslab_core::suggest::did_you_mean(name, names.iter().map(String::as_str)),
            names.join(", ")
        ),
    )
}
