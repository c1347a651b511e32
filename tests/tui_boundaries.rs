//! The house rules as a test: only src/tui/ imports ratatui or crossterm, only src/data/
//! imports polars.

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
        for (krate, door) in [
            ("ratatui", "src/tui/"),
            ("crossterm", "src/tui/"),
            ("polars", "src/data/"),
        ] {
            let uses = text.lines().any(|l| {
                let l = l.trim_start();
                !l.starts_with("//")
                    && (l.contains(&format!("use {krate}")) || l.contains(&format!("{krate}::")))
            });
            assert!(
                !uses || p.starts_with(door),
                "{p} uses {krate} outside {door}"
            );
        }
    }
}
