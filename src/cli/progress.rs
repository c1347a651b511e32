//! Progress lines on stderr: one per run start and end, and iteration lines at most
//! every quarter second in between. A sampler's lines count sweeps of its chains and end with
//! its R-hat and effective sample size, flagged when the chains have not mixed. A run's k-hat
//! gets a line of its own while its draws are scored.

use std::time::{Duration, Instant};

use bayeslab_core::catalog::thousands;
use bayeslab_core::catalog::PredictiveKind;
use bayeslab_core::optim::{Iterate, Schedule};
use bayeslab_core::record::{Diagnostics, RunRecord};
use bayeslab_engine::config::MethodPlan;
use bayeslab_engine::run::{Event, Monitor, ScoringStep};

pub struct Printer {
    label: String,
    /// Each run's label by id: a streamed experiment finishes its runs after the last one
    /// started (one prediction pass serves them all).
    labels: Vec<(String, String)>,
    /// The samplers' schedules by run id.
    samplers: Vec<(String, Schedule)>,
    /// The schedule of the running run, when it is a sampler.
    sampling: Option<Schedule>,
    /// The draws of the k-hat being computed, which set its threshold for "good".
    khat_draws: usize,
    last: Instant,
    /// When the printer was made, just before the data are read: taken by the first
    /// `data_loaded`, which says how long the read took.
    reading_since: Option<Instant>,
}

const EVERY: Duration = Duration::from_millis(250);

/// The least time between two lines of the exact slices' progress.
const SLICE_EVERY: Duration = Duration::from_secs(1);

/// Test rows from which the scoring of each predictive gets its progress lines.
const SCORING_LINES: usize = 10_000;

impl Printer {
    pub fn new(methods: &[MethodPlan]) -> Self {
        Printer {
            label: String::new(),
            labels: Vec::new(),
            samplers: methods
                .iter()
                .filter_map(|m| Some((m.id.clone(), m.schedule()?)))
                .collect(),
            sampling: None,
            khat_draws: 0,
            last: Instant::now(),
            reading_since: Some(Instant::now()),
        }
    }

    fn iterate(&mut self, it: &Iterate) {
        if self.last.elapsed() >= EVERY {
            self.last = Instant::now();
            match self.sampling {
                Some(s) => eprintln!(
                    "{}   sweep {:>5}/{} of {} chains  chain 0's E(w) {:.6e}",
                    self.label,
                    it.iteration,
                    s.sweeps(),
                    s.chains,
                    it.objective
                ),
                None => eprintln!(
                    "{}   iteration {:>5}  objective {:.6e}  |g| {:.2e}",
                    self.label, it.iteration, it.objective, it.grad_norm
                ),
            }
        }
    }
}

/// "R-hat max 1.003, bulk ESS min 1668", and the flag of chains that have not mixed.
fn mixing(d: &Diagnostics) -> String {
    let flag = if d.mixed() {
        String::new()
    } else {
        format!(
            " — NOT MIXED (R-hat > {}): run longer chains",
            Diagnostics::RHAT_LIMIT
        )
    };
    let hmc = d
        .hmc
        .map(|h| format!("; HMC {}", h.words()))
        .unwrap_or_default();
    format!(
        "R-hat max {:.3}, bulk ESS min {:.0}{hmc}{flag}",
        d.rhat_max, d.ess_min
    )
}

impl Monitor for Printer {
    /// One line, or none, per event: the CLI says what a run does as it does it.
    fn event(&mut self, event: Event) {
        match event {
            Event::Reading { file, rows, total } => self.reading(&file, rows, total),
            Event::DataLoaded(d) => self.data_loaded(&d),
            Event::RunStarted { index, total, id } => self.run_started(index, total, &id),
            Event::Iterate { iterate, .. } => self.iterate(&iterate),
            Event::RunFinished(run) => self.run_finished(&run),
            Event::KhatStarted { draws, .. } => self.khat_started(draws),
            Event::KhatFinished { khat, seconds, .. } => self.khat_finished(khat, seconds),
            Event::LooStarted { draws, rows, .. } => self.loo_started(draws, rows),
            Event::LooRefit {
                row, done, total, ..
            } => self.loo_refit(row, done, total),
            Event::LooFinished { loo, .. } => self.loo_finished(&loo),
            Event::EvidenceStarted {
                model,
                proposal,
                draws,
            } => eprint!(
                "[evidence] {model}: {} draws from a Student-t around {proposal} …",
                thousands(draws)
            ),
            Event::EvidenceFinished(e) => evidence_finished(&e),
            Event::Scoring {
                predictive,
                rows,
                step,
                ..
            } => self.scoring(predictive, rows, step),
            Event::Slicing {
                run,
                done,
                total,
                rows,
            } => self.slicing(&run, done, total, rows),
            Event::SweepPoint(at) => {
                let value = bayeslab_engine::config::sweep::label(&toml::Value::Float(at.value));
                eprintln!("[sweep {}/{}] {} = {value}", at.index + 1, at.total, at.key);
            }
            Event::PassFinished(pass) => pass_finished(&pass),
            // a streamed pass's rows, draws and the Monte-Carlo curve: the workbench's
            Event::Pass(_) | Event::Draws { .. } | Event::McEstimate { .. } => {}
        }
    }
}

