//! The k-hat log likelihood (model/importance/likelihood.rs): every training row at every draw
//! from the Laplace posterior, beside the plain faer product X W of the same shape (N x D
//! times D x S) on all cores, which is all the arithmetic the activations need.

use faer::linalg::matmul::matmul;
use faer::{Accum, Mat};

use super::fit::{laplace_fit, Fitting};
use super::measurement::{record, timed, Progress};
use crate::bench::files::FileSet;
use crate::bench::{memory, KhatDetail, Settings};
use crate::bench::{Task, TaskRecord};
use bayeslab_core::error::Result;
use bayeslab_core::model::importance;
use bayeslab_core::model::streaming::InMemory;
use bayeslab_core::model::Likelihood;
use bayeslab_core::numeric::rng::stream;

/// The plain product is written in slabs of draws of at most this many bytes (6,366 rows x
/// 20,000 draws would be a gigabyte in one piece).
const SLAB_BYTES: usize = 256 << 20;

/// The draws `bayeslab run` would score by default on these rows, at least 1,000.
fn draws(n: usize, d: usize) -> usize {
    importance::default_draws(n, d).max(1000)
}

pub(super) fn khat(
    files: &FileSet,
    settings: &Settings,
    progress: Progress<'_>,
) -> Result<TaskRecord> {
    let data = files.load()?;
    let (n, d) = (data.x.nrows(), data.x.ncols());
    progress(&format!(
        "khat: fitting the posterior on {} (not timed)",
        data.file.display()
    ));
    let (_, posterior, _) =
        laplace_fit(&data.x, &data.y, settings.lambda, Fitting::AsRun, progress)?;
    let s = draws(n, d);
    let cov = posterior.precision.inverse();
    let mut rng = stream(settings.seed, "bench/khat");
    let (w, half_zz) =
        importance::gaussian_draws(&posterior.mean, cov.as_ref(), s, &mut rng, "the posterior")?;
    let rows = InMemory {
        x: data.x.as_ref(),
        y: &data.y,
    };
    let reset = memory::reset_peak();
    let mut seconds = Vec::new();
    let mut nll = Vec::new();
    for rep in 0..settings.reps {
        let (out, t) = timed(|| importance::draws_nll(Likelihood::Logistic, &rows, w.as_ref()))?;
        progress(&format!(
            "khat {}/{}: {s} draws x {n} rows in {t:.3} s",
            rep + 1,
            settings.reps
        ));
        seconds.push(t);
        nll = out;
    }
    let mut product = Vec::new();
    let slab = (SLAB_BYTES / (8 * n.max(1))).clamp(1, s);
    let mut out = Mat::<f64>::zeros(n, slab);
    for rep in 0..settings.reps {
        let ((), t) = timed(|| {
            for start in (0..s).step_by(slab) {
                let cols = slab.min(s - start);
                matmul(
                    out.as_mut().subcols_mut(0, cols),
                    Accum::Replace,
                    data.x.as_ref(),
                    w.as_ref().subcols(start, cols),
                    1.0,
                    faer::get_global_parallelism(),
                );
            }
            std::hint::black_box(&out);
            Ok(())
        })?;
        progress(&format!(
            "khat's product X W {}/{}: {t:.3} s",
            rep + 1,
            settings.reps
        ));
        product.push(t);
    }
    let mut r = record(Task::Khat, &data.file, (n, d), seconds, reset);
    let product_seconds = crate::bench::median(&product);
    let row_draws = (n * s) as f64;
    let log_ratios: Vec<f64> = (0..s)
        .map(|k| {
            let norm2: f64 = (0..d).map(|i| w[(i, k)] * w[(i, k)]).sum();
            half_zz[k] - nll[k] - 0.5 * settings.lambda * norm2
        })
        .collect();
    r.khat = Some(KhatDetail {
        draws: s,
        row_draws_per_second: row_draws / r.median_seconds,
        product_median_seconds: product_seconds,
        product_gflops: 2.0 * row_draws * d as f64 / product_seconds / 1e9,
        product_row_draws_per_second: row_draws / product_seconds,
        kernel_over_product: r.median_seconds / product_seconds,
        khat: importance::khat(&log_ratios),
    });
    Ok(r)
}
