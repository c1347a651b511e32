//! The runner: every method of a plan fitted from its source, every predictive evaluated on the
//! test rows, and one [`ExperimentRecord`] built from them. The same code runs a dataset held in
//! memory (one chunk) and a streamed file; the only difference is when the prediction pass
//! runs: after each fit in memory (so each run finishes as soon as it can), once for all runs
//! after the fits when streamed (one pass over the test rows instead of one per run).

use std::path::Path;
use std::sync::atomic::AtomicBool;

use super::fit::fit;
use super::loaded::Loaded;
use super::monitor::{Monitor, Recorder};
use super::predict::predict;
use super::sink::Sink;
use super::source::FIT_GRADIENT;
use crate::config::Plan;
use crate::data::PassStats;
use crate::error::Result;
use crate::model::method::Fitted;
use crate::model::PredictiveKind;
use crate::record::{ExperimentRecord, PassRecord, RunPasses, RunRecord};

/// Run every method of `plan` on `source`. Files made before the output (a streamed
/// predictions.csv) go beside `out`.
pub fn run_on(
    plan: &Plan,
    loaded: &Loaded,
    monitor: &mut dyn Monitor,
    cancel: Option<&AtomicBool>,
    out: Option<&Path>,
) -> Result<ExperimentRecord> {
    let source = loaded.source();
    let mut info = source.info(plan.data.as_ref());
    info.standardized = plan.data.as_ref().is_some_and(|d| d.standardize);
    let mut passes: Vec<PassRecord> = match source.streamed() {
        Some(d) => d
            .preparation
            .iter()
            .map(|(purpose, s)| pass_record(purpose, None, s))
            .collect(),
        None => Vec::new(),
    };
    monitor.data_loaded(&info);
    for p in &passes {
        monitor.pass_finished(p);
    }
    crate::config::limits::check_design(plan, source.columns().len(), source.rows_test())?;
    let weights = source.columns().len();
    if plan.evaluation.record_steps
        && (weights > crate::record::STEPS_MAX_WEIGHTS || source.whole().is_none())
    {
        info.notes.push(format!(
            "[evaluation] record_steps = true: no steps recorded, they are kept only for a model held in memory with at most {} \
             weights (this one has {weights}{})",
            crate::record::STEPS_MAX_WEIGHTS,
            if source.whole().is_none() { ", streamed" } else { "" }
        ));
    }
    let probe = monitor.pass_probe();
    let mut recorder = Recorder {
        rows: Vec::new(),
        monitor,
        chains: None,
    };
    let mut sink = match source.whole() {
        Some(_) => Sink::memory(),
        None => Sink::file(&plan.name, out)?,
    };
    let total = plan.methods.len();
    let mut runs: Vec<RunRecord> = Vec::with_capacity(total);
    let mut fitted: Vec<Option<Fitted>> = Vec::with_capacity(total);
    let mut run_passes = Vec::new();
    for (i, method) in plan.methods.iter().enumerate() {
        recorder.monitor.run_started(i, total, &method.id);
        let outcome = fit(plan, method, source, &mut recorder, probe.clone(), cancel)?;
        run_passes.push(fit_passes(&method.id, &outcome.passes));
        for (purpose, s) in &outcome.passes {
            let p = pass_record(purpose, Some(&method.id), s);
            recorder.monitor.pass_finished(&p);
            passes.push(p);
        }
        runs.push(outcome.record);
        fitted.push(outcome.fitted);
        if let Some(dataset) = source.whole() {
            predict(
                plan,
                source,
                &mut runs,
                &fitted,
                &[i],
                true,
                &mut sink,
                None,
                recorder.monitor,
            )?;
            let wants_curve = recorder.monitor.wants_mc_curve()
                && method.predictives.contains(&PredictiveKind::Mc);
            if let (true, Some(fit), None) = (wants_curve, &fitted[i], &runs[i].error) {
                super::mc_curve::mc_curve(plan, method, dataset, fit, recorder.monitor, cancel)?;
            }
            recorder.monitor.run_finished(&runs[i]);
        }
    }
    let mut kept_bytes = 0;
    if let Some(data) = source.streamed() {
        let (keep, bytes) = super::keep::streamed(plan, data, &fitted, &mut info.notes);
        kept_bytes = bytes;
        let all: Vec<usize> = (0..total).collect();
        let stats = predict(
            plan,
            source,
            &mut runs,
            &fitted,
            &all,
            keep,
            &mut sink,
            probe.as_ref(),
            recorder.monitor,
        )?;
        if let Some(s) = stats {
            passes.push(pass_record("predict", None, &s));
            recorder.monitor.pass_finished(&passes[passes.len() - 1]);
        }
        for run in &runs {
            recorder.monitor.run_finished(run);
        }
    }
    let (evidence, evidence_passes) =
        super::true_evidence::estimates(plan, source, &fitted, &runs, recorder.monitor)?;
    for (run, purpose, stats) in evidence_passes {
        let p = pass_record(purpose, Some(&run), &stats);
        recorder.monitor.pass_finished(&p);
        passes.push(p);
    }
    let streaming = source.streaming_record().map(|mut s| {
        s.kept_prediction_bytes = kept_bytes;
        s.passes = passes;
        s.runs = run_passes;
        s
    });
    let trace = recorder.rows;
    let input_space = source
        .whole()
        .and_then(|d| super::input_space::input_space(plan, d, &fitted, &runs));
    let exact_contours = source
        .whole()
        .and_then(|d| super::exact_pairs::exact_contours(plan, d, &fitted, &runs));
    let mut record = super::build::record(
        plan,
        super::build::Parts {
            dataset: info,
            digests: loaded.digests.clone(),
            runs,
            predictions: sink.finish()?,
            trace,
            streaming,
            evidence,
        },
    )?;
    if let Some((main, more)) = input_space {
        record.input_space = Some(main);
        record.input_space_pairs = more;
    }
    record.exact_contours = exact_contours;
    Ok(record)
}

fn pass_record(purpose: &str, run: Option<&str>, s: &PassStats) -> PassRecord {
    PassRecord {
        purpose: purpose.to_string(),
        run: run.map(str::to_string),
        chunks: s.chunks,
        rows: s.rows,
        seconds: s.seconds,
        read_seconds: s.read_seconds,
        read_from: s.read_from,
        reader_cpu_seconds: s.reader_cpu_seconds,
    }
}

/// A run's fit passes (not k-hat's), with and without the Hessian: the in-memory fit's Newton
/// points match them one for one.
fn fit_passes(run: &str, passes: &[(&str, PassStats)]) -> RunPasses {
    let fit: Vec<&PassStats> = passes
        .iter()
        .filter(|(p, _)| *p == "fit" || *p == FIT_GRADIENT)
        .map(|(_, s)| s)
        .collect();
    let gradient_passes = passes.iter().filter(|(p, _)| *p == FIT_GRADIENT).count();
    let seconds: f64 = fit.iter().map(|s| s.seconds).sum();
    let read: f64 = fit.iter().map(|s| s.read_seconds).sum();
    let n = fit.len().max(1) as f64;
    RunPasses {
        run: run.to_string(),
        passes: fit.len(),
        gradient_passes,
        seconds,
        seconds_per_pass: seconds / n,
        read_seconds_per_pass: read / n,
    }
}
