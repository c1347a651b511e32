//! The Rust side of the benchmark harness (issue 8): time loading, the Laplace fit, the
//! Monte-Carlo predictive and the machine's bound (a plain faer product X^T X) on files written
//! by `bayeslab synth`, with medians over repetitions and peak memory.
//!
//! Each measurement is a [`Task`]; the command line runs every task in its own process so that
//! one task's peak memory is not another's leftovers. This module calls faer directly for the
//! bound product and the thread setting: measuring the numeric core is its purpose.

mod files;
pub mod memory;
mod record;
mod report;
mod tasks;

use serde::{Deserialize, Serialize};

pub use files::FileSet;
pub use record::{
    BenchRecord, BoundDetail, FitDetail, FullNewton, KhatDetail, LoadDetail, PredictDetail,
    TaskRecord,
};
pub use report::table;
pub use tasks::run;

/// One measurement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Task {
    /// The training Parquet file through polars into X (bayeslab's reader).
    LoadParquet,
    /// The training CSV through polars into X.
    LoadCsv,
    /// The training `.X.npy`/`.y.npy` pair straight into a faer matrix.
    LoadNpy,
    /// MAP by Newton, the Hessian's Cholesky factor and the diagonal of the covariance.
    Fit,
    /// Activation means and variances on the test rows, then the Monte-Carlo predictive.
    Predict,
    /// The plain product X^T X of the training matrix: what the machine can do.
    Bound,
    /// The k-hat log likelihood at every draw from the posterior (the fit is not timed),
    /// beside the plain product X W of the same shape.
    Khat,
}

impl Task {
    pub const ALL: [Task; 7] = [
        Task::LoadParquet,
        Task::LoadCsv,
        Task::LoadNpy,
        Task::Fit,
        Task::Bound,
        Task::Predict,
        Task::Khat,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Task::LoadParquet => "load-parquet",
            Task::LoadCsv => "load-csv",
            Task::LoadNpy => "load-npy",
            Task::Fit => "fit",
            Task::Predict => "predict",
            Task::Bound => "bound",
            Task::Khat => "khat",
        }
    }

    pub fn parse(name: &str) -> Option<Task> {
        Task::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// How to measure.
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    /// Prior precision lambda of the fit.
    pub lambda: f64,
    /// Monte-Carlo samples S per test row.
    pub samples: usize,
    pub reps: usize,
    /// Seed of the Monte-Carlo stream.
    pub seed: u64,
    pub threads: usize,
}

/// The Newton fit's tolerance on the gradient norm and its iteration budget.
pub const TOLERANCE: f64 = 1e-8;
pub const MAX_ITER: usize = 100;

pub fn cores() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

/// Use `threads` threads in faer's kernels and in rayon's global pool (polars' pool follows
/// POLARS_MAX_THREADS, which the command line sets before polars starts).
pub fn set_threads(threads: usize) {
    let _ = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global();
    faer::set_global_parallelism(if threads <= 1 {
        faer::Par::Seq
    } else {
        faer::Par::rayon(threads)
    });
}

/// The median of a non-empty sample (the mean of the middle two for an even count).
pub fn median(xs: &[f64]) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        0.5 * (v[n / 2 - 1] + v[n / 2])
    }
}

#[cfg(test)]
mod tests;
