//! The house rules the crate graph does not keep yet: only crates/tui/src/ imports ratatui or
//! crossterm, only crates/data/src/ imports polars, and faer stays behind the numeric core, the model
//! types and the design matrix; the record imports nothing that builds or shows it; the
//! catalogue imports nothing of its crate.

use std::path::Path;

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let p = entry.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn heavy_dependencies_stay_behind_their_doors() {
    let mut files = Vec::new();
    rust_files(Path::new("src"), &mut files);
    rust_files(Path::new("crates"), &mut files);
    assert!(files.len() > 20);
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let p = f.to_string_lossy().replace('\\', "/");
        for (krate, doors) in [
            ("ratatui", &["crates/tui/src/"][..]),
            ("crossterm", &["crates/tui/src/"]),
            ("polars", &["crates/data/src/"]),
            (
                "faer",
                &[
                    // the numeric core and the iteration loop over it
                    "crates/core/src/numeric/",
                    "crates/core/src/optim/",
                    // the model types: every fit and predictor, and the lab's mode finder
                    // (an optim objective with its numerical Hessian)
                    "crates/core/src/model/",
                    "crates/engine/src/lab/mode.rs",
                    // the design matrix: built by data/, read from .npy files by npy
                    "crates/data/src/",
                    // the benchmark harness, which measures faer's own X^T X as its bound
                    "crates/engine/src/bench/",
                ],
            ),
        ] {
            let uses = text.lines().any(|l| {
                let l = l.trim_start();
                !l.starts_with("//")
                    && (l.contains(&format!("use {krate}")) || l.contains(&format!("{krate}::")))
            });
            assert!(
                !uses || doors.iter().any(|d| p.starts_with(d)),
                "{p} uses {krate} outside {doors:?}"
            );
        }
    }
}

/// The lines of the files under `dir` that are not comments, with their file.
fn code_lines(dir: &str) -> Vec<(String, String)> {
    let mut files = Vec::new();
    rust_files(Path::new(dir), &mut files);
    assert!(!files.is_empty(), "{dir} has Rust files");
    let mut out = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        for l in text
            .lines()
            .map(str::trim_start)
            .filter(|l| !l.starts_with("//"))
        {
            out.push((f.display().to_string(), l.to_string()));
        }
    }
    out
}

#[test]
fn the_catalogue_imports_nothing_of_the_crate() {
    for (file, line) in code_lines("crates/core/src/catalog") {
        assert!(!line.contains("crate::"), "{file}: {line}");
    }
}

#[test]
fn the_record_imports_nothing_that_builds_or_shows_it() {
    for (file, line) in code_lines("crates/core/src/record") {
        for above in ["run", "output", "tui", "compare", "files", "bench", "synth"] {
            assert!(
                !line.contains(&format!("crate::{above}::")),
                "{file} reaches up into {above}/: {line}"
            );
        }
    }
}
