//! The Monte-Carlo predictive on the test rows, after a fit that is not timed.

use super::fit::{laplace_fit, Fitting};
use super::measurement::{record, timed, Progress};
use crate::bench::files::FileSet;
use crate::bench::{memory, PredictDetail, Settings};
use crate::bench::{Task, TaskRecord};
use bayeslab_core::error::{Error, Result};
use bayeslab_core::model::predictive::{self, PredictiveKind, PredictiveSettings};
use bayeslab_core::numeric::rng::stream;

pub(super) fn predict(
    train: &FileSet,
    test: &FileSet,
    settings: &Settings,
    progress: Progress<'_>,
) -> Result<TaskRecord> {
    let posterior = {
        let data = train.load()?;
        progress(&format!(
            "predict: fitting the posterior on {} (not timed)",
            data.file.display()
        ));
        laplace_fit(&data.x, &data.y, settings.lambda, Fitting::AsRun, progress)?.1
    };
    let data = test.load()?;
    let (n, d) = (data.x.nrows(), data.x.ncols());
    if d != posterior.mean.len() {
        return Err(Error::data(
            &data.file,
            format!(
                "the test rows have {d} columns but the training rows {}; write both with the same `bayeslab synth --features` (use --test-rows)",
                posterior.mean.len()
            ),
        ));
    }
    let reset = memory::reset_peak();
    let mut seconds = Vec::new();
    let mut mean = 0.0;
    let ps = PredictiveSettings {
        mc_samples: settings.samples,
        quadrature_nodes: 64,
        first_row: 0,
    };
    for rep in 0..settings.reps {
        let (p, s) = timed(|| {
            let act = posterior.activations(data.x.as_ref());
            let mut rng = stream(settings.seed, "bench/mc");
            Ok(predictive::predict(PredictiveKind::Mc, &act, ps, &mut rng))
        })?;
        mean = p.iter().sum::<f64>() / n as f64;
        progress(&format!("predict {}/{}: {s:.3} s", rep + 1, settings.reps));
        seconds.push(s);
    }
    let mut r = record(Task::Predict, &data.file, (n, d), seconds, reset);
    r.predict = Some(PredictDetail {
        samples: settings.samples,
        train_file: train.stem.display().to_string(),
        mean_probability: mean,
    });
    Ok(r)
}
