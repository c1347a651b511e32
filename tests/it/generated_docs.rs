//! The reference pages generated from the code (docs/reference/generated/: the command line
//! from the clap definitions, the method kinds from the catalogue, the experiment keys from the
//! parser, the JSON Schema of results.json from the record types) must be what `bayeslab docs`
//! writes now; and every key the parser accepts must be explained in a hand-written page.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn generate() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let o = crate::util::cli::bin()
        .args(["docs", "--out"])
        .arg(tmp.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    tmp
}

fn names(dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect()
}

#[test]
fn the_generated_reference_is_what_the_code_writes_now() {
    let fresh = generate();
    let committed = root().join("docs/reference/generated");
    assert_eq!(
        names(fresh.path()),
        names(&committed),
        "docs/reference/generated/ holds other files than `bayeslab docs` writes"
    );
    for name in names(fresh.path()) {
        let now = std::fs::read_to_string(fresh.path().join(&name)).unwrap();
        let then = std::fs::read_to_string(committed.join(&name)).unwrap();
        if now != then {
            let line = now
                .lines()
                .zip(then.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(now.lines().count().min(then.lines().count()));
            panic!(
                "docs/reference/generated/{name} is stale (first difference at line {}): \
                 run `cargo run -- docs` and commit the result",
                line + 1
            );
        }
    }
}

#[test]
fn the_generated_pages_cover_every_command_kind_and_table() {
    let fresh = generate();
    let cli = std::fs::read_to_string(fresh.path().join("cli.md")).unwrap();
    for cmd in [
        "run",
        "tui",
        "check",
        "compare",
        "synth",
        "bench",
        "docs",
        "completions",
        "man",
    ] {
        assert!(cli.contains(&format!("\n## `bayeslab {cmd}`\n")), "{cmd}");
    }
    assert!(cli.contains("Exit codes:"));
    let kinds = std::fs::read_to_string(fresh.path().join("method-kinds.md")).unwrap();
    for row in &bayeslab_core::catalog::ROWS {
        assert!(
            kinds.contains(&format!("\n## `{}`\n", row.name)),
            "{}",
            row.name
        );
    }
    let keys = std::fs::read_to_string(fresh.path().join("experiment-keys.md")).unwrap();
    for table in [
        "[data]",
        "[prior]",
        "[evaluation]",
        "[[method]]",
        "[[posterior]]",
    ] {
        assert!(keys.contains(&format!("\n## `{table}`\n")), "{table}");
    }
    // A key only some kinds take names them, from the catalogue.
    assert!(
        keys.contains("| `damping` | `ep-probit`, `ep-logistic` |"),
        "{keys}"
    );
}

/// The keys of the generated experiment-keys.md: every code span after the first heading.
fn generated_keys(page: &str) -> BTreeSet<String> {
    let body = &page[page.find("\n## ").unwrap()..];
    body.lines()
        .filter(|l| !l.starts_with("## ") && !l.starts_with("|---"))
        .flat_map(|l| {
            let first_cell = l
                .strip_prefix("| ")
                .map(|r| r.split(" |").next().unwrap_or(""));
            first_cell
                .unwrap_or(l)
                .split('`')
                .skip(1)
                .step_by(2)
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn every_experiment_key_is_explained_in_a_hand_written_page() {
    let fresh = generate();
    let page = std::fs::read_to_string(fresh.path().join("experiment-keys.md")).unwrap();
    let keys = generated_keys(&page);
    assert!(
        keys.contains("chunk_rows") && keys.contains("mc_samples"),
        "{keys:?}"
    );
    let mut text = String::new();
    for dir in ["docs/guide", "docs/reference"] {
        for e in std::fs::read_dir(root().join(dir)).unwrap().flatten() {
            if e.path().extension().is_some_and(|x| x == "md") {
                text.push_str(&std::fs::read_to_string(e.path()).unwrap());
            }
        }
    }
    // Named as a code span, inside one as `key = …` (`{ every = K, offset = J }`), or as a table.
    let explained = |k: &str| {
        [
            format!("`{k}`"),
            format!("{k} ="),
            format!("`[{k}]`"),
            format!("`[[{k}]]`"),
        ]
        .iter()
        .any(|form| text.contains(form.as_str()))
    };
    let missing: Vec<&String> = keys.iter().filter(|k| !explained(k)).collect();
    assert!(
        missing.is_empty(),
        "keys the parser accepts that no page of docs/guide or docs/reference explains: {missing:?}"
    );
}
