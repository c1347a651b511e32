//! The engine's progress hooks as the workbench uses them: every iterate reaches the monitor
//! exactly as trace.csv records it, and the Monte-Carlo curve ends on the reported predictive.

use std::path::Path;

use bayeslab_core::optim::Iterate;
use bayeslab_core::record::{ExperimentRecord, Scores};
use bayeslab_engine::run::{self as experiment, Event, Interest, Monitor};

#[derive(Default)]
struct Collect {
    iterates: Vec<(String, Iterate)>,
    mc: Vec<(String, usize, f64)>,
    loaded: usize,
    /// Runs starting and finishing, iterates and the k-hat phase, in the order they arrive.
    events: Vec<String>,
    /// The exact slices' pairs as they start: (run, done, total, rows).
    slices: Vec<(String, usize, usize, usize)>,
}

impl Monitor for Collect {
    fn event(&mut self, event: Event) {
        match event {
            Event::Iterate { run, iterate } => {
                self.events.push(format!("iterate {run}"));
                self.iterates.push((run, iterate));
            }
            Event::DataLoaded(_) => self.loaded += 1,
            Event::McEstimate { run, samples, mean } => self.mc.push((run, samples, mean)),
            Event::RunStarted { id, .. } => self.events.push(format!("started {id}")),
            Event::RunFinished(run) => self.events.push(format!("finished {}", run.id)),
            Event::KhatStarted { run, draws } => {
                self.events.push(format!("khat {run} {draws} draws"))
            }
            Event::Slicing {
                run,
                done,
                total,
                rows,
            } => self.slices.push((run, done, total, rows)),
            Event::KhatFinished { run, khat, seconds } => self
                .events
                .push(format!("khat {run} = {khat:?} in {seconds} s")),
            _ => {}
        }
    }

    fn wants(&self, interest: Interest) -> bool {
        interest == Interest::McCurve
    }
}

/// The shipped quickstart experiment, as `change` leaves its plan, run under a [`Collect`].
fn quickstart(
    change: impl FnOnce(&mut bayeslab_engine::config::Plan),
) -> (ExperimentRecord, Collect) {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/quickstart.toml");
    let mut plan = bayeslab_engine::config::load(&file).unwrap();
    change(&mut plan);
    let mut seen = Collect::default();
    let record = experiment::run(&plan, &mut seen, None).unwrap();
    (record, seen)
}

#[test]
fn the_khat_phase_reaches_the_monitor_between_the_fit_and_the_run_end() {
    let (record, seen) = quickstart(|plan| plan.evaluation.khat_draws = Some(400));
    let laplace = &record.runs[2];
    let (khat, seconds) = (laplace.khat, laplace.khat_seconds.unwrap());
    // The MLE and the MAP have no posterior: no phase, no seconds.
    assert!(record.runs[..2].iter().all(|r| r.khat_seconds.is_none()));
    let mut expected: Vec<String> = Vec::new();
    for run in &record.runs {
        expected.push(format!("started {}", run.id));
        let iterates = record.trace.iter().filter(|t| t.run == run.id).count();
        expected.extend((0..iterates).map(|_| format!("iterate {}", run.id)));
        if run.id == "logistic-laplace" {
            expected.push("khat logistic-laplace 400 draws".into());
            expected.push(format!("khat logistic-laplace = {khat:?} in {seconds} s"));
        }
        expected.push(format!("finished {}", run.id));
    }
    assert_eq!(seen.events, expected);
    assert!(khat.is_some());
}

#[test]
fn monitors_see_the_trace_and_the_monte_carlo_curve() {
    let (record, seen) = quickstart(|_| {});
    assert_eq!(seen.loaded, 1);
    let trace: Vec<(String, Iterate)> = record
        .trace
        .iter()
        .map(|t| (t.run.clone(), t.iterate.clone()))
        .collect();
    assert_eq!(seen.iterates, trace);
    // S/128, ..., S/2, S for the one run with an mc predictive (S = 10,000)
    let sizes: Vec<usize> = seen.mc.iter().map(|m| m.1).collect();
    assert_eq!(sizes, [78, 156, 312, 625, 1250, 2500, 5000, 10000]);
    assert!(seen.mc.iter().all(|m| m.0 == "logistic-laplace"));
    let laplace = record
        .runs
        .iter()
        .find(|r| r.id == "logistic-laplace")
        .unwrap();
    assert!(laplace
        .predictives
        .iter()
        .any(|p| p.name == bayeslab_core::catalog::PredictiveKind::Mc));
    let Scores::Binary(mc) = &record
        .predictions
        .column("logistic-laplace", "mc")
        .unwrap()
        .scores
    else {
        panic!("a binary target has one column per predictive")
    };
    let mean = mc.iter().sum::<f64>() / mc.len() as f64;
    assert_eq!(
        seen.mc.last().unwrap().2,
        mean,
        "the curve ends on the reported mc predictive"
    );
    // The estimates settle: the spread of the last three is below that of the first three.
    let spread = |v: &[(String, usize, f64)]| {
        let (lo, hi) = v
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), m| {
                (a.min(m.2), b.max(m.2))
            });
        hi - lo
    };
    assert!(spread(&seen.mc[5..]) <= spread(&seen.mc[..3]) + 1e-12);
}

#[test]
fn each_exact_slice_is_told_before_it_is_drawn_and_the_last_when_done() {
    let (record, seen) = quickstart(|_| {});
    let exact = record
        .exact_contours
        .expect("quickstart's Laplace run gets exact slices");
    assert_eq!(exact.source, bayeslab_core::record::ExactSource::Slice);
    let (total, rows) = (exact.pairs.len(), record.dataset.rows_train);
    assert!(total > 1);
    let expected: Vec<_> = (0..=total)
        .map(|done| (exact.run.clone(), done, total, rows))
        .collect();
    assert_eq!(seen.slices, expected);
}
