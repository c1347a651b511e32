//! Progress lines on stderr: one per run start and end, and iteration lines at most
//! every quarter second in between.

use std::time::{Duration, Instant};

use bayeslab::experiment::Monitor;
use bayeslab::optim::{Iterate, Observer};
use bayeslab::record::RunRecord;

pub struct Printer {
    label: String,
    last: Instant,
}

const EVERY: Duration = Duration::from_millis(250);

impl Printer {
    pub fn new() -> Self {
        Printer {
            label: String::new(),
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
        self.last = Instant::now();
        eprintln!("{} …", self.label);
    }

    fn run_finished(&mut self, run: &RunRecord) {
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
}
