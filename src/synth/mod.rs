//! Seeded synthetic logistic-regression data for the benchmark harness (issue 8):
//! x ~ N(0, I_D), true weights w ~ N(0, 0.25 I_D), y ~ Bernoulli(sigma(x^T w)).
//!
//! Row r of a part (training or test) is drawn from its own stream, seeded from the seed, the
//! part and r: D standard normals for x, then one uniform u with y = [u < sigma(x^T w)]. So the
//! bytes written depend on the seed alone, not on the chunk size or the number of threads, and
//! the file is generated a chunk of rows at a time in bounded memory (a 10,000,000 x 50 file
//! needs one chunk, about 32 MiB, not the whole 4 GB matrix). Both parts share w, so the test
//! rows come from the same model as the training rows.

mod sink;

use std::path::{Path, PathBuf};

use rand::{RngExt, SeedableRng};
use rand_distr::{Distribution, StandardNormal};
use rayon::prelude::*;
use serde::Serialize;

use crate::error::{Error, Result};
use crate::numeric::rng::{stream, Stream};
use crate::numeric::special::sigmoid;

/// Bytes of x per generated chunk when `chunk_rows` is not given.
const CHUNK_BYTES: usize = 32 << 20;

/// What to generate and where.
#[derive(Debug, Clone)]
pub struct Spec {
    pub rows: usize,
    pub features: usize,
    pub seed: u64,
    /// Also write a test set of this many rows from the same weights.
    pub test_rows: Option<usize>,
    /// The training Parquet file, `STEM.parquet`; the other files are named after STEM.
    pub out: PathBuf,
    /// Also write `STEM.X.npy` and `STEM.y.npy`.
    pub npy: bool,
    /// Also write `STEM.csv`.
    pub csv: bool,
    /// Rows generated per chunk; by default about 32 MiB of x. The Parquet row groups have a
    /// fixed size of their own, so the files do not depend on it.
    pub chunk_rows: Option<usize>,
}

/// The training or the test part of a data set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    Train,
    Test,
}

impl Part {
    fn label(self) -> &'static str {
        match self {
            Part::Train => "synth/train",
            Part::Test => "synth/test",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Part::Train => "train",
            Part::Test => "test",
        }
    }
}

/// What was written: the contents of `STEM.synth.json`.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    pub schema_version: u32,
    pub seed: u64,
    pub rows: usize,
    pub features: usize,
    pub test_rows: Option<usize>,
    /// The true weights w the labels were drawn with.
    pub weights: Vec<f64>,
    /// Fraction of training rows with y = 1.
    pub positive_fraction: f64,
    pub test_positive_fraction: Option<f64>,
    pub files: Vec<String>,
}

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

/// The true weights of `seed`: w_j = z_j / 2 with z_j ~ N(0, 1).
pub fn true_weights(seed: u64, features: usize) -> Vec<f64> {
    let mut rng = stream(seed, "synth/weights");
    (0..features)
        .map(|_| {
            let z: f64 = StandardNormal.sample(&mut rng);
            0.5 * z
        })
        .collect()
}

/// Rows `start .. start + y.len()` of `part`: x row-major into `x` (y.len() x D), labels into `y`.
pub fn fill(seed: u64, part: Part, w: &[f64], start: usize, x: &mut [f64], y: &mut [f64]) {
    let d = w.len();
    assert_eq!(x.len(), d * y.len(), "x holds D values per label");
    let base = rand::Rng::next_u64(&mut stream(seed, part.label()));
    x.par_chunks_mut(d.max(1))
        .zip(y.par_iter_mut())
        .enumerate()
        .for_each(|(i, (row, label))| {
            // seed_from_u64 runs the seed through SplitMix64, so consecutive seeds give
            // unrelated streams.
            let mut rng = Stream::seed_from_u64(base.wrapping_add((start + i) as u64));
            let mut a = 0.0;
            for (v, wj) in row.iter_mut().zip(w) {
                *v = StandardNormal.sample(&mut rng);
                a += *v * wj;
            }
            let u: f64 = rng.random();
            *label = if u < sigmoid(a) { 1.0 } else { 0.0 };
        });
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

/// The bytes of x one part may take (N D 8 for its .npy): 1 PiB, beyond any disk, which also
/// keeps every size product inside a u64.
const MAX_PART_BYTES: u64 = 1 << 50;

/// Refuse sizes the machine cannot write, naming the option, its value and the largest that
/// works: a row of x must fit the chunk budget, a chunk (of at most the larger part's rows)
/// the memory budget, a part 1 PiB.
fn check_sizes(spec: &Spec) -> Result<()> {
    let refuse = |option: &str, value: usize, max: u64, why: String| {
        Err(Error::config(
            &spec.out,
            format!("{option} {value} is too large; at most {max}, as {why}"),
        ))
    };
    let max_features = (CHUNK_BYTES / 8) as u64;
    if spec.features as u64 > max_features {
        let why = format!(
            "a row of x (8 bytes per feature) must fit the {} MiB a chunk holds",
            CHUNK_BYTES >> 20
        );
        return refuse("--features", spec.features, max_features, why);
    }
    let row_bytes = 8 * (spec.features as u64 + 1);
    let max_rows = MAX_PART_BYTES / row_bytes;
    for (option, rows) in [("--rows", Some(spec.rows)), ("--test-rows", spec.test_rows)] {
        match rows {
            Some(n) if n as u64 > max_rows => {
                let why = format!(
                    "{} features make {row_bytes} bytes a row and a file of over {} TiB holds no disk",
                    spec.features,
                    MAX_PART_BYTES >> 40
                );
                return refuse(option, n, max_rows, why);
            }
            _ => {}
        }
    }
    // A chunk never holds more rows than the larger part.
    let budget = crate::config::limits::MEMORY_BUDGET_BYTES;
    let max_chunk = budget / (8 * spec.features as u64).max(1);
    let most = spec.rows.max(spec.test_rows.unwrap_or(0));
    match spec.chunk_rows {
        Some(c) if c.min(most) as u64 > max_chunk => {
            let why = format!(
                "a chunk of x ({} features, 8 bytes each) must fit the memory budget of {} MiB",
                spec.features,
                budget >> 20
            );
            refuse("--chunk-rows", c, max_chunk, why)
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests;
