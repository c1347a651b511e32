//! Tells `bayeslab --version` which commit it was built from (`git rev-parse`), and falls back
//! to "unknown" where there is no git or no repository (a source tarball, `cargo install` from
//! a registry). Only HEAD is watched, so a commit reruns this and nothing else does.

use std::path::PathBuf;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    (out.status.success() && !text.trim().is_empty()).then(|| text.trim().to_string())
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let commit = match git(&["rev-parse", "--short=12", "HEAD"]) {
        Some(hash) => {
            let date = git(&["log", "-1", "--format=%cs", "HEAD"]).unwrap_or_default();
            // Rerun when HEAD moves: HEAD itself, and the branch file it points at.
            if let Some(dir) = git(&["rev-parse", "--git-dir"]) {
                let head = PathBuf::from(&dir).join("HEAD");
                println!("cargo:rerun-if-changed={}", head.display());
                if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
                    if let Some(common) = git(&["rev-parse", "--git-common-dir"]) {
                        let file = PathBuf::from(common).join(branch);
                        if file.exists() {
                            println!("cargo:rerun-if-changed={}", file.display());
                        }
                    }
                }
            }
            format!("{hash} ({date})")
        }
        None => "unknown (built outside a git checkout)".to_string(),
    };
    println!("cargo:rustc-env=BAYESLAB_COMMIT={commit}");
    let target = std::env::var("TARGET").unwrap_or_else(|_| "unknown".into());
    println!("cargo:rustc-env=BAYESLAB_TARGET={target}");
}
