//! App state transitions without rendering: select, run, cancel, re-run, error display,
//! stale events from a cancelled job, sorting, export.

use std::sync::atomic::AtomicBool;
use std::sync::mpsc;

use crate::util::tui::{app_on, ch, finished, key};
use bayeslab_tui::session::{JobState, RunState};
use bayeslab_tui::worker::run_blocking;
use bayeslab_tui::{App, Command, Event, Screen};
use ratatui::crossterm::event::KeyCode;

fn selected_name(app: &App) -> String {
    app.catalog.current().map(|e| e.name()).unwrap_or_default()
}

#[test]
fn starts_on_the_quickstart_and_selection_moves_within_bounds() {
    let mut app = App::new(bayeslab_tui::catalog::Catalog::discover(
        std::path::Path::new("experiments"),
        None,
    ));
    assert_eq!(selected_name(&app), "quickstart");
    assert_eq!(app.screen, Screen::Experiments);
    // more presses than files, so that both ends are reached
    let n = app.catalog.entries.len() + 5;
    for _ in 0..n {
        app.update(key(KeyCode::Down));
    }
    assert_eq!(app.catalog.selected, app.catalog.entries.len() - 1);
    for _ in 0..n {
        app.update(ch('k'));
    }
    assert_eq!(app.catalog.selected, 0);
}

#[test]
fn run_switches_to_live_and_finishing_fills_the_record() {
    let mut app = finished("quickstart");
    let s = app.session.as_ref().unwrap();
    assert_eq!(s.state, JobState::Finished);
    assert_eq!(app.screen, Screen::Live);
    assert!(s.dataset.is_some());
    assert!(s.runs.iter().all(|r| matches!(r.state, RunState::Done(_))));
    assert!(s.runs.iter().all(|r| !r.iterates.is_empty()));
    let record = s.record.as_ref().unwrap();
    assert_eq!(record.runs.len(), 3);
    assert!(!app.status.error, "{}", app.status.text);
    app.update(ch('4'));
    assert_eq!(app.screen, Screen::Results);
}

#[test]
fn cancel_marks_the_job_and_ignores_its_late_events() {
    let mut app = app_on("quickstart");
    let Some(Command::Start { job, plan }) = app.update(ch('r')) else {
        panic!("no start")
    };
    assert_eq!(app.update(ch('c')), Some(Command::Cancel));
    // The worker honours the flag: the engine stops with Cancelled.
    let (tx, rx) = mpsc::channel();
    run_blocking(job, &plan, &tx, &AtomicBool::new(true));
    drop(tx);
    for e in rx {
        app.update(e);
    }
    let s = app.session.as_ref().unwrap();
    assert_eq!(s.state, JobState::Cancelled);
    assert!(s.record.is_none());
    assert!(app.status.text.contains("cancelled"));
    // Cancelling again has nothing to cancel.
    assert_eq!(app.update(ch('c')), None);
    // Re-run: a new job number; a late event from the old job is ignored.
    let Some(Command::Start { job: job2, .. }) = app.update(ch('r')) else {
        panic!("no re-run")
    };
    assert_ne!(job, job2);
    app.update(Event::Failed {
        job,
        error: "late".into(),
        cancelled: false,
    });
    assert_eq!(app.session.as_ref().unwrap().state, JobState::Running);
    assert!(app.running());
    // While running, r explains instead of starting a second job.
    assert_eq!(app.update(ch('r')), None);
    assert!(app.status.error);
}

#[test]
fn rerun_after_finishing_starts_a_fresh_session() {
    let mut app = finished("spector");
    let first = app.session.as_ref().unwrap().job;
    crate::util::tui::run_to_end(&mut app);
    let s = app.session.as_ref().unwrap();
    assert!(s.job > first);
    assert_eq!(s.state, JobState::Finished);
}

