//! The catalogue's place in the house: src/catalog/ imports nothing of the crate (config/ and
//! model/ both read it), and src/model/ never reads the configuration (it takes its own
//! `model::spec::MethodSpec`).

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let p = entry.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
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
