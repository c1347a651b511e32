//! The bound X^T X: the Gram matrix a bound-optimiser or a Gaussian prior update forms.

use faer::linalg::matmul::matmul;
use faer::{Accum, Mat};

use super::measurement::{record, timed, Progress};
use crate::bench::files::FileSet;
use crate::bench::{memory, BoundDetail, Settings};
use crate::bench::{Task, TaskRecord};
use bayeslab_core::error::Result;

pub(super) fn bound(
    files: &FileSet,
    settings: &Settings,
    progress: Progress<'_>,
) -> Result<TaskRecord> {
    let data = files.load()?;
    let x = data.x;
    let (n, d) = (x.nrows(), x.ncols());
    drop(data.y);
    let reset = memory::reset_peak();
    let mut seconds = Vec::new();
    for rep in 0..settings.reps {
        let (_, s) = timed(|| {
            let mut g = Mat::<f64>::zeros(d, d);
            matmul(
                g.as_mut(),
                Accum::Replace,
                x.transpose(),
                x.as_ref(),
                1.0,
                faer::get_global_parallelism(),
            );
            std::hint::black_box(&g);
            Ok(())
        })?;
        progress(&format!(
            "bound X^T X {}/{}: {s:.3} s",
            rep + 1,
            settings.reps
        ));
        seconds.push(s);
    }
    let mut r = record(Task::Bound, &data.file, (n, d), seconds, reset);
    let flops = 2.0 * n as f64 * (d * d) as f64;
    r.bound = Some(BoundDetail {
        flops,
        gflops: flops / r.median_seconds / 1e9,
    });
    Ok(r)
}