#[test]
fn invalid_experiment_shows_the_key_and_fix_and_does_not_run() {
    let bad = std::path::Path::new("tests/invalid_configs/unknown_key.toml");
    let mut app = App::new(bayeslab_tui::catalog::Catalog::discover(
        std::path::Path::new("experiments"),
        Some(bad),
    ));
    assert!(app.catalog.current().unwrap().plan.is_err());
    assert_eq!(app.update(ch('r')), None);
    assert!(app.status.error);
    assert!(
        app.status.text.contains("unknown_key.toml"),
        "{}",
        app.status.text
    );
    let shown = app.catalog.current().unwrap().plan.as_ref().unwrap_err();
    assert!(shown.contains("did you mean `precision`"), "{shown}");
    assert_eq!(app.screen, Screen::Experiments);
    assert!(app.session.is_none());
}

#[test]
fn a_failing_job_reports_its_error() {
    let mut app = app_on("quickstart");
    let Some(Command::Start { job, .. }) = app.update(ch('r')) else {
        panic!("no start")
    };
    app.update(Event::Failed {
        job,
        error: "data.csv: cannot read".into(),
        cancelled: false,
    });
    assert!(app.status.error);
    assert_eq!(app.status.text, "data.csv: cannot read");
    assert!(matches!(app.session.unwrap().state, JobState::Failed(_)));
}

#[test]
fn screens_help_and_quit() {
    let mut app = app_on("quickstart");
    app.update(key(KeyCode::Tab));
    assert_eq!(app.screen, Screen::Dataset);
    app.update(key(KeyCode::BackTab));
    app.update(key(KeyCode::BackTab));
    assert_eq!(
        app.screen,
        Screen::Reparam,
        "Shift-Tab wraps to the last screen"
    );
    app.update(key(KeyCode::BackTab));
    assert_eq!(app.screen, Screen::Posterior);
    app.update(ch('?'));
    assert!(app.help);
    app.update(ch('1')); // ignored while help is open
    assert_eq!(app.screen, Screen::Posterior);
    app.update(key(KeyCode::Esc));
    assert!(!app.help);
    assert_eq!(app.update(ch('q')), Some(Command::Quit));
    assert!(app.quit);
}

#[test]
fn results_sort_cycles_and_selection_is_clamped() {
    let mut app = finished("quickstart");
    app.update(ch('4'));
    for _ in 0..10 {
        app.update(key(KeyCode::Right));
    }
    assert_eq!(app.picks.column, 5);
    app.update(ch('s'));
    assert_eq!(
        app.picks.sort.map(|s| (s.column, s.reversed)),
        Some((5, false))
    );
    app.update(ch('s'));
    assert_eq!(app.picks.sort.map(|s| s.reversed), Some(true));
    app.update(ch('s'));
    assert_eq!(app.picks.sort, None);
    app.update(ch('5'));
    for _ in 0..50 {
        app.update(ch('j'));
    }
    assert_eq!(app.picks.calibration, 2); // the third run, the last with predictives
}

#[test]
fn export_writes_the_report_and_says_where() {
    let mut app = app_on("spector");
    app.export(std::path::Path::new("."));
    assert!(app.status.error, "nothing to export before a run");
    crate::util::tui::run_to_end(&mut app);
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(app.update(ch('e')), Some(Command::Export));
    app.export(dir.path());
    assert_eq!(
        app.status.text,
        format!(
            "exported results.json, predictions.csv, trace.csv, report.md and report.html to {}/ (open report.html)",
            dir.path().join("runs/spector").display()
        )
    );
    for f in [
        "results.json",
        "predictions.csv",
        "trace.csv",
        "report.md",
        "report.html",
    ] {
        assert!(dir.path().join("runs/spector").join(f).is_file(), "{f}");
    }
}

