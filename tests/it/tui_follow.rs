//! The workbench follows what the runner reports beyond iterations: a `[sweep]` point by
//! point, ending on the sweep's table and plot, and a streamed run pass by pass, ending on the
//! same results as the in-memory run of the same experiment.

use crate::util::tui::{app_on, ch, finished, run_events};
use bayeslab_core::record::PassPurpose;
use bayeslab_engine::run::Event as Told;
use bayeslab_tui::{Event, Screen};

#[test]
fn a_sweep_runs_every_point_says_which_and_shows_its_table() {
    let mut app = app_on("prior_sweep");
    let events = run_events(&mut app);
    let mut labels = Vec::new();
    for event in events {
        let point = matches!(
            &event,
            Event::Progress {
                event: Told::SweepPoint(_),
                ..
            }
        );
        app.update(event);
        let s = app.session.as_ref().unwrap();
        if point {
            labels.push(s.point.as_ref().unwrap().label());
            // A new point's runs start over.
            assert!(s.runs.iter().all(|r| r.iterates.is_empty()));
        }
    }
    assert_eq!(labels.len(), 7);
    assert_eq!(labels[2], "point 3/7: prior.precision = 0.1");
    let sweep = app.sweep().expect("the sweep's record").clone();
    assert_eq!(sweep.key, "prior.precision");
    let values: Vec<f64> = sweep.points.iter().map(|p| p.value).collect();
    assert_eq!(values, [0.001, 0.01, 0.1, 1.0, 10.0, 100.0, 1000.0]);
    // Each point is a different run: the log-loss moves with the prior precision.
    let log_loss = |i: usize| {
        sweep.points[i].record.runs[0].predictives[0]
            .metrics
            .log_loss
    };
    assert_ne!(log_loss(0), log_loss(6));
    assert!(!app.status.error, "{}", app.status.text);
    assert!(app.status.text.contains("4 shows the sweep"));

    // The other screens show one point: the last, which Live drew and names (one current
    // point everywhere, issue 28), then as [ and ] pick.
    let shown = |app: &bayeslab_tui::App| {
        let r = app.session.as_ref().unwrap().record.as_ref().unwrap();
        r.runs[0].predictives[0].metrics.log_loss
    };
    assert_eq!(shown(&app), log_loss(6));
    let s = app.session.as_ref().unwrap();
    assert_eq!(s.shown_label(), s.point.as_ref().map(|p| p.label()));
    for _ in 0..10 {
        app.update(ch('['));
    }
    assert_eq!(shown(&app), log_loss(0));
    app.update(ch(']'));
    app.update(ch(']'));
    assert_eq!(shown(&app), log_loss(2));
    let s = app.session.as_ref().unwrap();
    assert_eq!(s.shown_label().unwrap(), "point 3/7: prior.precision = 0.1");
    for _ in 0..10 {
        app.update(ch(']'));
    }
    assert_eq!(shown(&app), log_loss(6));
    app.update(ch('['));
    assert_eq!(shown(&app), log_loss(5));

    // Results: the table scrolls within its 21 rows, m cycles the plotted metric.
    app.update(ch('4'));
    assert_eq!(app.screen, Screen::Results);
    for _ in 0..30 {
        app.update(ch('j'));
    }
    assert_eq!(app.picks.sweep_row, 20);
    app.update(ch('k'));
    assert_eq!(app.picks.sweep_row, 19);
    for _ in 0..6 {
        app.update(ch('m'));
    }
    assert_eq!(app.picks.sweep_metric, 0);
    app.update(ch('m'));
    assert_eq!(app.picks.sweep_metric, 1);
}

#[test]
fn exporting_a_sweep_writes_what_bayeslab_run_writes() {
    let mut app = finished("prior_sweep");
    let root = tempfile::tempdir().unwrap();
    app.export(root.path());
    assert_eq!(
        app.status.text,
        format!(
            "exported sweep.json, report.md, report.html and one folder per value to {}/ (open report.html)",
            root.path().join("runs/prior_sweep").display()
        )
    );
    let dir = root.path().join("runs/prior_sweep");
    let mut written: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    written.sort();
    let expected = bayeslab_report::render_sweep(app.sweep().unwrap());
    for a in &expected {
        let got = std::fs::read(dir.join(&a.name)).unwrap();
        assert!(got == a.bytes, "{} differs", a.name);
    }
    assert!(written.contains(&"sweep.json".to_string()));
    assert!(written.contains(&"prior.precision=0.1".to_string()));
    // The existing refusal rules hold: a directory that is no bayeslab output stays.
    let other = tempfile::tempdir().unwrap();
    let mine = other.path().join("runs/prior_sweep");
    std::fs::create_dir_all(&mine).unwrap();
    std::fs::write(mine.join("notes.txt"), "mine").unwrap();
    app.export(other.path());
    assert!(app.status.error, "{}", app.status.text);
    assert!(app.status.text.starts_with("export failed: "));
    assert!(mine.join("notes.txt").is_file());
}

