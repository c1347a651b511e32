//! Progress lines on stderr: one per run start and end, and iteration lines at most
//! every quarter second in between.

use std::time::{Duration, Instant};

use bayeslab::experiment::Monitor;
use bayeslab::optim::{Iterate, Observer};
use bayeslab::record::RunRecord;

pub struct Printer {
    label: String,
    /// Each run's label by id: a streamed experiment finishes its runs after the last one
    /// started (one prediction pass serves them all).
    labels: Vec<(String, String)>,
    last: Instant,
}

const EVERY: Duration = Duration::from_millis(250);

impl Printer {
    pub fn new() -> Self {
        Printer {
            label: String::new(),
            labels: Vec::new(),
            last: Instant::now(),
        }
    }
}

impl Observer for Printer {
    fn observe(&mut self, _run: &str, it: &Iterate) {
        if self.last.elapsed() >= EVERY {
            self.last = Instant::now();
            eprintln!(
                "{}   iteration {:>5}  objective {:.6e}  |g| {:.2e}",
                self.label, it.iteration, it.objective, it.grad_norm
            );
        }
    }
}

impl Monitor for Printer {
    fn run_started(&mut self, index: usize, total: usize, id: &str) {
        self.label = format!("[{}/{}] {id}", index + 1, total);
        self.labels.push((id.to_string(), self.label.clone()));
        self.last = Instant::now();
        eprintln!("{} …", self.label);
    }

    fn run_finished(&mut self, run: &RunRecord) {
        if let Some((_, label)) = self.labels.iter().find(|(id, _)| *id == run.id) {
            self.label = label.clone();
        }
        match (&run.error, run.termination) {
            (Some(_), _) => eprintln!("{} failed (details below)", self.label),
            (None, Some(t)) => {
                let best = run
                    .predictives
                    .iter()
                    .map(|p| format!("{} {:.4}", p.name, p.metrics.log_loss))
                    .collect::<Vec<_>>()
                    .join(", ");
                eprintln!(
                    "{} {t} after {} iterations in {:.3} s; log-loss: {best}",
                    self.label, run.iterations, run.fit_seconds
                );
            }
            (None, None) => {}
        }
    }

    fn pass_finished(&mut self, pass: &bayeslab::streaming::PassRecord) {
        eprintln!(
            "  pass: {}{} — {} chunks, {} rows in {:.3} s (reading {:.3} s)",
            pass.purpose,
            pass.run
                .as_deref()
                .map(|r| format!(" {r}"))
                .unwrap_or_default(),
            pass.chunks,
            pass.rows,
            pass.seconds,
            pass.read_seconds
        );
    }
}
