//! The layers: every crate's Cargo.toml names exactly the crates of the house that the table in
//! docs/development/architecture.md lets it use, and none of the heavy crates it must never see;
//! and the doors inside a crate that the graph cannot keep: faer stays behind the numeric core,
//! the model types and the design matrix; the record imports nothing that builds or shows it;
//! the catalogue imports nothing of its crate.

use std::collections::BTreeSet;
use std::path::Path;

/// The names in the `[dependencies]` table of the Cargo.toml in `folder`.
fn dependencies(folder: &str) -> BTreeSet<String> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(folder)
        .join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    let value: toml::Table = text.parse().unwrap();
    let table = value["dependencies"].as_table().unwrap();
    table.keys().cloned().collect()
}

/// The rows of architecture.md's crate table: (crate, folder, the house's crates it uses, the
/// crates it never sees).
fn crate_table() -> Vec<(String, String, BTreeSet<String>, BTreeSet<String>)> {
    let doc = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/development/architecture.md");
    let text = std::fs::read_to_string(doc).unwrap();
    let list = |cell: &str| -> BTreeSet<String> {
        cell.split(',')
            .map(str::trim)
            .filter(|c| !c.is_empty() && *c != "none")
            .map(String::from)
            .collect()
    };
    text.lines()
        .filter(|l| l.starts_with("| bayeslab"))
        .map(|l| {
            let cells: Vec<&str> = l.trim_matches('|').split('|').map(str::trim).collect();
            (
                cells[0].to_string(),
                cells[1].to_string(),
                list(cells[2]),
                list(cells[3]),
            )
        })
        .collect()
}

#[test]
fn every_crate_uses_what_the_architecture_table_says_and_nothing_above() {
    let rows = crate_table();
    let names: BTreeSet<String> = rows.iter().map(|r| r.0.clone()).collect();
    let members = [
        "bayeslab",
        "bayeslab-core",
        "bayeslab-data",
        "bayeslab-engine",
    ];
    let members = members
        .into_iter()
        .chain(["bayeslab-report", "bayeslab-tui"]);
    assert_eq!(
        names,
        members.map(String::from).collect(),
        "one row per crate"
    );
    for (krate, folder, uses, never) in rows {
        let deps = dependencies(&folder);
        let house: BTreeSet<String> = deps
            .iter()
            .filter(|d| d.starts_with("bayeslab"))
            .cloned()
            .collect();
        assert_eq!(
            house, uses,
            "{krate} ({folder}/Cargo.toml) against architecture.md"
        );
        for heavy in &never {
            assert!(!deps.contains(heavy), "{krate} depends on {heavy}");
        }
    }
}

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
fn faer_stays_behind_its_doors() {
    let doors = [
        // the numeric core and the iteration loop over it
        "crates/core/src/numeric/",
        "crates/core/src/optim/",
        // the model types: every fit and predictor, and the lab's mode finder
        // (an optim objective with its numerical Hessian)
        "crates/core/src/model/",
        // the core's unsafe module: a matrix's columns written from several threads
        "crates/core/src/unchecked.rs",
        "crates/engine/src/lab/mode.rs",
        // the design matrix: built by the data crate, read from .npy files by its npy module
        "crates/data/src/",
        // the benchmark harness, which measures faer's own X^T X as its bound
        "crates/engine/src/bench/",
    ];
    let mut files = Vec::new();
    rust_files(Path::new("src"), &mut files);
    rust_files(Path::new("crates"), &mut files);
    assert!(files.len() > 20);
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let p = f.to_string_lossy().replace('\\', "/");
        let uses = text.lines().any(|l| {
            let l = l.trim_start();
            !l.starts_with("//") && (l.contains("use faer") || l.contains("faer::"))
        });
        assert!(
            !uses || doors.iter().any(|d| p.starts_with(d)),
            "{p} uses faer outside {doors:?}"
        );
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
