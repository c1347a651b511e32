//! The reproducibility block of every run: what ran (the resolved experiment), on which data
//! (SHA-256 of each file), with which bayeslab, when, and on how many cores.

use std::collections::BTreeMap;

use crate::config::Plan;
use bayeslab_core::error::Result;
use bayeslab_core::record::Provenance;
pub use bayeslab_data::sha256_file;

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
        let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
        let got = sha256_file(&root.join("datasets/pima.csv")).unwrap();
        assert_eq!(
            got,
            "e4b1b2bb886f814ef9f2fd9b323b18315189f25b21d713a469f09bb61a49468e"
        );
    }
}
