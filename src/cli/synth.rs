//! `bayeslab synth`: seeded synthetic logistic data for the benchmark harness.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use bayeslab_core::Error;
use bayeslab_engine::synth::{self, Part, Spec};

#[derive(clap::Args)]
pub struct SynthArgs {
    /// Training rows N.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    rows: u64,
    /// Features D (columns x1..xD).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    features: u64,
    /// Seed of every random stream (the true weights, each row's x and y).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The training Parquet file, e.g. data/train.parquet; other files are named after it.
    #[arg(long)]
    out: PathBuf,
    /// Also write a test set of M rows drawn with the same true weights (STEM.test.parquet, …).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    test_rows: Option<u64>,
    /// Also write STEM.X.npy (float64, N x D, C order) and STEM.y.npy (float64, N).
    #[arg(long)]
    npy: bool,
    /// Also write STEM.csv (header x1,…,xD,y).
    #[arg(long)]
    csv: bool,
    /// Rows generated per chunk, which bounds the memory used [default: about 32 MiB of x].
    /// The files are the same for every chunk size.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    chunk_rows: Option<u64>,
    /// Print nothing but errors.
    #[arg(long, short)]
    quiet: bool,
}

pub fn run(args: SynthArgs) -> Result<i32, Error> {
    let spec = Spec {
        rows: args.rows as usize,
        features: args.features as usize,
        seed: args.seed,
        test_rows: args.test_rows.map(|m| m as usize),
        out: args.out,
        npy: args.npy,
        csv: args.csv,
        chunk_rows: args.chunk_rows.map(|c| c as usize),
    };
    let started = Instant::now();
    let mut last = Instant::now();
    let quiet = args.quiet;
    let mut progress = |part: Part, done: usize, total: usize| {
        if !quiet && (done == total || last.elapsed() >= Duration::from_secs(1)) {
            last = Instant::now();
            eprintln!(
                "synth: {} {done}/{total} rows ({:.0} %), {:.1} s",
                part.name(),
                100.0 * done as f64 / total as f64,
                started.elapsed().as_secs_f64()
            );
        }
    };
    let summary = synth::generate(&spec, &mut progress)?;
    if !quiet {
        eprintln!(
            "synth: {} x {} (seed {}), {:.1} % positive; wrote {}",
            summary.rows,
            summary.features,
            summary.seed,
            100.0 * summary.positive_fraction,
            summary.files.join(", ")
        );
    }
    Ok(0)
}
