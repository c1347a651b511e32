//! The house rules as a test: only src/tui/ imports ratatui or crossterm, only src/data/
//! imports polars, and faer stays behind the numeric core, the model types and the design
//! matrix.

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
