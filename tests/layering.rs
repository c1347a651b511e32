//! The architecture's few doors (STYLE.md): polars only inside src/data/, ratatui and
//! crossterm only inside src/tui/. A `use` anywhere else fails this test.

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn heavy_dependencies_stay_behind_their_doors() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let rules = [("polars", "data"), ("ratatui", "tui"), ("crossterm", "tui")];
    let mut violations = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(&src).unwrap();
        let top = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy()
            .to_string();
        let text = std::fs::read_to_string(file).unwrap();
        for (krate, home) in rules {
            let used = text.lines().any(|l| {
                let l = l.trim_start();
                !l.starts_with("//")
                    && (l.contains(&format!("{krate}::")) || l.starts_with(&format!("use {krate}")))
            });
            if used && top != home {
                violations.push(format!(
                    "{} uses {krate} (allowed only in src/{home}/)",
                    rel.display()
                ));
            }
        }
    }
    assert!(violations.is_empty(), "{}", violations.join("\n"));
    assert!(files.len() > 10, "the source tree was not found");
}
