//! The command line of `bayeslab bench`, and the error that names a bad flag.

use std::path::PathBuf;

use bayeslab_core::Error;

#[derive(clap::Args)]
pub struct BenchArgs {
    /// The training data: STEM.parquet, STEM.csv, STEM.X.npy or the bare STEM written by
    /// `bayeslab synth`; the other files of the set are found beside it.
    #[arg(long)]
    pub(super) train: PathBuf,
    /// The test data for the predictive (e.g. STEM.test.parquet from `synth --test-rows`).
    #[arg(long)]
    pub(super) test: Option<PathBuf>,
    /// Prior precision lambda: E(w) = sum of log-losses + lambda/2 ||w||^2.
    #[arg(long, default_value_t = 1.0, allow_negative_numbers = true)]
    pub(super) lambda: f64,
    /// Monte-Carlo samples S per test row.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    pub(super) samples: u64,
    /// Repetitions per task; the median is reported.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..))]
    pub(super) reps: u64,
    /// Threads for faer, rayon and polars [default: all cores].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub(super) threads: Option<u64>,
    /// Seed of the Monte-Carlo stream.
    #[arg(long, default_value_t = 0)]
    pub(super) seed: u64,
    /// Run only these tasks, in this process (comma-separated): load-parquet, load-csv,
    /// load-npy, fit, bound, predict.
    #[arg(long, value_delimiter = ',')]
    pub(super) only: Vec<String>,
    /// Print the measurements as JSON instead of the table.
    #[arg(long)]
    pub(super) json: bool,
    /// Also write the JSON to this file (atomically).
    #[arg(long)]
    pub(super) out: Option<PathBuf>,
    /// Print no progress.
    #[arg(long, short)]
    pub(super) quiet: bool,
}

pub(super) fn flag_error(flag: &str, message: String) -> Error {
    Error::Config {
        file: PathBuf::from(flag),
        message,
    }
}