impl Printer {
    /// "[data] reading big.csv: 655,360 rows …" at most every quarter second.
    fn reading(&mut self, file: &std::path::Path, rows: usize, total: Option<usize>) {
        if self.last.elapsed() >= EVERY {
            self.last = Instant::now();
            let of = total
                .map(|t| format!(" of {}", thousands(t)))
                .unwrap_or_default();
            eprintln!(
                "[data] reading {}: {}{of} rows …",
                file.display(),
                thousands(rows)
            );
        }
    }

    /// "[data] 800,000 training rows, 200,000 test rows, 51 design columns (read in 9.41 s)".
    fn data_loaded(&mut self, d: &bayeslab_core::record::DatasetInfo) {
        let took = self
            .reading_since
            .take()
            .map(|t| format!(" (read in {:.2} s)", t.elapsed().as_secs_f64()))
            .unwrap_or_default();
        eprintln!(
            "[data] {} training rows, {} test rows, {} design columns{took}",
            thousands(d.rows_train),
            thousands(d.rows_test),
            d.columns.len()
        );
    }

    fn run_started(&mut self, index: usize, total: usize, id: &str) {
        self.label = format!("[{}/{}] {id}", index + 1, total);
        self.labels.push((id.to_string(), self.label.clone()));
        self.sampling = self.samplers.iter().find(|(s, _)| s == id).map(|&(_, s)| s);
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
                match (
                    &run.diagnostics,
                    self.samplers.iter().find(|(s, _)| *s == run.id),
                ) {
                    (Some(d), Some((_, s))) => eprintln!(
                        "{} {} sweeps × {} chains in {:.3} s; {}; log-loss: {best}",
                        self.label,
                        run.iterations,
                        s.chains,
                        run.fit_seconds,
                        mixing(d)
                    ),
                    _ => eprintln!(
                        "{} {} in {:.3} s; log-loss: {best}{}",
                        self.label,
                        outcome(run, t),
                        run.fit_seconds,
                        not_converged_advice(run)
                    ),
                }
            }
            (None, None) => {}
        }
        if let (Some(edge), Some(lambda)) = (run.prior_precision_edge, run.prior_precision) {
            eprintln!(
                "    WARNING: lambda = {lambda:.4e} chosen by evidence is {}",
                bayeslab_core::optim::log_grid::edge_words(edge)
            );
        }
    }

    /// The line stays open while the draws are scored: "… 0.41 s, k̂ = 0.62 (ok)" ends it.
    fn khat_started(&mut self, draws: usize) {
        self.khat_draws = draws;
        eprint!("{}   k̂: {} draws …", self.label, thousands(draws));
    }

    fn khat_finished(&mut self, khat: Option<f64>, seconds: f64) {
        match khat {
            Some(k) => eprintln!(
                " {seconds:.2} s, k̂ = {k:.2} ({})",
                bayeslab_core::model::importance::khat_verdict(k, self.khat_draws)
            ),
            None => eprintln!(" {seconds:.2} s, no k̂ (the importance ratios have no tail to fit)"),
        }
    }

    /// "   leave-one-out: 4,000 draws × 32 rows …", one line per refit, and the result line:
    /// "… 0.12 s, elpd_loo = -12.85 ± 3.05, p_loo = 3.9, k: 32 good".
    fn loo_started(&mut self, draws: usize, rows: usize) {
        if draws == 0 {
            eprintln!(
                "{}   leave-one-out: exact, the closed-form posterior refitted without each of {} rows …",
                self.label,
                thousands(rows)
            );
            return;
        }
        eprintln!(
            "{}   leave-one-out: {} draws × {} rows …",
            self.label,
            thousands(draws),
            thousands(rows)
        );
    }

    fn loo_refit(&mut self, row: usize, done: usize, total: usize) {
        eprintln!(
            "{}   leave-one-out: refitting without training row {row} (k > 0.7; {} of {total})",
            self.label,
            done + 1
        );
    }

    fn loo_finished(&mut self, loo: &bayeslab_core::record::LooRecord) {
        eprintln!(
            "{}   leave-one-out: {:.2} s, elpd_loo = {:.2} ± {:.2}, p_loo = {:.1}, k: {}",
            self.label,
            loo.seconds,
            loo.elpd_loo,
            loo.se,
            loo.p_loo,
            bayeslab_report::tables::loo::k_summary(loo)
        );
        if !loo.reliable() {
            eprintln!(
                "{}   leave-one-out: NOT RELIABLE: {} rows have Pareto k above 0.7 and were not refitted \
                 (raise [evaluation] loo_refits, or use K-fold cross-validation)",
                self.label,
                loo.unrefitted_rows.len()
            );
        }
    }

    /// "[1/3] laplace   scoring 200,000 test rows: mc …", then "… mc's metrics (2,000 bootstrap
    /// resamples) …": on test sets of [`SCORING_LINES`] rows or more, where they take time.
    fn scoring(&mut self, predictive: PredictiveKind, rows: usize, step: ScoringStep) {
        if rows < SCORING_LINES {
            return;
        }
        match step {
            ScoringStep::Predict => eprintln!(
                "{}   scoring {} test rows: {predictive} …",
                self.label,
                thousands(rows)
            ),
            ScoringStep::Metrics { resamples } => eprintln!(
                "{}   scoring {} test rows: {predictive}'s metrics ({} bootstrap resamples) …",
                self.label,
                thousands(rows),
                thousands(resamples)
            ),
        }
    }

    /// "[pictures] exact slices around map's mode: pair 2 of 10 (1,000,000 training rows at
    /// 2,401 grid points) …", on training sets of [`SCORING_LINES`] rows or more: the first
    /// pair, then at most one a second.
    fn slicing(&mut self, run: &str, done: usize, total: usize, rows: usize) {
        let due = done == 0 || self.last.elapsed() >= SLICE_EVERY;
        if rows >= SCORING_LINES && done < total && due {
            self.last = Instant::now();
            let points = bayeslab_engine::run::exact_pairs::POINTS.pow(2);
            eprintln!(
                "[pictures] exact slices around {run}'s mode: pair {} of {total} ({} training rows at {} grid points) …",
                done + 1,
                thousands(rows),
                thousands(points)
            );
        }
    }
}

