//! The runner: every method of a plan fitted from its source, every predictive evaluated on the
//! test rows, and one [`ExperimentRecord`] built from them. The same code runs a dataset held in
//! memory (one chunk) and a streamed file; the only difference is when the prediction pass
//! runs: after each fit in memory (so each run finishes as soon as it can), once for all runs
//! after the fits when streamed (one pass over the test rows instead of one per run).

use std::path::Path;
use std::sync::atomic::AtomicBool;

use super::event::{Event, Interest};
use super::fit::fit;
use super::loaded::Loaded;
use super::monitor::{Events, Recorder};
use super::predict::predict;
use super::sink::Sink;
use super::source::Source;
use crate::config::Plan;
use bayeslab_core::error::Result;
use bayeslab_core::model::method::Fitted;
use bayeslab_core::model::PredictiveKind;
use bayeslab_core::record::{ExperimentRecord, PassPurpose, PassRecord, RunPasses, RunRecord};
use bayeslab_data::PassStats;

/// Run every method of `plan` on `source`. Files made before the output (a streamed
/// predictions.csv) go beside `out`.
pub fn run_on(
    plan: &Plan,
    loaded: &Loaded,
    events: Events<'_>,
    cancel: Option<&AtomicBool>,
    out: Option<&Path>,
) -> Result<ExperimentRecord> {
    let source = loaded.source();
    let mut info = source.info(plan.data.as_ref());
    info.standardized = plan.data.as_ref().is_some_and(|d| d.standardize);
    let mut g = Gathered::default();
    if let Some(d) = source.streamed() {
        let data_passes = d.preparation.iter();
        g.passes = data_passes
            .map(|(purpose, s)| pass_record(*purpose, None, s))
            .collect();
    }
    events.send(Event::DataLoaded(Box::new(info.clone())));
    for p in &g.passes {
        events.send(Event::PassFinished(Box::new(p.clone())));
    }
    crate::config::limits::check_design(plan, source.columns().len(), source.rows_test())?;
    note_unrecorded_steps(plan, source, &mut info.notes);
    let runner = Runner {
        plan,
        source,
        cancel,
    };
    let mut recorder = Recorder {
        rows: Vec::new(),
        events,
        chains: None,
    };
    let mut sink = match source.whole() {
        Some(_) => Sink::memory(),
        None => Sink::file(&plan.name, out)?,
    };
    runner.fit_each(&mut recorder, &mut sink, &mut g)?;
    let kept_bytes = runner.predict_streamed(events, &mut sink, &mut g, &mut info.notes)?;
    let (evidence, evidence_passes) =
        super::true_evidence::estimates(plan, source, &g.fitted, &g.runs, events)?;
    for (run, purpose, stats) in evidence_passes {
        g.passed(pass_record(purpose, Some(&run), &stats), events);
    }
    let streaming = source.streaming_record().map(|mut s| {
        s.kept_prediction_bytes = kept_bytes;
        s.passes = g.passes;
        s.runs = g.run_passes;
        s
    });
    let input_space = source
        .whole()
        .and_then(|d| super::input_space::input_space(plan, d, &g.fitted, &g.runs));
    let exact_contours = source
        .whole()
        .and_then(|d| super::exact_pairs::exact_contours(plan, d, (&g.fitted, &g.runs), events));
    let mut record = super::build::record(
        plan,
        super::build::Parts {
            dataset: info,
            digests: loaded.digests.clone(),
            runs: g.runs,
            predictions: sink.finish()?,
            trace: recorder.rows,
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

/// `[evaluation] record_steps` asked for what cannot be kept: say so in the notes.
fn note_unrecorded_steps(plan: &Plan, source: Source<'_>, notes: &mut Vec<String>) {
    let weights = source.columns().len();
    if plan.evaluation.record_steps
        && (weights > bayeslab_core::record::STEPS_MAX_WEIGHTS || source.whole().is_none())
    {
        notes.push(format!(
            "[evaluation] record_steps = true: no steps recorded, they are kept only for a model held in memory with at most {} \
             weights (this one has {weights}{})",
            bayeslab_core::record::STEPS_MAX_WEIGHTS,
            if source.whole().is_none() { ", streamed" } else { "" }
        ));
    }
}

/// What the runs gather as they go: each run's record and fit, every pass over the data, and
/// each run's fit passes.
#[derive(Default)]
struct Gathered {
    runs: Vec<RunRecord>,
    fitted: Vec<Option<Fitted>>,
    passes: Vec<PassRecord>,
    run_passes: Vec<RunPasses>,
}

impl Gathered {
    /// One more pass over the data, told to the monitor.
    fn passed(&mut self, p: PassRecord, events: Events<'_>) {
        events.send(Event::PassFinished(Box::new(p.clone())));
        self.passes.push(p);
    }
}

/// What every step of a run reads: the plan, its data and the user's cancel.
struct Runner<'a> {
    plan: &'a Plan,
    source: Source<'a>,
    cancel: Option<&'a AtomicBool>,
}

impl Runner<'_> {
    /// Fit every method in turn; in memory each run is predicted (and its Monte-Carlo curve
    /// drawn when the workbench wants it) and finished at once.
    fn fit_each(&self, recorder: &mut Recorder, sink: &mut Sink, g: &mut Gathered) -> Result<()> {
        let (plan, source) = (self.plan, self.source);
        let total = plan.methods.len();
        for (i, method) in plan.methods.iter().enumerate() {
            let events = recorder.events;
            events.send(Event::RunStarted {
                index: i,
                total,
                id: method.id.clone(),
            });
            let outcome = fit(plan, method, source, recorder, self.cancel)?;
            g.run_passes.push(fit_passes(&method.id, &outcome.passes));
            for (purpose, s) in &outcome.passes {
                g.passed(pass_record(*purpose, Some(&method.id), s), events);
            }
            g.runs.push(outcome.record);
            g.fitted.push(outcome.fitted);
            let Some(dataset) = source.whole() else {
                continue;
            };
            predict(
                plan,
                source,
                &mut g.runs,
                &g.fitted,
                &[i],
                true,
                sink,
                events,
            )?;
            let wants_curve =
                events.wants(Interest::McCurve) && method.predictives.contains(&PredictiveKind::Mc);
            if let (true, Some(fit), None) = (wants_curve, &g.fitted[i], &g.runs[i].error) {
                super::mc_curve::mc_curve(plan, method, dataset, fit, events, self.cancel)?;
            }
            events.send(Event::RunFinished(Box::new(g.runs[i].clone())));
        }
        Ok(())
    }

    /// A streamed run's one prediction pass for all runs, after the fits; the bytes of
    /// predictions it keeps in memory (none in memory: each run was predicted after its fit).
    fn predict_streamed(
        &self,
        events: Events<'_>,
        sink: &mut Sink,
        g: &mut Gathered,
        notes: &mut Vec<String>,
    ) -> Result<u64> {
        let Some(data) = self.source.streamed() else {
            return Ok(0);
        };
        let (keep, bytes) = super::keep::streamed(self.plan, data, &g.fitted, notes);
        let all: Vec<usize> = (0..self.plan.methods.len()).collect();
        let (plan, source) = (self.plan, self.source);
        let stats = predict(
            plan,
            source,
            &mut g.runs,
            &g.fitted,
            &all,
            keep,
            sink,
            events,
        )?;
        if let Some(s) = stats {
            g.passed(pass_record(PassPurpose::Predict, None, &s), events);
        }
        for run in &g.runs {
            events.send(Event::RunFinished(Box::new(run.clone())));
        }
        Ok(bytes)
    }
}

fn pass_record(purpose: PassPurpose, run: Option<&str>, s: &PassStats) -> PassRecord {
    PassRecord {
        purpose,
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
fn fit_passes(run: &str, passes: &[(PassPurpose, PassStats)]) -> RunPasses {
    let fit: Vec<&PassStats> = passes
        .iter()
        .filter(|(p, _)| matches!(p, PassPurpose::Fit | PassPurpose::FitGrad))
        .map(|(_, s)| s)
        .collect();
    let gradient_passes = passes
        .iter()
        .filter(|(p, _)| *p == PassPurpose::FitGrad)
        .count();
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
