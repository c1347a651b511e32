//! The workbench state and its one transition function, [`App::update`]. Nothing here
//! draws; what needs a thread or the file system beyond reading experiment files is
//! returned as a [`Command`] for the loop to carry out, so every transition is testable
//! without a terminal.

use std::path::{Path, PathBuf};

use bayeslab_core::record::Diagnostics;
use bayeslab_engine::config::Plan;
use bayeslab_report as output;

use super::catalog::Catalog;
use super::event::Event;
use super::picks::Picks;
use super::preview::Preview;
use super::session::Session;
use bayeslab_core::catalog::thousands;
use bayeslab_engine::run;

/// The seven screens, in tab order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Screen {
    Experiments,
    Dataset,
    Live,
    Results,
    Calibration,
    Posterior,
    Reparam,
}

impl Screen {
    pub const ALL: [Screen; 7] = [
        Screen::Experiments,
        Screen::Dataset,
        Screen::Live,
        Screen::Results,
        Screen::Calibration,
        Screen::Posterior,
        Screen::Reparam,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Screen::Experiments => "Experiments",
            Screen::Dataset => "Dataset",
            Screen::Live => "Live",
            Screen::Results => "Results",
            Screen::Calibration => "Calibration",
            Screen::Posterior => "Posterior",
            Screen::Reparam => "Reparam",
        }
    }

    pub fn index(self) -> usize {
        Screen::ALL.iter().position(|&s| s == self).unwrap_or(0)
    }
}

/// The status line: what just happened, and whether it is bad news.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Status {
    pub text: String,
    pub error: bool,
}

/// Work for the loop: start a worker thread, raise the cancellation flag, write the report.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    Start {
        job: u64,
        plan: Box<Plan>,
    },
    Cancel,
    Export,
    Quit,
    /// Load the dataset of the experiment file at `path` in the background.
    Describe {
        path: PathBuf,
        data: Box<bayeslab_engine::config::DataPlan>,
    },
}

#[derive(Debug, Clone)]
pub struct App {
    pub screen: Screen,
    pub help: bool,
    pub catalog: Catalog,
    pub session: Option<Session>,
    pub picks: Picks,
    /// The selected experiment's dataset, loaded on selection (see `preview.rs`).
    pub preview: Option<Preview>,
    pub status: Status,
    pub quit: bool,
    jobs: u64,
}

impl App {
    pub fn new(catalog: Catalog) -> App {
        let status = match catalog.entries.is_empty() {
            true => Status {
                text:
                    "no experiments found: pass a file, e.g. bayeslab tui path/to/experiment.toml"
                        .into(),
                error: true,
            },
            false => Status {
                text: "r runs the selected experiment; ? lists every key".into(),
                error: false,
            },
        };
        App {
            screen: Screen::Experiments,
            help: false,
            catalog,
            session: None,
            picks: Picks::default(),
            preview: None,
            status,
            quit: false,
            jobs: 0,
        }
    }

    pub fn running(&self) -> bool {
        self.session.as_ref().is_some_and(Session::running)
    }

    pub fn info(&mut self, text: impl Into<String>) {
        self.status = Status {
            text: text.into(),
            error: false,
        };
    }

    pub fn error(&mut self, text: impl Into<String>) {
        self.status = Status {
            text: text.into(),
            error: true,
        };
    }

