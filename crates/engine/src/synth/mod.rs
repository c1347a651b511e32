//! Seeded synthetic logistic-regression data for the benchmark harness (issue 8):
//! x ~ N(0, I_D), true weights w ~ N(0, 0.25 I_D), y ~ Bernoulli(sigma(x^T w)).
//!
//! Row r of a part (training or test) is drawn from its own stream, seeded from the seed, the
//! part and r: D standard normals for x, then one uniform u with y = [u < sigma(x^T w)]. So the
//! bytes written depend on the seed alone, not on the chunk size or the number of threads, and
//! the file is generated a chunk of rows at a time in bounded memory (a 10,000,000 x 50 file
//! needs one chunk, about 32 MiB, not the whole 4 GB matrix). Both parts share w, so the test
//! rows come from the same model as the training rows.

mod draws;
mod sink;
mod sizes;
mod spec;

pub use draws::{fill, true_weights};
pub use spec::{Part, Spec, Summary};

use std::path::{Path, PathBuf};

use bayeslab_core::error::{Error, Result};
use sizes::check_sizes;
use spec::CHUNK_BYTES;

/// The training file's stem: `--out` without its `.parquet`.
pub fn stem(out: &Path) -> Result<PathBuf> {
    let text = out.to_string_lossy();
    match text.strip_suffix(".parquet") {
        Some(s) if !s.is_empty() && !s.ends_with('/') => Ok(PathBuf::from(s)),
        _ => Err(Error::config(
            out,
            "--out must name the training Parquet file, ending in .parquet (e.g. --out data/train.parquet); \
             the .npy, .csv and test files are named after it",
        )),
    }
}

/// Progress after each chunk: the part, rows written so far, rows in the part.
pub type Progress<'a> = &'a mut dyn FnMut(Part, usize, usize);

/// Generate and write every file of `spec`. Each file is written under a temporary name and
/// renamed into place only after all of them are complete; `STEM.synth.json` comes last.
pub fn generate(spec: &Spec, progress: Progress<'_>) -> Result<Summary> {
    let stem = stem(&spec.out)?;
    if spec.rows == 0 || spec.features == 0 || spec.test_rows == Some(0) {
        return Err(Error::config(
            &spec.out,
            "--rows, --features and --test-rows must be at least 1",
        ));
    }
    check_sizes(spec)?;
    check_outputs(spec, &stem)?;
    let d = spec.features;
    let chunk = spec
        .chunk_rows
        .unwrap_or((CHUNK_BYTES / (8 * d)).max(1))
        .max(1);
    let w = true_weights(spec.seed, d);
    let names: Vec<String> = (1..=d).map(|j| format!("x{j}")).collect();
    let mut pending = Vec::new();
    let mut files = Vec::new();
    let mut fractions = Vec::new();
    let parts =
        std::iter::once((Part::Train, spec.rows, stem.clone())).chain(spec.test_rows.map(|m| {
            let mut s = stem.clone().into_os_string();
            s.push(".test");
            (Part::Test, m, PathBuf::from(s))
        }));
    for (part, rows, part_stem) in parts {
        let formats = (spec.npy, spec.csv);
        let group = sink::group_rows(d);
        let mut writer = sink::PartWriter::create(&part_stem, rows, &names, formats, group)?;
        let mut positives = 0usize;
        let mut start = 0;
        while start < rows {
            let n = chunk.min(rows - start);
            let mut x = vec![0.0; n * d];
            let mut y = vec![0.0; n];
            fill(spec.seed, part, &w, start, &mut x, &mut y);
            positives += y.iter().filter(|&&v| v == 1.0).count();
            writer.write(&x, &y, d)?;
            start += n;
            progress(part, start, rows);
        }
        fractions.push(positives as f64 / rows as f64);
        let (p, f) = writer.finish()?;
        pending.extend(p);
        files.extend(f);
    }
    let meta = sink::meta_path(&stem);
    files.push(meta.display().to_string());
    let summary = Summary {
        schema_version: 1,
        seed: spec.seed,
        rows: spec.rows,
        features: d,
        test_rows: spec.test_rows,
        weights: w,
        positive_fraction: fractions[0],
        test_positive_fraction: fractions.get(1).copied(),
        files,
    };
    let json = serde_json::to_vec_pretty(&summary).expect("the summary serialises to JSON");
    pending.push(sink::Pending::write(&meta, &json)?);
    for p in pending {
        p.commit()?;
    }
    Ok(summary)
}

/// Every file `spec` writes: each part's Parquet file (and .X.npy, .y.npy, .csv when asked),
/// then STEM.synth.json.
fn outputs(spec: &Spec, stem: &Path) -> Vec<PathBuf> {
    let named = |suffix: &str| {
        let mut s = stem.as_os_str().to_owned();
        s.push(suffix);
        PathBuf::from(s)
    };
    let mut parts = vec![""];
    if spec.test_rows.is_some() {
        parts.push(".test");
    }
    let mut files = Vec::new();
    for part in parts {
        files.push(named(&format!("{part}.parquet")));
        if spec.npy {
            files.push(named(&format!("{part}.X.npy")));
            files.push(named(&format!("{part}.y.npy")));
        }
        if spec.csv {
            files.push(named(&format!("{part}.csv")));
        }
    }
    files
}

/// Refuse, before anything is generated, to write over a file that is not an earlier synth's
/// output: a data file must be listed in the STEM.synth.json beside it, which must itself be a
/// bayeslab record (files/owned.rs).
fn check_outputs(spec: &Spec, stem: &Path) -> Result<()> {
    use bayeslab_core::files::{check_file_out, Own};
    let meta = sink::meta_path(stem);
    check_file_out(&meta, "--out", &Own::Record, &[])?;
    for file in outputs(spec, stem) {
        check_file_out(&file, "--out", &Own::ListedIn(meta.clone()), &[])?;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
