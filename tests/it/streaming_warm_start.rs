//! The warm start (model/warm_start.rs) streamed: 80,000 training rows of 5 design columns
//! call for one (every 8th row), which the streamed fit gathers in one pass over the file;
//! from there both fits take the same Newton steps, and the streamed run equals the in-memory
//! one to 1e-10.

use std::path::{Path, PathBuf};

use crate::util::streaming::{assert_equal, run};

/// 100,000 rows of four features uniform on (-2, 2) and labels from weights (0.8, -0.5, 0.3,
/// 0); a fifth of them held out by the split.
fn write_csv(to: &Path) {
    let mut state: u64 = 23;
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut text = String::from("x1,x2,x3,x4,y\n");
    for _ in 0..100_000 {
        let v: Vec<f64> = (0..4).map(|_| 4.0 * next() - 2.0).collect();
        let a = 0.2 + 0.8 * v[0] - 0.5 * v[1] + 0.3 * v[2];
        let y = u8::from(next() < 1.0 / (1.0 + (-a).exp()));
        text.push_str(&format!("{},{},{},{},{y}\n", v[0], v[1], v[2], v[3]));
    }
    std::fs::write(to, text).unwrap();
}

fn experiment(dir: &Path, csv: &Path, streamed: bool) -> PathBuf {
    let stream = if streamed {
        "streaming = true\nchunk_rows = 997\n"
    } else {
        ""
    };
    let text = format!(
        "name = \"many\"\nseed = 3\n[data]\npath = {:?}\ntarget = \"y\"\n\
         split = {{ every = 5, offset = 4 }}\n{stream}[prior]\nprecision = 1.0\n\
         [[method]]\nkind = \"logistic-mle\"\n[[method]]\nkind = \"logistic-map\"\n",
        csv.display().to_string()
    );
    let file = dir.join(if streamed {
        "streamed.toml"
    } else {
        "memory.toml"
    });
    std::fs::write(&file, text).unwrap();
    file
}

#[test]
fn a_warm_started_fit_streams_and_equals_in_memory() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("many.csv");
    write_csv(&csv);
    let memory = run(&experiment(dir.path(), &csv, false));
    let streamed = run(&experiment(dir.path(), &csv, true));
    let info = streamed.streaming.as_ref().unwrap();
    assert_eq!(info.runs.len(), 2);
    for (r, fitted) in info.runs.iter().zip(&memory.runs) {
        // One pass gathers the subsample (E and g's kind: O(N D), labelled fit-grad); then full
        // Newton (5 columns): the start is a gradient pass (its first step uses the subsample's
        // Hessian, optim/newton/guess.rs) and every step one Hessian pass; from the subsample's
        // mode at most 4 steps (tests/it/warm_start.rs compares with w = 0). Maximum likelihood also
        // checks X^T X for collinear columns at w = 0 first, which is no longer Newton's start.
        let precheck = usize::from(r.run == "logistic-mle");
        assert_eq!(r.gradient_passes, 2, "{r:?}");
        assert_eq!(r.passes - 1 - precheck, fitted.iterations + 1, "{r:?}");
        assert!(
            fitted.iterations <= 4,
            "{}: {}",
            fitted.id,
            fitted.iterations
        );
    }
    assert_equal(&streamed, &memory);
}
