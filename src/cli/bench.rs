//! `bayeslab bench`: the Rust side of the benchmark harness (issue 8). Without `--only`, every
//! task runs in a child process of its own (`bayeslab bench --only TASK --json`), so that each
//! peak-memory figure belongs to one measurement; with `--only`, the listed tasks run here.

use std::path::PathBuf;

use bayeslab_core::Error;
use bayeslab_engine::bench::{self, BenchRecord, FileSet, Settings, Task};

mod args;
mod child;

pub use args::BenchArgs;

use args::flag_error;
use child::child;

pub fn run(args: BenchArgs) -> Result<i32, Error> {
    use bayeslab_engine::config::limits;
    let threads = match args.threads {
        None => bench::cores(),
        Some(t) => limits::flag("--threads", t, 1, limits::bench_threads(bench::cores()))?,
    };
    let samples = limits::flag("--samples", args.samples, 1, limits::mc_samples())?;
    let reps = limits::flag("--reps", args.reps, 1, limits::reps())?;
    // Before polars starts its pool; inherited by the child processes.
    std::env::set_var("POLARS_MAX_THREADS", threads.to_string());
    if !(args.lambda.is_finite() && args.lambda >= 0.0) {
        return Err(flag_error(
            "--lambda",
            format!(
                "{} is not allowed: the prior precision must be a finite number >= 0",
                args.lambda
            ),
        ));
    }
    let settings = Settings {
        lambda: args.lambda,
        samples,
        reps,
        seed: args.seed,
        threads,
    };
    let train = FileSet::resolve(&args.train, "--train")?;
    let test = args
        .test
        .as_deref()
        .map(|t| FileSet::resolve(t, "--test"))
        .transpose()?;
    if let (Some(d), Some((tp, _, _, dt))) =
        (train.cols(), test.as_ref().and_then(|t| t.npy.as_ref()))
    {
        if d != *dt {
            return Err(Error::Data {
                file: tp.clone(),
                message: format!(
                    "the test rows have {dt} columns but the training rows {d}; write both with one `bayeslab synth --test-rows M`"
                ),
            });
        }
    }
    if let Some(out) = &args.out {
        // Before any task runs: the record may replace only an earlier record, never a data file.
        let inputs = input_files([Some(&train), test.as_ref()].into_iter().flatten());
        bayeslab_core::files::check_file_out(
            out,
            "--out",
            &bayeslab_core::files::Own::Record,
            &inputs,
        )?;
    }
    let mut record = BenchRecord::new(&settings, &train, test.as_ref());
    let quiet = args.quiet;
    let mut progress = |m: &str| {
        if !quiet {
            eprintln!("bench: {m}");
        }
    };
    if args.only.is_empty() {
        let mut tasks = Vec::new();
        if train.parquet.is_some() {
            tasks.push(Task::LoadParquet);
        }
        if train.csv.is_some() {
            tasks.push(Task::LoadCsv);
        }
        if train.npy.is_some() {
            tasks.push(Task::LoadNpy);
        }
        tasks.extend([Task::Fit, Task::Bound, Task::Khat]);
        if test.is_some() {
            tasks.push(Task::Predict);
        }
        for (i, task) in tasks.iter().enumerate() {
            progress(&format!(
                "[{}/{}] {} (own process)",
                i + 1,
                tasks.len(),
                task.name()
            ));
            match child(&args, *task, threads)? {
                Ok(r) => record.extend(r.tasks),
                Err(code) => return Ok(code),
            }
        }
    } else {
        bench::set_threads(threads);
        let tasks = args
            .only
            .iter()
            .map(|name| {
                Task::parse(name).ok_or_else(|| {
                    flag_error(
                        "--only",
                        format!(
                            "unknown task \"{name}\"; the tasks are {}",
                            Task::ALL.map(Task::name).join(", ")
                        ),
                    )
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        for task in tasks {
            let r = bench::run(task, &train, test.as_ref(), &settings, &mut progress)?;
            record.extend([r]);
        }
    }
    let json = serde_json::to_string_pretty(&record).expect("the record serialises to JSON");
    if let Some(path) = &args.out {
        bayeslab_report::write_file(path, json.as_bytes())?;
    }
    if args.json {
        println!("{json}");
    } else {
        print!("{}", bench::table(&record));
    }
    Ok(0)
}

/// The data files of the benchmark's file sets, which `--out` must not name.
fn input_files<'a>(sets: impl Iterator<Item = &'a FileSet>) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for set in sets {
        let npy = set.npy.iter().flat_map(|(x, y, _, _)| [x, y]);
        files.extend(set.parquet.iter().chain(&set.csv).chain(npy).cloned());
    }
    files
}
