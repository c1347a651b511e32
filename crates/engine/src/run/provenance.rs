//! The reproducibility block of every run: what ran (the resolved experiment), on which data
//! (SHA-256 of each file), with which bayeslab, when, and on how many cores.

use std::collections::BTreeMap;
use std::path::Path;

use sha2::{Digest, Sha256};

use crate::config::Plan;
use bayeslab_core::error::{Error, Result};
use bayeslab_core::record::Provenance;

/// Lowercase hex SHA-256 of a file's bytes.
pub fn sha256_file(path: &Path) -> Result<String> {
    let cannot = |e: std::io::Error| Error::data(path, format!("cannot read: {e}"));
    let file = std::fs::File::open(path).map_err(cannot)?;
    let mut hasher = Sha256::new();
    match file.metadata().map(|m| m.is_file() && m.len() > 0) {
        // A regular file is hashed from its pages mapped into memory: no copy of its bytes out
        // of the page cache (a third of the hashing's time on a 1 GB file, issue 32), and no
        // more memory than the pages the system caches anyway.
        // SAFETY: the mapping is only read, and dropped before this returns; a file cut short
        // by another program meanwhile would end the process (SIGBUS), as it would any mapped
        // read of it (polars maps a Parquet file).
        Ok(true) => {
            let map = unsafe { memmap2::Mmap::map(&file) }.map_err(cannot)?;
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

/// The provenance of a run of `plan` on data whose digests are `data_sha256`, adding those of
/// the observation `files` of its `[[posterior]]` tables.
pub fn collect(
    plan: &Plan,
    mut data_sha256: BTreeMap<String, String>,
    files: &[std::path::PathBuf],
) -> Result<Provenance> {
    for f in files {
        data_sha256.insert(f.display().to_string(), sha256_file(f)?);
    }
    let created = time::OffsetDateTime::now_utc()
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default();
    Ok(Provenance {
        version: env!("CARGO_PKG_VERSION").to_string(),
        seed: plan.seed,
        config: plan.resolved_toml(),
        data_sha256,
        created,
        cores: std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digest_matches_the_datasets_readme() {
        // datasets/README.md lists the SHA-256 of every shipped file (computed with sha256sum).
        let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
        let got = sha256_file(&root.join("datasets/pima.csv")).unwrap();
        assert_eq!(
            got,
            "e4b1b2bb886f814ef9f2fd9b323b18315189f25b21d713a469f09bb61a49468e"
        );
    }
}
