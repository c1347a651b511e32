//! What a bench run writes: one record per task with its timings, peak memory and the
//! task's own details, and the record of the whole run.

use serde::{Deserialize, Serialize};

use super::files::FileSet;
use super::{cores, Settings, Task};

/// One task's measurement.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TaskRecord {
    pub task: Task,
    /// The file the measured step read (or whose matrix it used).
    pub file: String,
    pub rows: usize,
    pub cols: usize,
    /// rows x cols x 8: the input matrix in f64.
    pub input_bytes: u64,
    /// Wall-clock seconds of each repetition.
    pub seconds: Vec<f64>,
    pub median_seconds: f64,
    /// Resident memory of the process before it loaded anything (the executable, its libraries
    /// and thread stacks), to be subtracted when the input is small.
    pub start_rss_bytes: Option<u64>,
    /// Peak resident memory of the process over the repetitions (VmHWM), counted from the
    /// moment the measured step began: its input, once loaded, is included.
    pub peak_rss_bytes: Option<u64>,
    /// False when the peak could not be reset before the step, so it includes the setup.
    pub peak_reset: bool,
    pub peak_over_input: Option<f64>,
    pub load: Option<LoadDetail>,
    pub fit: Option<FitDetail>,
    pub predict: Option<PredictDetail>,
    pub bound: Option<BoundDetail>,
    #[serde(default)]
    pub khat: Option<KhatDetail>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct LoadDetail {
    /// Median seconds of a plain polars read of the same file(s) into a DataFrame (the part
    /// comparable with pandas.read_csv), timed apart from the loader. None for .npy.
    pub polars_read_median_seconds: Option<f64>,
    /// Bytes of the file(s) read (training and test).
    #[serde(default)]
    pub file_bytes: Option<u64>,
    /// file_bytes / 10^6 over the loader's median seconds: file to standardised design.
    #[serde(default)]
    pub loader_mb_per_second: Option<f64>,
    /// file_bytes / 10^6 over the plain polars read's median seconds.
    #[serde(default)]
    pub polars_mb_per_second: Option<f64>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FitDetail {
    pub lambda: f64,
    pub newton_iterations: usize,
    pub termination: String,
    /// Hessians X^T S X formed (passes with the Hessian), the one at the MAP for the Laplace
    /// factor included.
    pub hessians: usize,
    /// Passes for E and g alone: chord Newton steps that reuse an older Hessian's factor.
    #[serde(default)]
    pub gradient_passes: usize,
    /// 2 (N D^2 + N D) flops per Hessian pass (the product X^T S X counted as a plain N x D
    /// product, as the bound is, plus one pass over X) and 4 N D per gradient pass (X w, X^T r).
    pub flops: f64,
    pub gflops: f64,
    pub objective: f64,
    pub weights: Vec<f64>,
    /// diag(H^{-1}): the posterior variances.
    pub cov_diag: Vec<f64>,
    /// The same fit by full Newton (a Hessian every step), timed interleaved with the chord
    /// fit in the same process: what the chord method saves on this machine.
    #[serde(default)]
    pub full_newton: Option<FullNewton>,
}

/// Full Newton beside the chord fit: its time, passes, and how far its answer is from it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FullNewton {
    pub median_seconds: f64,
    pub newton_iterations: usize,
    pub hessians: usize,
    /// The chord fit's median time over full Newton's.
    pub chord_over_full: f64,
    /// max_j |w_j - w_full_j| and max_j |diag(H^{-1})_j - full_j| / full_j.
    pub max_weight_difference: f64,
    pub max_cov_diag_relative_difference: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PredictDetail {
    pub samples: usize,
    /// The training file the posterior was fitted on (not timed).
    pub train_file: String,
    pub mean_probability: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BoundDetail {
    /// 2 N D^2.
    pub flops: f64,
    pub gflops: f64,
}

/// The k-hat log likelihood against the plain product of its shape.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct KhatDetail {
    /// Draws S from the Laplace posterior: `bayeslab run`'s default for these rows, at least
    /// 1,000.
    pub draws: usize,
    /// N S over the median seconds: row-draw log likelihoods per second.
    pub row_draws_per_second: f64,
    /// The plain faer product X W (N x D times D x S) on all cores: its median seconds.
    pub product_median_seconds: f64,
    /// 2 N D S flops over the product's median seconds.
    pub product_gflops: f64,
    pub product_row_draws_per_second: f64,
    /// The k-hat log likelihood's median seconds over the product's.
    pub kernel_over_product: f64,
    /// The posterior's k-hat from these draws (a check that the work is real).
    pub khat: Option<f64>,
}

/// Everything one `bayeslab bench` run measured.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BenchRecord {
    pub schema_version: u32,
    pub threads: usize,
    /// The machine's logical cores (std::thread::available_parallelism).
    pub cores: usize,
    pub lambda: f64,
    pub samples: usize,
    pub reps: usize,
    pub seed: u64,
    pub train: String,
    pub test: Option<String>,
    pub tasks: Vec<TaskRecord>,
    /// The bound's GFLOP/s over the fit's: how many times slower than the bound the fit runs.
    pub bound_over_fit: Option<f64>,
}

impl BenchRecord {
    pub fn new(settings: &Settings, train: &FileSet, test: Option<&FileSet>) -> Self {
        BenchRecord {
            schema_version: 1,
            threads: settings.threads,
            cores: cores(),
            lambda: settings.lambda,
            samples: settings.samples,
            reps: settings.reps,
            seed: settings.seed,
            train: train.stem.display().to_string(),
            test: test.map(|t| t.stem.display().to_string()),
            tasks: Vec::new(),
            bound_over_fit: None,
        }
    }

    /// Add measurements and update the fit-versus-bound ratio.
    pub fn extend(&mut self, tasks: impl IntoIterator<Item = TaskRecord>) {
        self.tasks.extend(tasks);
        let fit = self.tasks.iter().find_map(|t| t.fit.as_ref());
        let bound = self.tasks.iter().find_map(|t| t.bound.as_ref());
        self.bound_over_fit = fit.zip(bound).map(|(f, b)| b.gflops / f.gflops);
    }
}
