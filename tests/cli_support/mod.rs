//! What the command-line tests share: the built binary, the repository root and one run of an
//! experiment file.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_bayeslab"))
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
