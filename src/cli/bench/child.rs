//! One task in a child process of its own (`bayeslab bench --only TASK --json`), so that its
//! peak-memory figure belongs to it alone.

use std::path::PathBuf;
use std::process::{Command, Stdio};

use super::args::BenchArgs;
use bayeslab_core::Error;
use bayeslab_engine::bench::{BenchRecord, Task};

/// Run `task` in a child process; Err(exit code) when it failed (it printed why).
pub(super) fn child(
    args: &BenchArgs,
    task: Task,
    threads: usize,
) -> Result<Result<BenchRecord, i32>, Error> {
    let exe = std::env::current_exe().map_err(|e| Error::Output {
        path: PathBuf::from("bayeslab"),
        source: e,
    })?;
    let mut cmd = Command::new(&exe);
    cmd.arg("bench").arg("--train").arg(&args.train);
    if let Some(t) = &args.test {
        cmd.arg("--test").arg(t);
    }
    cmd.args([
        "--lambda",
        &args.lambda.to_string(),
        "--samples",
        &args.samples.to_string(),
        "--reps",
        &args.reps.to_string(),
        "--threads",
        &threads.to_string(),
        "--seed",
        &args.seed.to_string(),
        "--only",
        task.name(),
        "--json",
    ]);
    if args.quiet {
        cmd.arg("--quiet");
    }
    let out = cmd
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| Error::Output {
            path: exe.clone(),
            source: e,
        })?;
    match out.status.code() {
        Some(0) => serde_json::from_slice(&out.stdout)
            .map(Ok)
            .map_err(|e| Error::Output {
                path: exe,
                source: std::io::Error::other(format!(
                    "the {} process printed no valid record: {e}",
                    task.name()
                )),
            }),
        Some(code) => Ok(Err(code)),
        None => {
            eprintln!(
                "error: the {} process was killed by a signal (out of memory?); try a smaller data set",
                task.name()
            );
            Ok(Err(1))
        }
    }
}
