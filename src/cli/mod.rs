//! The command line: `bayeslab run`, `bayeslab check`, and the workbench (`bayeslab` alone
//! or `bayeslab tui [EXPERIMENT.toml]`).

mod bench;
mod check;
mod docs;
mod figures;
mod init;
mod install;
mod kinds;
mod predict;
mod progress;
mod synth;

use std::path::{Path, PathBuf};

use clap::{CommandFactory, Parser, Subcommand};

use bayeslab_core::record::Outcome;
use bayeslab_core::Error;
use bayeslab_engine::config;
use bayeslab_engine::run::{self, Monitor, Silent};
use bayeslab_report as output;

#[derive(Parser)]
#[command(
    name = "bayeslab",
    version,
    long_version = install::long_version(),
    about = "A workbench for approximate Bayesian classification",
    long_about = "bayeslab fits the Bayesian classifiers described in an experiment TOML file and puts \
their approximations side by side on held-out data: logistic regression by MLE, MAP and the Laplace \
approximation with five posterior predictives (plug-in, Monte Carlo, probit, MacKay, exact \
quadrature); probit regression by Laplace, expectation propagation and ADF; softmax regression; \
Bayesian generative classifiers (Normal-inverse-Wishart, Normal-Gamma and Beta-Bernoulli naive \
Bayes) against LDA/QDA; evidence-based prior precision and feature maps. Every run is scored by \
log-loss, Brier score, accuracy, AUC and calibration and written as JSON, CSV, Markdown and a \
self-contained HTML report. [[posterior]] tables compare exact one-parameter posteriors with their \
normal, log-normal, logit-normal, t and mixture approximations (the approximation lab).",
    after_help = format!("Examples:\n  bayeslab                      (the workbench on experiments/)\n  bayeslab tui experiments/digits_1v8.toml\n  bayeslab run experiments/quickstart.toml\n  bayeslab run experiments/quickstart.toml --out /tmp/qs --quiet\n  bayeslab check experiments/breast_cancer.toml\n  bayeslab compare runs/a runs/b\n  bayeslab init mytable.csv      (a starter experiment for your own table)\n  bayeslab predict runs/quickstart new_rows.csv\n\n{}\n\n{EXIT_CODES}\n\nThe experiment file format is documented in docs/reference/experiment-keys.md (the book: mdbook build docs).", kinds::pointer())
)]
struct Cli {
    /// Without a command, the workbench opens on experiments/.
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Run an experiment: results.json, predictions.csv, trace.csv, report.md, report.html and plots/ (a [sweep] writes one run directory per value).
    #[command(after_long_help = kinds::help())]
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
    /// Compare two run directories on the same test rows: paired-bootstrap 95 % intervals of
    /// the difference B − A in log-loss, Brier and ECE for every shared run and predictive,
    /// or for the column pairs named with --pair. Prints the table and writes comparison.json
    /// and comparison.md.
    #[command(
        after_help = "Examples:\n  bayeslab compare runs/a runs/b\n  bayeslab compare runs/a runs/b --pair logistic-laplace/exact=laplace/exact\n  bayeslab compare runs/a runs/a --pair laplace/exact=gibbs/exact   (two predictives of one run)"
    )]
    Compare {
        /// The reference run directory (A).
        a: PathBuf,
        /// The run directory compared against it (B); it may be A itself, with --pair.
        b: PathBuf,
        /// Compare only the column A_COLUMN of A with B_COLUMN of B, each `<run>/<predictive>`
        /// as in predictions.csv (repeatable). Without it, every column present in both.
        #[arg(long = "pair", value_name = "A_COLUMN=B_COLUMN", value_parser = bayeslab_engine::compare::Pair::parse)]
        pairs: Vec<bayeslab_engine::compare::Pair>,
        /// Where to write comparison.json and comparison.md [default: B].
        #[arg(long, short)]
        out: Option<PathBuf>,
        /// Bootstrap resamples.
        #[arg(long, default_value_t = 2000)]
        resamples: usize,
        /// Seed of the resampling stream.
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
    /// Write a commented starter experiment for a CSV or Parquet file: the target, every column
    /// with its role (numeric, categorical with its levels, missing counts) and the columns
    /// left out with the reason. Never overwrites a file.
    #[command(after_long_help = init::HELP)]
    Init {
        /// The table: a CSV (comma, ';' or tab separated) or Parquet file.
        data: PathBuf,
        /// The label column [default: the one two-valued column named like a target].
        #[arg(long, short)]
        target: Option<String>,
        /// Where to write the experiment [default: DATA with .toml, beside it].
        #[arg(long, short)]
        out: Option<PathBuf>,
    },
    /// Score a new table (CSV or Parquet) with the stored posterior of every run in RUN_DIR,
    /// prepared exactly as the run prepared its training rows; prints CSV or writes --out FILE.
    #[command(after_long_help = predict::HELP)]
    Predict {
        /// A run directory written by `bayeslab run` (it holds results.json).
        run_dir: PathBuf,
        /// The table to score: the run's feature columns (the target may be absent).
        data: PathBuf,
        /// Write the predictions to FILE (never overwritten) instead of standard output.
        #[arg(long, short)]
        out: Option<PathBuf>,
    },
    /// Write every figure of a run's reports one by one, as standalone SVG and PNG at a
    /// readable size (text at least 14 px), for slides and handouts.
    #[command(after_long_help = figures::HELP)]
    ExportFigures(figures::FiguresArgs),
    /// Write seeded synthetic logistic data (x ~ N(0, I), w ~ N(0, 0.25 I), y ~ Bernoulli(sigma(x^T w)))
    /// as Parquet, and as .npy and CSV when asked, for the benchmark harness.
    Synth(synth::SynthArgs),
    /// Time loading, the Laplace fit, the Monte-Carlo predictive and the bound X^T X on files
    /// from `bayeslab synth`, with medians over repetitions and peak memory.
    Bench(bench::BenchArgs),
    /// Write the reference pages generated from the code (the command line, the method kinds,
    /// the experiment keys and the JSON Schema of results.json) into docs/reference/generated/.
    Docs(docs::DocsArgs),
    /// Print a shell completion script, e.g. `bayeslab completions bash > ~/.local/share/bash-completion/completions/bayeslab`.
    Completions(install::CompletionsArgs),
    /// Print the man page (roff), e.g. `bayeslab man | man -l -`; --out writes one page per command.
    Man(install::ManArgs),
}

