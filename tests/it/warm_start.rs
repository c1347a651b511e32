//! The warm start of the logistic fit (model/warm_start.rs): when N and D call for it, the
//! answer equals the fit from w = 0 to 1e-10 with fewer Hessian passes, and the subsample is
//! the same matrix whether the rows arrive in memory or in chunks of any size.

use bayeslab_core::error::Result;
use bayeslab_core::model::logistic::{fit, FitSettings, LogisticFit};
use bayeslab_core::model::streaming::{ChunkFn, Chunks, InMemory};
use bayeslab_core::model::warm_start::{stride, Subsample};
use bayeslab_core::optim::{Curvature, Iterate};
use bayeslab_engine::config::Optimizer;
use faer::Mat;

/// Seeded logistic data: an intercept and d - 1 features uniform on (-1.7, 1.7), labels from
/// true weights 0.5 sin(0.7 j).
fn synthetic(n: usize, d: usize, seed: u64) -> (Mat<f64>, Vec<f64>) {
    let mut s = seed;
    let mut u = move || {
        s = s
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (s >> 11) as f64 / (1u64 << 53) as f64
    };
    let x = Mat::<f64>::from_fn(n, d, |_, j| if j == 0 { 1.0 } else { (u() - 0.5) * 3.4 });
    let w: Vec<f64> = (0..d).map(|j| 0.5 * (j as f64 * 0.7).sin()).collect();
    let y = (0..n)
        .map(|i| {
            let a: f64 = (0..d).map(|j| x[(i, j)] * w[j]).sum();
            f64::from(u8::from(u() < 1.0 / (1.0 + (-a).exp())))
        })
        .collect();
    (x, y)
}

/// The warm fit's weights, and with a prior its covariance diagonal and log evidence, equal
/// the fit from w = 0 to 1e-10 (relative; absolute for weights below 1).
fn assert_same_posterior(warm: &LogisticFit, cold: &LogisticFit, with_prior: bool) {
    for (j, (a, b)) in warm.weights.iter().zip(&cold.weights).enumerate() {
        assert!(
            (a - b).abs() <= 1e-10 * b.abs().max(1.0),
            "w[{j}]: {a} vs {b}"
        );
    }
    if with_prior {
        let (p, q) = (
            warm.posterior.as_ref().unwrap(),
            cold.posterior.as_ref().unwrap(),
        );
        for (a, b) in p.cov_diag().iter().zip(q.cov_diag()) {
            assert!((a - b).abs() <= 1e-10 * b.abs(), "cov {a} vs {b}");
        }
        let (a, b) = (p.log_evidence.unwrap(), q.log_evidence.unwrap());
        assert!((a - b).abs() <= 1e-10 * b.abs(), "log evidence {a} vs {b}");
    }
}

fn run(x: &Mat<f64>, y: &[f64], precision: f64, warm_start: bool) -> LogisticFit {
    let settings = FitSettings {
        precision,
        optimizer: Optimizer::Newton,
        max_iter: 100,
        tolerance: 1e-8,
        laplace: precision > 0.0,
        curvature: Curvature::for_columns(x.ncols()),
        warm_start,
    };
    fit(
        x.as_ref(),
        y,
        &settings,
        "warm",
        None,
        &mut |_: &str, _: &Iterate| {},
    )
    .unwrap()
}

#[test]
fn the_stride_depends_on_rows_and_columns_alone() {
    // m = max(10,000, 100 D) rows, k = N / m, used from k = 8 on.
    assert_eq!(stride(100_000, 5), Some(10));
    assert_eq!(stride(80_000, 5), Some(8));
    assert_eq!(stride(79_999, 5), None);
    assert_eq!(stride(1_000_000, 50), Some(100));
    assert_eq!(stride(100_000, 255), None);
    assert_eq!(stride(10_000, 9), None);
    // From 256 columns (chord Newton): m = max(10,000, 50 D), used from k = 4 on.
    assert_eq!(stride(100_000, 256), Some(7));
    assert_eq!(stride(1_000_000, 500), Some(40));
    assert_eq!(stride(100_000, 500), Some(4));
    assert_eq!(stride(99_999, 500), None);
}

#[test]
fn a_warm_start_reaches_the_same_posterior_with_fewer_hessian_passes() {
    let (x, y) = synthetic(200_000, 6, 19);
    for precision in [1.0, 0.0] {
        let warm = run(&x, &y, precision, true);
        let cold = run(&x, &y, precision, false);
        assert!(warm.outcome.termination.converged() && cold.outcome.termination.converged());
        // Counted, not timed: the same bits on any number of threads.
        assert!(
            warm.passes.hessian + 2 <= cold.passes.hessian,
            "lambda {precision}: warm {:?}, cold {:?}",
            warm.passes,
            cold.passes
        );
        assert_same_posterior(&warm, &cold, precision > 0.0);
    }
}

/// At a chord width the subsample is 50 rows a column (k = 4 here: 51,200 x 256, 12,800
/// rows): the chord fit from its mode reaches the fit from w = 0 with fewer Hessian passes.
#[test]
fn a_wide_warm_start_reaches_the_same_posterior_with_fewer_hessian_passes() {
    let (x, y) = synthetic(51_200, 256, 23);
    assert_eq!(stride(51_200, 256), Some(4));
    let warm = run(&x, &y, 1.0, true);
    let cold = run(&x, &y, 1.0, false);
    assert!(warm.outcome.termination.converged() && cold.outcome.termination.converged());
    assert!(
        warm.passes.hessian < cold.passes.hessian,
        "warm {:?}, cold {:?}",
        warm.passes,
        cold.passes
    );
    assert_same_posterior(&warm, &cold, true);
}

/// Rows 0, k, 2k, ... of `chunks`, as the streamed fit gathers them.
fn gather(chunks: &dyn Chunks, columns: usize, k: usize) -> Result<(Mat<f64>, Vec<f64>)> {
    let mut subsample = Subsample::new(k, columns);
    chunks.each(&mut |x, y| {
        subsample.add(x, y);
        Ok(())
    })?;
    Ok(subsample.finish())
}

/// The rows of an in-memory matrix handed out in chunks of `rows`.
struct Pieces<'a> {
    x: &'a Mat<f64>,
    y: &'a [f64],
    rows: usize,
}

impl Chunks for Pieces<'_> {
    fn each(&self, f: &mut ChunkFn<'_>) -> Result<()> {
        let n = self.y.len();
        for start in (0..n).step_by(self.rows) {
            let len = self.rows.min(n - start);
            f(
                self.x.as_ref().subrows(start, len),
                &self.y[start..start + len],
            )?;
        }
        Ok(())
    }
}

#[test]
fn the_subsample_is_the_same_rows_in_memory_and_in_chunks() {
    let (x, y) = synthetic(1_003, 4, 5);
    let k = 7;
    let (xm, ym) = gather(
        &InMemory {
            x: x.as_ref(),
            y: &y,
        },
        4,
        k,
    )
    .unwrap();
    // Rows 0, 7, ..., 1,001.
    assert_eq!(ym.len(), 144);
    for (i, &label) in ym.iter().enumerate() {
        assert_eq!(label, y[i * k]);
        for j in 0..4 {
            assert_eq!(xm[(i, j)], x[(i * k, j)]);
        }
    }
    for rows in [1, 6, 7, 37, 1_000] {
        let (xc, yc) = gather(&Pieces { x: &x, y: &y, rows }, 4, k).unwrap();
        assert_eq!(yc, ym, "chunks of {rows}");
        assert_eq!(xc, xm, "chunks of {rows}");
    }
}