/// What the fit did, in the catalogue's words for its kind: "closed form", "one pass over the
/// training rows", "converged after 9 iterations".
fn outcome(run: &RunRecord, t: bayeslab_core::optim::Termination) -> String {
    run.kind.fitting().outcome(t.name(), run.iterations, None)
}

/// For a fit that ran out of iterations, what to change: the fit has not reached its answer.
fn not_converged_advice(run: &RunRecord) -> String {
    use bayeslab_core::optim::{Termination, STALL_WINDOW};
    if run.termination == Some(Termination::NoProgress) {
        return format!(
            "\n    NOT CONVERGED: {STALL_WINDOW} iterations in a row made no progress, so the tolerance cannot be \
             met at this precision; the results are those of the last iterate; raise tolerance (id \"{}\")",
            run.id
        );
    }
    if run.termination != Some(Termination::MaxIterations) {
        return String::new();
    }
    // the kinds with a `damping` key: raising it (towards 1) is the other way to converge
    let damping = if run.kind.accepts("damping") {
        " or a damping closer to 1"
    } else {
        ""
    };
    format!(
        "\n    NOT CONVERGED: the results are those of the last iterate; raise max_iter{damping} (id \"{}\")",
        run.id
    )
}

/// "… 0.31 s, ln p(y | X) = -323.419 ± 0.004, k̂ = 0.21 (good)" ends the line the start
/// began, and a warning line follows when k̂ says not to trust it.
fn evidence_finished(e: &bayeslab_core::record::EvidenceEstimate) {
    let khat = match e.khat {
        Some(k) => format!(
            "k̂ = {k:.2} ({})",
            bayeslab_core::model::importance::khat_verdict(k, e.draws)
        ),
        None => "no k̂".to_string(),
    };
    eprintln!(
        " {:.2} s, ln p(y | X) = {:.3} ± {:.3}, {khat}",
        e.seconds, e.log_evidence, e.mcse
    );
    if !e.reliable {
        eprintln!(
            "[evidence] {}: not reliable: the importance weights' tail is too heavy (k̂ above 0.7), so the standard error understates the error; fit `ep-{}` for a better proposal or raise `[evaluation] evidence_draws`",
            e.model, e.model
        );
    }
}

fn pass_finished(pass: &bayeslab_core::record::PassRecord) {
    eprintln!(
        "  pass: {}{} — {} chunks, {} rows in {:.3} s (reading the {} {:.3} s{})",
        pass.purpose,
        pass.run
            .as_deref()
            .map(|r| format!(" {r}"))
            .unwrap_or_default(),
        pass.chunks,
        pass.rows,
        pass.seconds,
        pass.read_from.name(),
        pass.read_seconds,
        pass.reader_cpu_seconds
            .map(|s| format!("; checking it took {s:.2} CPU s"))
            .unwrap_or_default()
    );
}