    /// Apply one event; return the work it asks of the loop.
    pub fn update(&mut self, event: Event) -> Option<Command> {
        match event {
            Event::Key(key) => self.key(key),
            // the loop ends on a signal before asking the app (tui/mod.rs)
            Event::Resize(..) | Event::Tick | Event::Signal(_) => None,
            Event::Progress { job, event } => {
                let s = self.session.as_mut().filter(|s| s.job == job)?;
                match event {
                    run::Event::Reading { file, rows, total } => {
                        let of = total.map(|t| format!(" of {}", thousands(t)));
                        let text = format!(
                            "reading {}: {}{} rows (c cancels)",
                            file.display(),
                            thousands(rows),
                            of.unwrap_or_default()
                        );
                        self.info(text);
                    }
                    run::Event::Scoring {
                        run,
                        predictive,
                        rows,
                        step,
                    } => self.info(scoring_text(&run, predictive.name(), rows, step)),
                    run::Event::Slicing {
                        run,
                        done,
                        total,
                        rows,
                    } if done < total => self.info(format!(
                        "exact slices around {run}'s mode: pair {} of {total} ({} rows per grid point)",
                        done + 1,
                        thousands(rows)
                    )),
                    // a run starts or ends: the scoring said before is over
                    run::Event::DataLoaded(_)
                    | run::Event::RunStarted { .. }
                    | run::Event::RunFinished(_)
                        if s.running() =>
                    {
                        let text = format!("running {} (c cancels)", s.plan.name);
                        s.apply(event);
                        self.info(text);
                    }
                    event => s.apply(event),
                }
                None
            }
            Event::Finished { job, record } => {
                let s = self.session.as_mut().filter(|s| s.job == job)?;
                let failed = record.failed_runs().count();
                let unmixed: Vec<String> = record
                    .runs
                    .iter()
                    .filter(|r| r.diagnostics.is_some_and(|d| !d.mixed()))
                    .map(|r| r.id.clone())
                    .collect();
                s.finish(*record);
                self.picks = self.picks.for_new_record();
                match (failed, unmixed.is_empty()) {
                    (0, true) => self.info("finished: 4-7 show the results, e exports"),
                    (0, false) => self.error(format!(
                        "finished, but the chains of {} have not mixed (R-hat > {}): see 4 Results",
                        unmixed.join(", "),
                        Diagnostics::RHAT_LIMIT
                    )),
                    (n, _) => self.error(format!("finished; {n} run(s) failed: see 4 Results")),
                }
                None
            }
            Event::Described { path, dataset } => {
                self.described(path, dataset);
                None
            }
            Event::SweepFinished { job, sweep } => {
                self.sweep_finished(job, *sweep);
                None
            }
            Event::Failed {
                job,
                error,
                cancelled,
            } => {
                let s = self.session.as_mut().filter(|s| s.job == job)?;
                s.fail(error.clone(), cancelled);
                match cancelled {
                    true => self.info("cancelled; r runs it again"),
                    false => self.error(error),
                }
                None
            }
        }
    }

    /// Start the selected experiment (re-reading its file first), or explain why not.
    pub fn run_selected(&mut self) -> Option<Command> {
        if self.running() {
            self.error("an experiment is already running: c cancels it");
            return None;
        }
        let entry = self.catalog.reload_current()?;
        let plan = match &entry.plan {
            Ok(plan) => plan.clone(),
            Err(e) => {
                let first = e.lines().next().unwrap_or_default().to_string();
                self.screen = Screen::Experiments;
                self.error(format!("cannot run: {first} (details in the red box)"));
                return None;
            }
        };
        self.jobs += 1;
        let job = self.jobs;
        self.info(format!("running {} (c cancels)", plan.name));
        self.session = Some(Session::new(job, plan.clone()));
        self.picks.trace = None;
        self.screen = Screen::Live;
        Some(Command::Start {
            job,
            plan: Box::new(plan),
        })
    }

    pub fn cancel(&mut self) -> Option<Command> {
        if !self.running() {
            self.info("nothing is running");
            return None;
        }
        self.info("cancelling…");
        Some(Command::Cancel)
    }

    /// Write the finished experiment's report (or sweep) to `root`/runs/<name>/ (what
    /// `bayeslab run` writes) and say where.
    pub fn export(&mut self, root: &Path) {
        if self.sweep().is_some() {
            return self.export_sweep(root);
        }
        let Some(record) = self.session.as_ref().and_then(|s| s.record.as_ref()) else {
            self.error("nothing to export yet: run an experiment first (r)");
            return;
        };
        let dir: PathBuf = root.join("runs").join(&record.experiment.name);
        match output::write_record(&dir, record) {
            Ok(_) => self.info(exported(
                "results.json, predictions.csv, trace.csv, report.md and report.html",
                &dir,
            )),
            Err(e) => self.error(format!("export failed: {e}")),
        }
    }
}

/// What an export wrote and where, as an absolute path (the workbench's root is often `.`,
/// which says nothing once the user has left the shell it was started in), and the file to open.
pub(super) fn exported(files: &str, dir: &Path) -> String {
    let dir = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
    format!("exported {files} to {}/ (open report.html)", dir.display())
}

/// The status line while the test rows are scored: "scoring laplace/mc: 50,000 test rows",
/// then "scoring laplace/mc: metrics, 2,000 bootstrap resamples".
fn scoring_text(
    run: &str,
    predictive: &str,
    rows: usize,
    step: bayeslab_engine::run::ScoringStep,
) -> String {
    let what = match step {
        bayeslab_engine::run::ScoringStep::Predict => format!("{} test rows", thousands(rows)),
        bayeslab_engine::run::ScoringStep::Metrics { resamples } => {
            format!("metrics, {} bootstrap resamples", thousands(resamples))
        }
    };
    format!("scoring {run}/{predictive}: {what}")
}
