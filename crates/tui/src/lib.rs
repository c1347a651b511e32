//! The terminal workbench (ratatui + crossterm): the only module that touches the terminal.
//!
//! One loop: draw the [`App`] (a pure function of its state, in [`screen`]), wait for the
//! next [`Event`], [`App::update`], carry out the returned [`Command`]. Keys, resizes and
//! ticks come from an input thread, progress from the [`worker`] thread, the selected
//! experiment's dataset from the [`preview`] thread; all send on the same channel, so the UI
//! never blocks on the engine. `ratatui::init` installs a panic hook that restores the
//! terminal, [`run`] restores it on every other exit path, and a signal (SIGTERM, SIGHUP,
//! SIGINT, SIGQUIT) ends the loop so that it is restored then too (signals.rs). With `BAYESLAB_FAULT=tui-panic`
//! in the environment the loop panics after its first frame, so that the scripted tmux
//! session (tests/tmux_session.sh) can check the panic path too.

#![forbid(unsafe_code)]

pub mod app;
pub mod catalog;
pub mod chains;
mod describe;
pub mod event;
pub mod keys;
pub mod passes;
pub mod picks;
pub mod preview;
pub mod screen;
pub mod session;
mod signals;
pub mod sweep;
pub mod widget;
pub mod worker;

use std::path::Path;
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::Duration;

use ratatui::crossterm::event::{self as term, Event as TermEvent};
use ratatui::DefaultTerminal;

pub use app::{App, Command, Screen};
pub use event::Event;
use preview::Describer;
use worker::Worker;

/// How long the input thread waits for a key before sending a tick.
pub const TICK: Duration = Duration::from_millis(100);

/// Whether stdin and stdout are both a terminal, which the workbench draws on and reads keys
/// from (`ratatui::init` panics without one).
pub fn has_terminal() -> bool {
    use std::io::IsTerminal;
    std::io::stdin().is_terminal() && std::io::stdout().is_terminal()
}

/// Open the workbench on `experiments/` (relative to the working directory) plus `extra`.
/// Without a terminal ([`has_terminal`]) it returns an error instead of drawing. The exit
/// code: 0 when the user quits, 128 + the signal when a signal ended it.
pub fn run(extra: Option<&Path>) -> std::io::Result<i32> {
    if !has_terminal() {
        return Err(std::io::Error::other(
            "stdin or stdout is not a terminal; use `bayeslab run <experiment>`",
        ));
    }
    let app = App::new(catalog::Catalog::discover(Path::new("experiments"), extra));
    let (tx, rx) = mpsc::channel();
    // Before the terminal goes raw, so that no signal finds it raw without a handler.
    signals::watch(tx.clone())?;
    let mut terminal = ratatui::init();
    let result = event_loop(&mut terminal, app, tx, rx);
    ratatui::restore();
    result
}

fn event_loop(
    terminal: &mut DefaultTerminal,
    mut app: App,
    tx: Sender<Event>,
    rx: Receiver<Event>,
) -> std::io::Result<i32> {
    spawn_input(tx.clone());
    let mut worker: Option<Worker> = None;
    let describer = Describer::spawn(tx.clone());
    if let Some(Command::Describe { path, data }) = app.describe_selected() {
        describer.request(path, *data);
    }
    let fault = std::env::var_os("BAYESLAB_FAULT").is_some_and(|v| v == "tui-panic");
    loop {
        terminal.draw(|frame| frame.render_widget(&app, frame.area()))?;
        assert!(
            !fault,
            "BAYESLAB_FAULT=tui-panic: a deliberate panic after the first frame"
        );
        for event in next_events(&rx)? {
            if let Event::Signal(signal) = event {
                worker.iter().for_each(Worker::cancel);
                return Ok(128 + signal);
            }
            let command = app.update(event);
            match command {
                Some(Command::Start { job, plan }) => {
                    if let Some(old) = worker.take() {
                        old.stop();
                    }
                    worker = Some(Worker::spawn(job, *plan, tx.clone()));
                }
                Some(Command::Cancel) => worker.iter().for_each(Worker::cancel),
                Some(Command::Export) => app.export(Path::new(".")),
                Some(Command::Describe { path, data }) => describer.request(path, *data),
                Some(Command::Quit) | None => {}
            }
            if app.quit {
                // Raise the flag but do not wait: a predictive phase does not poll it, and
                // the process ends (taking the thread with it) right after the terminal is
                // restored.
                worker.iter().for_each(Worker::cancel);
                return Ok(0);
            }
        }
    }
}

/// Block for one event, then take whatever else is already queued, so a burst of iterates
/// from a fast method costs one frame rather than one frame each.
fn next_events(rx: &Receiver<Event>) -> std::io::Result<Vec<Event>> {
    let first = rx
        .recv()
        .map_err(|_| std::io::Error::other("the input thread stopped"))?;
    let mut events = vec![first];
    events.extend(rx.try_iter().take(10_000));
    Ok(events)
}

/// Read terminal events on their own thread; a tick when nothing arrives within [`TICK`].
fn spawn_input(tx: Sender<Event>) {
    std::thread::spawn(move || loop {
        let event = match term::poll(TICK) {
            Ok(true) => match term::read() {
                Ok(TermEvent::Key(k)) => Event::Key(k),
                Ok(TermEvent::Resize(w, h)) => Event::Resize(w, h),
                Ok(_) => continue,
                Err(_) => return,
            },
            Ok(false) => Event::Tick,
            Err(_) => return,
        };
        if tx.send(event).is_err() {
            return;
        }
    });
}
