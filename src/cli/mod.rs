//! The command line: `bayeslab run`, `bayeslab check`, and the workbench (`bayeslab` alone
//! or `bayeslab tui [EXPERIMENT.toml]`).

mod progress;

use std::path::{Path, PathBuf};

use clap::{Parser, Subcommand};

use bayeslab::experiment::{self, Monitor, Silent};
use bayeslab::{config, output, Error};

#[derive(Parser)]
#[command(
    name = "bayeslab",
    version,
    about = "A workbench for approximate Bayesian classification",
    long_about = "bayeslab fits Bayesian classifiers described in an experiment TOML file \
(logistic regression by MLE, MAP and the Laplace approximation) and compares their posterior \
predictives (plug-in, Monte Carlo, probit, MacKay, exact quadrature) on held-out data with \
log-loss, Brier score, accuracy, AUC and calibration.",
    after_help = "Examples:\n  bayeslab                      (the workbench on experiments/)\n  bayeslab tui experiments/digits_1v8.toml\n  bayeslab run experiments/quickstart.toml\n  bayeslab run experiments/quickstart.toml --out /tmp/qs --quiet\n  bayeslab check experiments/breast_cancer.toml\n\nThe experiment file format is documented in README.md."
)]
struct Cli {
    /// Without a command, the workbench opens on experiments/.
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Run every method of an experiment and write results.json, predictions.csv, trace.csv and report.md.
    Run {
        /// The experiment file (see experiments/ for examples).
        experiment: PathBuf,
        /// Output directory [default: runs/<experiment name>/]. Replaced atomically.
        #[arg(long, short)]
        out: Option<PathBuf>,
        /// Print nothing but errors.
        #[arg(long, short)]
        quiet: bool,
    },
    /// Open the terminal workbench on experiments/ (and EXPERIMENT, selected, when given).
    Tui {
        /// An experiment file to select (it is added to the list when outside experiments/).
        experiment: Option<PathBuf>,
    },
    /// Validate an experiment file and its data without fitting anything.
    Check {
        /// The experiment file.
        experiment: PathBuf,
    },
}

/// Parse the arguments, run the command, and return the process exit code.
pub fn main() -> i32 {
    let cli = Cli::parse();
    let result = match cli.command {
        None => tui(None),
        Some(Command::Tui { experiment }) => tui(experiment.as_deref()),
        Some(Command::Run {
            experiment,
            out,
            quiet,
        }) => run(&experiment, out, quiet),
        Some(Command::Check { experiment }) => check(&experiment),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            e.exit_code()
        }
    }
}

fn run(path: &Path, out: Option<PathBuf>, quiet: bool) -> Result<i32, Error> {
    let plan = config::load(path)?;
    let mut printer = progress::Printer::new();
    let monitor: &mut dyn Monitor = if quiet { &mut Silent } else { &mut printer };
    let record = experiment::run(&plan, monitor, None)?;
    let dir = out.unwrap_or_else(|| PathBuf::from("runs").join(&plan.name));
    output::write_dir(&dir, &output::render(&record))?;
    if !quiet {
        for note in &record.dataset.notes {
            eprintln!("note: {note}");
        }
        eprintln!(
            "wrote {}/{{results.json, predictions.csv, trace.csv, report.md}}",
            dir.display()
        );
    }
    let failed: Vec<_> = record.failed_runs().collect();
    for run in &failed {
        eprintln!(
            "error: run \"{}\" failed: {}",
            run.id,
            run.error.as_deref().unwrap_or("")
        );
    }
    Ok(if failed.is_empty() { 0 } else { 2 })
}

fn tui(experiment: Option<&Path>) -> Result<i32, Error> {
    if let Some(path) = experiment.filter(|p| !p.is_file()) {
        eprintln!(
            "error: {}: no such experiment file; try experiments/quickstart.toml",
            path.display()
        );
        return Ok(2);
    }
    match bayeslab::tui::run(experiment) {
        Ok(()) => Ok(0),
        Err(e) => {
            eprintln!("error: the terminal workbench stopped: {e}");
            Ok(1)
        }
    }
}

fn check(path: &Path) -> Result<i32, Error> {
    let plan = config::load(path)?;
    let data = bayeslab::data::load(&plan.data)?;
    println!(
        "{}: ok — {} method(s); {} training and {} test rows, {} design columns",
        path.display(),
        plan.methods.len(),
        data.train.rows(),
        data.test.rows(),
        data.columns.len()
    );
    for note in &data.notes {
        println!("note: {note}");
    }
    Ok(0)
}
