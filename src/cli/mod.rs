//! The command line: `bayeslab run` and `bayeslab check`.

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
    after_help = "Examples:\n  bayeslab run experiments/quickstart.toml\n  bayeslab run experiments/quickstart.toml --out /tmp/qs --quiet\n  bayeslab check experiments/breast_cancer.toml\n\nThe experiment file format is documented in README.md."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
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
        Command::Run {
            experiment,
            out,
            quiet,
        } => run(&experiment, out, quiet),
        Command::Check { experiment } => check(&experiment),
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

fn check(path: &Path) -> Result<i32, Error> {
    let plan = config::load(path)?;
    if let (Some(data), false) = (&plan.data, plan.methods.is_empty()) {
        let data = bayeslab::data::load(data)?;
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
    }
    for p in &plan.posteriors {
        let obs = bayeslab::lab::observations::load(p)?;
        println!(
            "{}: ok — posterior \"{}\" ({}), {} data point(s)",
            path.display(),
            p.id,
            p.kind.name(),
            obs.len()
        );
    }
    Ok(0)
}
