//! `bayeslab bench`: the Rust side of the benchmark harness (issue 8). Without `--only`, every
//! task runs in a child process of its own (`bayeslab bench --only TASK --json`), so that each
//! peak-memory figure belongs to one measurement; with `--only`, the listed tasks run here.

use std::path::Path;

use bayeslab::bench::{self, BenchRecord, FileSet, Settings, Task};
use bayeslab::Error;

mod args;
mod child;

pub use args::BenchArgs;

use args::flag_error;
use child::child;

pub fn run(args: BenchArgs) -> Result<i32, Error> {
    let threads = args.threads.map_or_else(bench::cores, |t| t as usize);
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
        samples: args.samples as usize,
        reps: args.reps as usize,
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
        refuse_input_as_out(out, [Some(&train), test.as_ref()].into_iter().flatten())?;
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
        bayeslab::output::write_file(path, json.as_bytes())?;
    }
    if args.json {
        println!("{json}");
    } else {
        print!("{}", bench::table(&record));
    }
    Ok(0)
}

/// `--out` must not name one of the data files: the record would be written over them.
fn refuse_input_as_out<'a>(
    out: &Path,
    sets: impl Iterator<Item = &'a FileSet>,
) -> Result<(), Error> {
    let Ok(out_c) = std::fs::canonicalize(out) else {
        return Ok(()); // a new file: nothing to lose
    };
    for set in sets {
        let npy = set.npy.iter().flat_map(|(x, y, _, _)| [x, y]);
        for input in set.parquet.iter().chain(&set.csv).chain(npy) {
            if std::fs::canonicalize(input).is_ok_and(|c| c == out_c) {
                return Err(flag_error(
                    "--out",
                    format!(
                        "{} is a data file of this benchmark and would be overwritten by its record; \
                         choose another --out (e.g. bench.json)",
                        out.display()
                    ),
                ));
            }
        }
    }
    Ok(())
}
