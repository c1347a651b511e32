//! Shared by the TUI tests: an app driven through its real transitions, with the engine run
//! on the test thread instead of the worker thread.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc;

use bayeslab_tui::catalog::Catalog;
use bayeslab_tui::worker::run_blocking;
use bayeslab_tui::{App, Command, Event};
use ratatui::crossterm::event::{KeyCode, KeyEvent};

pub fn key(code: KeyCode) -> Event {
    Event::Key(KeyEvent::from(code))
}

pub fn ch(c: char) -> Event {
    key(KeyCode::Char(c))
}

/// The workbench on experiments/ with `file` (e.g. "quickstart") selected.
pub fn app_on(file: &str) -> App {
    let path = Path::new("experiments").join(format!("{file}.toml"));
    App::new(Catalog::discover(Path::new("experiments"), Some(&path)))
}

/// Press `r` and run the started job to the end, feeding every event back to the app.
pub fn run_to_end(app: &mut App) {
    let Some(Command::Start { job, plan }) = app.update(ch('r')) else {
        panic!("r did not start a job; status: {}", app.status.text);
    };
    let (tx, rx) = mpsc::channel();
    run_blocking(job, &plan, &tx, &AtomicBool::new(false));
    drop(tx);
    for event in rx {
        app.update(event);
    }
}

/// A finished app on the shipped experiment `file`.
#[allow(dead_code)]
pub fn finished(file: &str) -> App {
    let mut app = app_on(file);
    run_to_end(&mut app);
    app
}

/// A finished app on an experiment file outside experiments/ (e.g. a test fixture).
#[allow(dead_code)]
pub fn finished_file(path: &str) -> App {
    let mut app = App::new(Catalog::discover(
        Path::new("experiments"),
        Some(Path::new(path)),
    ));
    run_to_end(&mut app);
    app
}

/// Press `r` and run the started job to the end on this thread; its events, not yet applied.
#[allow(dead_code)]
pub fn run_events(app: &mut App) -> Vec<Event> {
    let Some(Command::Start { job, plan }) = app.update(ch('r')) else {
        panic!("r did not start a job; status: {}", app.status.text);
    };
    let (tx, rx) = mpsc::channel();
    run_blocking(job, &plan, &tx, &AtomicBool::new(false));
    drop(tx);
    rx.into_iter().collect()
}
