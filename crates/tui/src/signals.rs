//! The terminal is restored on every signal that ends the workbench. SIGTERM, SIGHUP, SIGINT
//! and SIGQUIT are caught on a thread of their own (signal-hook) and sent to the loop as
//! [`Event::Signal`]; the loop returns, [`super::run`] restores the terminal, and the process
//! exits with 128 + the signal, as the default action would have. Should the loop not answer
//! within [`GRACE`] (a frame stuck on a slow terminal), the thread restores the terminal and
//! exits itself. SIGKILL cannot be caught; `reset` repairs the terminal after it.

use std::sync::mpsc::Sender;
use std::time::Duration;

use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
use signal_hook::iterator::Signals;

use super::Event;

/// How long the loop has to end after a signal before the signal thread ends the process.
pub const GRACE: Duration = Duration::from_secs(2);

/// The signals that end the workbench with its terminal restored.
pub const SIGNALS: [i32; 4] = [SIGTERM, SIGHUP, SIGINT, SIGQUIT];

/// Catch [`SIGNALS`] from now on and send each to the loop on `tx`.
pub fn watch(tx: Sender<Event>) -> std::io::Result<()> {
    let mut signals = Signals::new(SIGNALS)?;
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            let _ = tx.send(Event::Signal(signal));
            std::thread::sleep(GRACE);
            ratatui::restore();
            std::process::exit(128 + signal);
        }
    });
    Ok(())
}