/// The exit codes, as `bayeslab --help` lists them.
const EXIT_CODES: &str = "Exit codes:\n  0    success\n  1    the outputs could not be written (or the workbench's terminal failed)\n  2    bad input: the message names the file, key or column and the fix; nothing was run\n  3    the run wrote its results, but at least one method failed (its error is in results.json)\n  130  cancelled";

/// `bayeslab run` wrote every output, but at least one method failed (see [`EXIT_CODES`]).
pub const EXIT_SOME_METHOD_FAILED: i32 = 3;

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
        Some(Command::Check { experiment }) => check::check(&experiment),
        Some(Command::Compare {
            a,
            b,
            out,
            pairs,
            resamples,
            seed,
        }) => compare(&a, &b, &pairs, out, resamples, seed),
        Some(Command::Predict { run_dir, data, out }) => predict::predict(&run_dir, &data, out),
        Some(Command::Init { data, target, out }) => init::init(&data, target.as_deref(), out),
        Some(Command::ExportFigures(args)) => figures::run(args),
        Some(Command::Synth(args)) => synth::run(args),
        Some(Command::Bench(args)) => bench::run(args),
        Some(Command::Docs(args)) => docs::run(args, &Cli::command()),
        Some(Command::Completions(args)) => install::completions(args, Cli::command()),
        Some(Command::Man(args)) => install::man(args, Cli::command()),
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
    // Ctrl-C ends the process at once; the atomic directory swap in output::write_dir is what
    // guarantees that an interrupted run leaves the previous report or none.
    let mut printer = progress::Printer::new(&plan.methods);
    let monitor: &mut dyn Monitor = if quiet { &mut Silent } else { &mut printer };
    let dir = out.unwrap_or_else(|| PathBuf::from("runs").join(&plan.name));
    // Refused before the run rather than after it: --out must not hold the experiment or its
    // data, and an existing directory must be empty or a previous output.
    let inputs = plan_inputs(&plan);
    output::check_out(&dir, &inputs)?;
    let outcome = run::run_plan(&plan, monitor, None, Some(&dir))?;
    let (artifacts, files) = match &outcome {
        Outcome::Single(record) => (output::render(record), output::streamed_files(record)),
        Outcome::Sweep(sweep) => (output::render_sweep(sweep), output::sweep_files(sweep)),
    };
    let records = outcome.records();
    if std::env::var_os("BAYESLAB_FAULT").is_some_and(|v| v == "abort-before-write") {
        // tests/it/output_safety.rs: a kill between the run and its output (no destructors run)
        std::process::abort();
    }
    output::write_dir_with_files(&dir, &artifacts, &files, &inputs)?;
    let mut notes: Vec<&String> = records.iter().flat_map(|r| &r.dataset.notes).collect();
    notes.dedup();
    if !quiet {
        for note in notes {
            eprintln!("note: {note}");
        }
        eprintln!(
            "wrote {} files to {}/ (open report.html)",
            artifacts.len() + files.len(),
            dir.display()
        );
    }
    let failed: Vec<_> = records.iter().flat_map(|r| r.failed_runs()).collect();
    for run in &failed {
        eprintln!(
            "error: run \"{}\" failed: {}",
            run.id,
            run.error.as_deref().unwrap_or("")
        );
    }
    Ok(if failed.is_empty() {
        0
    } else {
        EXIT_SOME_METHOD_FAILED
    })
}

