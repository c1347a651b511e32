//! What kind of file a path names, and the error for a column it lacks: shared by the
//! in-memory reader ([`crate::read::table`]), the CSV details ([`crate::read::csv`]), the Parquet column
//! selection ([`crate::read::parquet_columns`]) and the streamed chunks ([`crate::read::chunks`]); and the
//! digest of a data file that a run's provenance records.

use std::path::Path;

use sha2::{Digest, Sha256};

use bayeslab_core::error::{Error, Result};

/// Whether `path` names a Parquet file (by its extension); anything else is read as CSV.
pub(crate) fn is_parquet(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| matches!(e.to_ascii_lowercase().as_str(), "parquet" | "pq"))
}

/// The error for a column the file lacks, with a suggestion and the columns it has.
pub(crate) fn no_column(path: &Path, role: &str, name: &str, names: &[String]) -> Error {
    Error::data(
        path,
        format!(
            "{role} column \"{name}\" does not exist{}; the file has columns: {}",
            bayeslab_core::suggest::did_you_mean(name, names.iter().map(String::as_str)),
            names.join(", ")
        ),
    )
}

/// Lowercase hex SHA-256 of a file's bytes: the digest of a data file in a run's provenance.
pub fn sha256_file(path: &Path) -> Result<String> {
    let cannot = |e: std::io::Error| Error::data(path, format!("cannot read: {e}"));
    let file = std::fs::File::open(path).map_err(cannot)?;
    let mut hasher = Sha256::new();
    match file.metadata().map(|m| m.is_file() && m.len() > 0) {
        // A regular file is hashed from its pages mapped into memory: no copy of its bytes out
        // of the page cache (a third of the hashing's time on a 1 GB file, issue 32), and no
        // more memory than the pages the system caches anyway.
        Ok(true) => {
            // Only read, and dropped before this returns.
            let map = crate::unchecked::map(&file).map_err(cannot)?;
            #[cfg(unix)]
            let _ = map.advise(memmap2::Advice::Sequential);
            hasher.update(&map[..]);
        }
        // Anything else (a pipe, an empty file) through a buffer: never read whole.
        _ => {
            std::io::copy(
                &mut std::io::BufReader::with_capacity(1 << 20, file),
                &mut hasher,
            )
            .map_err(cannot)?;
        }
    }
    Ok(hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}
