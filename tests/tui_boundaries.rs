//! The house rules as a test: only src/tui/ imports ratatui or crossterm, only src/data/
//! imports polars, and faer stays behind the numeric core, the model types and the design
//! matrix; src/record/ imports nothing that builds or shows it; src/catalog/ imports nothing of
//! the crate (config/ and model/ both read it), and src/model/ never reads the configuration (it
//! takes its own `model::spec::MethodSpec`).

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
    assert!(files.len() > 20);
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let p = f.to_string_lossy().replace('\\', "/");
        for (krate, doors) in [
            ("ratatui", &["src/tui/"][..]),
            ("crossterm", &["src/tui/"]),
            ("polars", &["src/data/"]),
            (
                "faer",
                &[
                    // the numeric core and the iteration loop over it
                    "src/numeric/",
                    "src/optim/",
                    // the model types: every fit and predictor, and the lab's mode finder
                    // (an optim objective with its numerical Hessian)
                    "src/model/",
                    "src/lab/mode.rs",
                    // the design matrix: built by data/, read from .npy files by npy
                    "src/data/",
                    "src/npy",
                    // the benchmark harness, which measures faer's own X^T X as its bound
                    "src/bench/",
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
fn model_never_imports_config() {
    for (file, line) in code_lines("src/model") {
        assert!(
            !line.contains("crate::config") && !line.contains("bayeslab::config"),
            "{file} reads the configuration: {line}"
        );
    }
}

#[test]
fn the_catalogue_imports_nothing_of_the_crate() {
    for (file, line) in code_lines("src/catalog") {
        assert!(!line.contains("crate::"), "{file}: {line}");
    }
}

#[test]
fn the_record_imports_nothing_that_builds_or_shows_it() {
    for (file, line) in code_lines("src/record") {
        for above in ["run", "output", "tui", "compare", "files", "bench", "synth"] {
            assert!(
                !line.contains(&format!("crate::{above}::")),
                "{file} reaches up into {above}/: {line}"
            );
        }
    }
}