#[test]
fn export_names_an_absolute_directory_when_the_root_is_relative() {
    let mut app = app_on("spector");
    crate::util::tui::run_to_end(&mut app);
    let cwd = std::env::current_dir().unwrap();
    let scratch = tempfile::tempdir_in(&cwd).unwrap();
    let name = scratch.path().file_name().unwrap().to_owned();
    app.export(std::path::Path::new(&name));
    let abs = cwd.join(&name).join("runs/spector");
    assert!(
        app.status
            .text
            .contains(&format!(" to {}/ ", abs.display())),
        "{}",
        app.status.text
    );
}

#[test]
fn samplers_get_chain_traces_and_live_picks_which_one_is_shown() {
    let mut app = finished("gibbs_vs_laplace");
    let s = app.session.as_ref().unwrap();
    let ids: Vec<&str> = s.runs.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(
        ids,
        ["laplace", "gibbs", "probit-laplace", "ep", "gibbs-probit"]
    );
    // Only the samplers have traces: every sweep and kept draw of all 4 chains arrived.
    let sampled: Vec<usize> = (0..5).filter(|&i| s.runs[i].traces.is_some()).collect();
    assert_eq!(sampled, [1, 4]);
    let record = s.record.as_ref().unwrap();
    for &i in &sampled {
        let t = s.runs[i].traces.as_ref().unwrap();
        assert_eq!(t.names, ["npreg", "glu", "bp"], "the first three features");
        assert_eq!(t.chains.len(), 4);
        assert_eq!((t.sweeps(), t.kept(), t.rhat_draws), (1200, 1000, 1000));
        // The traced weights' R-hat is part of the record's maximum over all weights.
        let d = record.runs[i].diagnostics.unwrap();
        let live = t.rhat_max().unwrap();
        assert!(
            live <= d.rhat_max && live > 0.99,
            "{live} vs {}",
            d.rhat_max
        );
        assert_eq!(s.runs[i].diagnostics, Some(d));
        assert_eq!(s.runs[i].ratio(), 1.0);
    }
    // Live follows the last sampler; Up/Down step between samplers; t shows the rank plots,
    // then hides the panel, then brings the traces back.
    assert_eq!(s.traced_run(app.picks.trace), Some(4));
    app.update(ch('3'));
    app.update(key(KeyCode::Up));
    assert_eq!(app.picks.trace, Some(1));
    app.update(ch('k'));
    assert_eq!(app.picks.trace, Some(1), "stays on the first sampler");
    app.update(ch('j'));
    assert_eq!(app.picks.trace, Some(4));
    app.update(ch('t'));
    assert!(app.picks.ranks && !app.picks.hide_traces);
    app.update(ch('t'));
    assert!(app.picks.hide_traces && !app.picks.ranks);
    app.update(ch('t'));
    assert!(!app.picks.hide_traces && !app.picks.ranks);
    // A run without samplers has no traces to show.
    let quick = finished("quickstart");
    let s = quick.session.as_ref().unwrap();
    assert!(s.runs.iter().all(|r| r.traces.is_none()));
    assert_eq!(s.traced_run(None), None);
}

#[test]
fn chains_that_have_not_mixed_are_flagged_when_the_run_finishes() {
    let app = crate::util::tui::finished_file("tests/fixtures/short_chains.toml");
    let s = app.session.as_ref().unwrap();
    let d = s.runs[1].diagnostics.unwrap();
    assert!(
        d.rhat_max > 1.01,
        "8 draws from far-apart starts: {}",
        d.rhat_max
    );
    assert!(app.status.error);
    assert!(
        app.status.text.contains("gibbs have not mixed"),
        "{}",
        app.status.text
    );
    let record = s.record.as_ref().unwrap();
    let rows = bayeslab_tui::screen::result_rows(record, &app.picks);
    let flagged: Vec<&str> = rows
        .iter()
        .filter(|r| r.unmixed)
        .map(|r| r.label.as_str())
        .collect();
    assert_eq!(flagged, ["gibbs/plugin", "gibbs/exact"]);
}
