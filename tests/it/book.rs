//! The book (docs/, an mdBook) as mdBook reads it: every page is in docs/SUMMARY.md, every
//! SUMMARY entry exists, a page's links stay inside the book (so the built HTML has no dead
//! link), and the README is a front door that leads into it.

use std::path::Path;

use crate::util::docs::*;

/// The pages docs/SUMMARY.md lists, relative to docs/, in order.
fn summary_pages() -> Vec<String> {
    let summary = std::fs::read_to_string("docs/SUMMARY.md").unwrap();
    link_targets(&summary)
        .into_iter()
        .filter_map(|(_, t)| local_path(&t))
        .collect()
}

#[test]
fn the_book_lists_every_page_and_every_entry_exists() {
    let pages = summary_pages();
    assert!(pages.len() >= 15, "SUMMARY.md lists only {pages:?}");
    for p in &pages {
        assert!(
            Path::new("docs").join(p).is_file(),
            "docs/SUMMARY.md lists {p}, which does not exist"
        );
    }
    let mut all = Vec::new();
    files(Path::new("docs"), &mut all);
    let unlisted: Vec<String> = all
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "md"))
        .map(|f| display(f.strip_prefix("docs").unwrap()))
        .filter(|f| f != "SUMMARY.md" && !pages.contains(f))
        .collect();
    assert!(
        unlisted.is_empty(),
        "pages under docs/ that docs/SUMMARY.md does not list (mdBook would not build them; \
         add each to SUMMARY.md under its part): {unlisted:?}"
    );
    let book = std::fs::read_to_string("docs/book.toml").unwrap();
    let book: toml::Table = toml::from_str(&book).unwrap();
    assert_eq!(
        book["book"]["src"].as_str(),
        Some("."),
        "the book's sources are docs/ itself, so that docs/maths.md keeps its path"
    );
    assert_eq!(
        book["output"]["html"]["mathjax-support"].as_bool(),
        Some(true)
    );
}

#[test]
fn book_pages_link_only_inside_the_book() {
    // mdBook turns a link to a page into a link to its HTML; a link that leaves docs/ would be
    // dead in the built book (name such a file in a code span instead).
    let mut bad = Vec::new();
    let mut all = Vec::new();
    files(Path::new("docs"), &mut all);
    for f in all
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "md"))
    {
        let text = std::fs::read_to_string(f).unwrap();
        for (line, target) in link_targets(&text) {
            let Some(path) = local_path(&target) else {
                continue;
            };
            match resolve(f.parent().unwrap(), &path) {
                Some(p) if p.starts_with("docs") => {}
                _ => bad.push(format!("{}:{line}: {target}", display(f))),
            }
        }
    }
    assert!(
        bad.is_empty(),
        "book links that leave docs/:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_readme_is_a_front_door() {
    // Issue 33: at most about 300 lines, and the first screenful (40 lines) holds the two
    // set-up commands and a whole minimal experiment.
    let readme = std::fs::read_to_string("README.md").unwrap();
    let lines: Vec<&str> = readme.lines().collect();
    assert!(lines.len() <= 300, "README.md has {} lines", lines.len());
    let first = lines[..40.min(lines.len())].join("\n");
    for needle in [
        "cargo run ",
        "cargo test ",
        "[data]",
        "path = \"datasets/",
        "target = ",
        "[[method]]",
        "kind = \"",
    ] {
        assert!(
            first.contains(needle),
            "the README's first 40 lines lack {needle:?}"
        );
    }
}
