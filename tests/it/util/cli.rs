//! What the command-line tests share: the built binary, the repository root and one run of an
//! experiment file.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_bayeslab"))
}

/// The binary with its standard input closed: nothing for it to read or prompt on.
pub fn bin_without_stdin() -> Command {
    let mut c = bin();
    c.stdin(std::process::Stdio::null());
    c
}

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `bayeslab run EXP --out OUT` (with `--quiet` when `quiet`): the finished process.
pub fn run_experiment(exp: &Path, out: &Path, quiet: bool) -> Output {
    let mut cmd = bin();
    cmd.arg("run").arg(exp).arg("--out").arg(out);
    if quiet {
        cmd.arg("--quiet");
    }
    cmd.output().unwrap()
}

/// `bayeslab ARGS` run in `dir`: the finished process.
pub fn bayeslab_in(dir: &Path, args: &[&str]) -> Output {
    bin().args(args).current_dir(dir).output().unwrap()
}

/// `bayeslab synth` of `rows` x `features` (seed 5) into `dir/out`, with a 300-row test file,
/// the .npy and the CSV copies: the data set the bench tests time.
pub fn synth_bench_set(dir: &Path, rows: &str, features: &str, out: &str) {
    let args = [
        "synth",
        "--rows",
        rows,
        "--features",
        features,
        "--seed",
        "5",
        "--test-rows",
        "300",
        "--npy",
        "--csv",
        "--out",
        out,
        "--quiet",
    ];
    let o = bayeslab_in(dir, &args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}