/// The files `plan` reads: the experiment, its data and observation files.
fn plan_inputs(plan: &config::Plan) -> Vec<PathBuf> {
    let mut inputs = vec![plan.file.clone()];
    if let Some(data) = &plan.data {
        match &data.source {
            config::DataSource::Single { path, .. } => inputs.push(path.clone()),
            config::DataSource::TrainTest { train, test } => {
                inputs.extend([train.clone(), test.clone()])
            }
        }
    }
    inputs.extend(plan.posteriors.iter().filter_map(|p| match &p.source {
        config::PosteriorSource::Column { path, .. } => Some(path.clone()),
        _ => None,
    }));
    inputs
}

fn compare(
    a: &Path,
    b: &Path,
    pairs: &[bayeslab_engine::compare::Pair],
    out: Option<PathBuf>,
    resamples: usize,
    seed: u64,
) -> Result<i32, Error> {
    // Refused before anything is read or resampled.
    let dir = out.unwrap_or_else(|| b.to_path_buf());
    bayeslab_engine::compare::check_out(&dir)?;
    let pa = bayeslab_engine::compare::Predictions::from_dir(a)?;
    let pb = bayeslab_engine::compare::Predictions::from_dir(b)?;
    let count = bayeslab_engine::compare::Resamples {
        count: resamples,
        file: Path::new("--resamples"),
        key: "",
    };
    let rows = if pairs.is_empty() {
        bayeslab_engine::compare::compare(&pa, &pb, count, seed, a, b)?
    } else {
        bayeslab_engine::compare::compare_pairs(&pa, &pb, pairs, count, seed, a, b)?
    };
    let mut md = format!(
        "{}\n\nA = `{}`, B = `{}`; paired bootstrap over {} test rows ({resamples} resamples, seed {seed}); \
         lower is better, so a negative B − A is an improvement.\n\n",
        bayeslab_engine::compare::MD_HEADING,
        a.display(),
        b.display(),
        pa.y.len()
    );
    output::markdown::table(&mut md, &output::tables::comparison(&rows));
    let loo = bayeslab_engine::compare::loo::differences(
        &bayeslab_engine::compare::loo::LooRuns::from_dir(a)?,
        &bayeslab_engine::compare::loo::LooRuns::from_dir(b)?,
        pairs,
    );
    if !loo.is_empty() {
        md.push_str("\n## Leave-one-out\n\nelpd_loo on the training rows (higher is better); B − A ± its standard error: paired over rows \
                     and the two estimates' Monte-Carlo error together, beyond noise when more than two standard errors from zero.\n\n");
        output::markdown::table(&mut md, &output::tables::loo::loo_differences(&loo));
    }
    print!("{md}");
    let json = serde_json::to_vec_pretty(&rows).expect("comparisons serialise to JSON");
    output::write_file(&dir.join("comparison.json"), &json)?;
    output::write_file(&dir.join("comparison.md"), md.as_bytes())?;
    eprintln!("wrote {}/comparison.json and comparison.md", dir.display());
    Ok(0)
}

fn tui(experiment: Option<&Path>) -> Result<i32, Error> {
    if !bayeslab_tui::has_terminal() {
        eprintln!(
            "error: the workbench needs a terminal, and stdin or stdout is not one (cron, CI, \
             a pipe, setsid); without one, run an experiment headless with \
             `bayeslab run <experiment>`"
        );
        return Ok(2);
    }
    if let Some(path) = experiment.filter(|p| !p.is_file()) {
        eprintln!(
            "error: {}: no such experiment file; try experiments/quickstart.toml",
            path.display()
        );
        return Ok(2);
    }
    match bayeslab_tui::run(experiment) {
        Ok(code) => Ok(code),
        Err(e) => {
            eprintln!("error: the terminal workbench stopped: {e}");
            Ok(1)
        }
    }
}
