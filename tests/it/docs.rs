//! The repository stands alone: a clone must hold everything its documents point to. The README
//! and every file under src/, tests/ and docs/ are checked for references to the shared folder
//! beside the repository (where an older maths reference lived), every relative Markdown link
//! in a `.md` file must name a file or directory inside the repository (and, with a `#anchor`
//! into a Markdown page, a heading that page has), and every "docs/maths.md §x" reference in the
//! code and README must name a section the page has. The book itself is checked in
//! tests/it/book.rs. Every back-ticked path of the README and docs/ (a code span such as
//! `crates/data/src/read.rs`) must name a file or folder the repository holds, or one its
//! .gitignore says a command makes.

use std::path::{Path, PathBuf};

use crate::util::docs::*;

/// The documents and sources whose references are checked, as paths relative to the crate.
const ROOTS: [&str; 5] = ["README.md", "src", "crates", "tests", "docs"];

fn checked_files() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for root in ROOTS {
        files(Path::new(root), &mut out);
    }
    assert!(
        out.len() > 50,
        "expected the crate's files, found {}",
        out.len()
    );
    out
}

#[test]
fn nothing_points_at_the_shared_folder_outside_the_repository() {
    // Built from pieces so that this file does not match itself.
    let needles = [
        concat!("..", "/shared"),
        concat!("shared", "/MATH"),
        concat!("MATH", ".md"),
    ];
    let mut found = Vec::new();
    for f in checked_files() {
        let bytes = std::fs::read(&f).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        for (n, line) in text.lines().enumerate() {
            if needles.iter().any(|needle| line.contains(needle)) {
                found.push(format!("{}:{}: {}", display(&f), n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "references outside the repository (the maths is docs/maths.md):\n{}",
        found.join("\n")
    );
}

#[test]
fn markdown_links_stay_inside_the_repository_and_exist() {
    let mut bad = Vec::new();
    let mut checked = 0;
    for f in checked_files() {
        if f.extension().is_none_or(|e| e != "md") {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap();
        let dir = f.parent().unwrap_or(Path::new(""));
        for (line, target) in link_targets(&text) {
            let Some(path) = local_path(&target) else {
                continue;
            };
            checked += 1;
            match resolve(dir, &path) {
                None => bad.push(format!(
                    "{}:{line}: {target} leaves the repository",
                    display(&f)
                )),
                Some(p) if !p.exists() => bad.push(format!(
                    "{}:{line}: {target} does not exist ({})",
                    display(&f),
                    display(&p)
                )),
                Some(p) => {
                    if let Some(problem) = anchor_problem(&p, &target) {
                        bad.push(format!("{}:{line}: {target}: {problem}", display(&f)));
                    }
                }
            }
        }
        // A same-page anchor must name one of the page's own headings.
        for (line, target) in link_targets(&text) {
            let target = target.split_whitespace().next().unwrap_or("");
            if let Some(anchor) = target.strip_prefix('#') {
                if !heading_ids(&text).iter().any(|id| id == anchor) {
                    bad.push(format!(
                        "{}:{line}: #{anchor} is not a heading of this page",
                        display(&f)
                    ));
                }
            }
        }
    }
    assert!(bad.is_empty(), "broken Markdown links:\n{}", bad.join("\n"));
    // The README links the maths page and the datasets' README at least.
    assert!(checked >= 2, "only {checked} local links found");
}

#[test]
fn link_checker_catches_what_it_should() {
    let links = link_targets(
        "see [maths](docs/maths.md#1-x) and ![plot](../outside/a.svg)\n\
         `[not](a link)`\n```\n[nor](this)\n```\n[ref]: ../../elsewhere.md \"title\"\n\
         [web](https://example.org)",
    );
    let targets: Vec<&str> = links.iter().map(|(_, t)| t.as_str()).collect();
    assert_eq!(
        targets,
        [
            "docs/maths.md#1-x",
            "../outside/a.svg",
            "../../elsewhere.md \"title\"",
            "https://example.org"
        ]
    );
    assert_eq!(local_path(targets[0]).as_deref(), Some("docs/maths.md"));
    assert_eq!(local_path(targets[3]), None);
    assert_eq!(
        resolve(Path::new(""), "docs/maths.md"),
        Some(PathBuf::from("docs/maths.md"))
    );
    assert_eq!(
        resolve(Path::new("docs"), "../README.md"),
        Some(PathBuf::from("README.md"))
    );
    assert_eq!(resolve(Path::new(""), "../sibling/x.md"), None);
    assert_eq!(resolve(Path::new("docs"), "../../x.md"), None);
}

/// The section numbers docs/maths.md has: "## 4. Title" gives 4, "### 1.2 Title" gives 1.2.
fn maths_sections() -> Vec<String> {
    let text = std::fs::read_to_string("docs/maths.md").unwrap();
    text.lines()
        .filter(|l| l.starts_with("## ") || l.starts_with("### "))
        .filter_map(|l| l.split_whitespace().nth(1))
        .map(|n| n.trim_end_matches('.').to_string())
        .filter(|n| n.starts_with(|c: char| c.is_ascii_digit()))
        .collect()
}

#[test]
fn maths_references_name_sections_that_exist() {
    let sections = maths_sections();
    for s in ["1", "1.1", "1.2", "1.3", "1.4", "2", "3", "4", "5"] {
        assert!(sections.iter().any(|x| x == s), "docs/maths.md lacks §{s}");
    }
    let mut bad = Vec::new();
    let mut references = 0;
    for f in checked_files() {
        let Ok(text) = std::fs::read_to_string(&f) else {
            continue;
        };
        for (n, line) in text.lines().enumerate() {
            for (at, _) in line.match_indices("docs/maths.md") {
                let rest = line[at + "docs/maths.md".len()..].trim_start();
                let rest = rest
                    .strip_prefix('§')
                    .or_else(|| rest.strip_prefix("section "))
                    .unwrap_or(rest);
                let number: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_digit() || *c == '.')
                    .collect();
                let number = number.trim_end_matches('.');
                if number.is_empty() {
                    continue;
                }
                references += 1;
                if !sections.iter().any(|s| s == number) {
                    bad.push(format!("{}:{}: §{number}", display(&f), n + 1));
                }
            }
        }
    }
    assert!(
        references > 20,
        "only {references} section references found"
    );
    assert!(
        bad.is_empty(),
        "references to sections docs/maths.md does not have:\n{}",
        bad.join("\n")
    );
}

#[test]
fn heading_ids_are_those_mdbook_gives() {
    let page = "# Title\n## `bayeslab bench`: the Rust side\n```\n## not a heading\n```\n\
                ### Results (issue 8's sizes)\n## Title\n#hashtag\n### [Linked](x.md) part";
    assert_eq!(
        heading_ids(page),
        [
            "title",
            "bayeslab-bench-the-rust-side",
            "results-issue-8s-sizes",
            "title-1",
            "linked-part"
        ]
    );
    assert_eq!(heading_id("1.2 Probit: λ > 0"), "12-probit-λ--0");
}

/// The repository's top-level entries: a code span starting with one of them is a path.
fn top_level() -> Vec<String> {
    let entries = std::fs::read_dir(".").unwrap().flatten();
    let names = entries.map(|e| e.file_name().to_string_lossy().into_owned());
    names.filter(|n| n != "target" && n != "runs").collect()
}

/// The back-ticked paths of the README and docs/ that the repository does not hold.
fn missing_code_paths(files: &[PathBuf]) -> Vec<String> {
    let top = top_level();
    let gitignore = std::fs::read_to_string(".gitignore").unwrap_or_default();
    let mut bad = Vec::new();
    for f in files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "md"))
    {
        let text = std::fs::read_to_string(f).unwrap();
        for (line, path) in code_span_paths(&text, &top) {
            if !Path::new(&path).exists() && !ignored(&path, &gitignore) {
                bad.push(format!("{}:{line}: `{path}`", display(f)));
            }
        }
    }
    bad
}

#[test]
fn backticked_paths_in_the_docs_exist() {
    let mut files = vec![PathBuf::from("README.md")];
    crate::util::docs::files(Path::new("docs"), &mut files);
    let bad = missing_code_paths(&files);
    assert!(
        bad.is_empty(),
        "back-ticked paths that are not in the repository (write the whole path from the \
         repository's root, as it is now):\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_path_checker_catches_what_it_should() {
    let top = vec!["crates".to_string(), "docs".to_string()];
    let text = "`crates/data/src/lib.rs` `docs/` `lib.rs` `a/b.rs:3` `results.json` \
                `crates/*/src` `x y/z`\n```\n`crates/nope.rs`\n```\n";
    let found: Vec<String> = code_span_paths(text, &top)
        .into_iter()
        .map(|(_, p)| p)
        .collect();
    assert_eq!(
        found,
        ["crates/data/src/lib.rs", "docs/", "lib.rs", "a/b.rs"]
    );
    let gitignore = "# made by a script\n/benches/data\n/benches/results*.md\n";
    assert!(ignored("benches/data/", gitignore) && ignored("benches/data/x.npy", gitignore));
    assert!(ignored("benches/results.loaded.md", gitignore));
    assert!(!ignored("benches/compare.py", gitignore) && !ignored("benches", gitignore));
}