#[test]
fn a_streamed_run_reports_its_dataset_and_passes_and_ends_on_the_in_memory_results() {
    let mut app = app_on("streaming");
    let events = run_events(&mut app);
    let mut reads = Vec::new();
    let mut labels = Vec::new();
    for event in events {
        if let Event::Progress {
            event: Told::Pass(p),
            ..
        } = &event
        {
            reads.push((p.purpose, p.run.clone(), p.rows_read, p.rows_total));
        }
        app.update(event);
        let s = app.session.as_ref().unwrap();
        if let Some(p) = &s.passes.current {
            labels.push(s.passes.label(p));
        }
    }
    // Chunk by chunk (64 file rows) through the training rows, for every fit pass.
    assert!(reads
        .iter()
        .any(|r| r.0 == PassPurpose::Fit && r.2 > 0 && r.2 <= 64));
    assert!(reads.iter().all(|r| r.2 <= r.3 && r.3 > 0));
    assert!(
        labels.contains(&"fit logistic-mle: pass 2, 103 / 426 rows".to_string()),
        "{labels:?}"
    );
    assert!(labels.contains(&"predict (every run): pass 1, 106 / 106 rows".to_string()));
    let s = app.session.as_ref().unwrap();
    let dataset = s.dataset.as_ref().expect("the Dataset screen fills");
    assert_eq!(dataset.summaries.len(), dataset.features);
    assert_eq!((dataset.rows_train, dataset.rows_test), (426, 106));
    let purposes: Vec<&str> = s.passes.done.iter().map(|p| p.purpose.name()).collect();
    for purpose in ["statistics", "fit", "predict"] {
        assert!(purposes.contains(&purpose), "{purposes:?}");
    }
    assert!(s.passes.current.is_none(), "the last pass has finished");
    let record = s.record.as_ref().unwrap();
    assert_eq!(
        record.streaming.as_ref().unwrap().passes.len(),
        s.passes.done.len()
    );

    // The same results as the same experiment in memory.
    let mut plan = s.plan.clone();
    plan.data.as_mut().unwrap().streaming = None;
    let memory = bayeslab_engine::run::run(&plan, &mut bayeslab_engine::run::Silent, None).unwrap();
    let rows = |r: &bayeslab_core::record::ExperimentRecord| -> Vec<(String, f64, f64)> {
        r.runs
            .iter()
            .flat_map(|run| {
                run.predictives.iter().map(move |p| {
                    let m = &p.metrics;
                    (format!("{}/{}", run.id, p.name), m.log_loss, m.accuracy)
                })
            })
            .collect()
    };
    let (streamed, memory) = (rows(record), rows(&memory));
    assert_eq!(streamed.len(), memory.len());
    for (a, b) in streamed.iter().zip(&memory) {
        assert_eq!(a.0, b.0);
        assert!((a.1 - b.1).abs() < 1e-10, "{a:?} against {b:?}");
        assert_eq!(a.2, b.2);
    }
}

/// The read of the data file is never silent (issue 32): the worker reports the rows read,
/// the status line says them while the file is read, and says the run goes on once it is;
/// then each predictive's scoring of the test rows and of its metrics.
#[test]
fn the_status_line_follows_the_read_of_the_data() {
    let mut app = app_on("quickstart");
    let events = run_events(&mut app);
    let mut seen = Vec::new();
    let mut scored = Vec::new();
    for event in events {
        if let Event::Progress {
            event: Told::Scoring {
                run, predictive, ..
            },
            ..
        } = &event
        {
            scored.push(format!("{run}/{predictive}"));
        }
        let scoring = matches!(
            &event,
            Event::Progress {
                event: Told::Scoring { .. },
                ..
            }
        );
        let reading = match &event {
            Event::Progress {
                event: Told::Reading { rows, total, .. },
                ..
            } => Some((*rows, *total)),
            _ => None,
        };
        let loaded = matches!(
            &event,
            Event::Progress {
                event: Told::DataLoaded(_),
                ..
            }
        );
        app.update(event);
        if let Some(r) = reading {
            seen.push(r);
            assert!(app.status.text.contains("reading "), "{}", app.status.text);
            assert!(app.status.text.contains(" rows"), "{}", app.status.text);
        }
        if loaded {
            assert!(
                app.status.text.starts_with("running quickstart"),
                "{}",
                app.status.text
            );
        }
        if scoring {
            let text = &app.status.text;
            assert!(
                text.contains(": 106 test rows") || text.contains(": metrics, "),
                "{text}"
            );
        }
    }
    // every predictive twice: its predictions, then its metrics
    assert_eq!(scored.len(), 2 * 7, "{scored:?}");
    assert_eq!(scored[0], "logistic-mle/plugin");
    // pima.csv's 532 rows, read in one chunk (a CSV does not say its rows ahead)
    assert_eq!(seen, [(532, None)]);
}
