//! The repository stands alone: a clone must hold everything its documents point to. The README
//! and every file under src/, tests/ and docs/ are checked for references to the shared folder
//! beside the repository (where an older maths reference lived), every relative Markdown link
//! in a `.md` file must name a file or directory inside the repository (and, with a `#anchor`
//! into a Markdown page, a heading that page has), and every "docs/maths.md §x" reference in the
//! code and README must name a section the page has. The book (docs/, an mdBook) is checked as
//! mdBook reads it: every page is in docs/SUMMARY.md, every SUMMARY entry exists, and a page's
//! links stay inside the book, so the built HTML has no dead link.

use std::path::{Component, Path, PathBuf};

/// The documents and sources whose references are checked, as paths relative to the crate.
const ROOTS: [&str; 4] = ["README.md", "src", "tests", "docs"];

fn files(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .collect();
        entries.sort();
        for p in entries {
            files(&p, out);
        }
    } else if path.is_file() {
        out.push(path.to_path_buf());
    }
}

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

fn display(p: &Path) -> String {
    p.to_string_lossy().replace('\\', "/")
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

/// The targets of the inline (`[text](target)`, `![alt](target)`) and reference-style
/// (`[label]: target`) links of a Markdown text, outside fenced code blocks and code spans.
fn link_targets(markdown: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut fenced = false;
    for (n, line) in markdown.lines().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Drop code spans: a `](` inside backticks is not a link.
        let prose: String = line
            .split('`')
            .enumerate()
            .filter(|(i, _)| i % 2 == 0)
            .map(|(_, s)| s)
            .collect::<Vec<_>>()
            .join(" ");
        let mut rest = prose.as_str();
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            if let Some(end) = rest.find(')') {
                out.push((n + 1, rest[..end].to_string()));
                rest = &rest[end..];
            }
        }
        if let Some(label_end) = trimmed.find("]: ") {
            if trimmed.starts_with('[') {
                out.push((n + 1, trimmed[label_end + 3..].to_string()));
            }
        }
    }
    out
}

/// The path part of a link target, or `None` when it is not a path inside the repository to
/// check (a URL or a same-page anchor).
fn local_path(target: &str) -> Option<String> {
    let target = target.trim();
    // Strip an optional title: [text](path "title").
    let target = target.split_whitespace().next().unwrap_or("");
    let target = target.trim_start_matches('<').trim_end_matches('>');
    if target.is_empty()
        || target.starts_with('#')
        || target.contains("://")
        || target.starts_with("mailto:")
    {
        return None;
    }
    let path = target.split(['#', '?']).next().unwrap_or("");
    (!path.is_empty()).then(|| path.to_string())
}

/// `link` resolved from the directory `from` (both relative to the repository root), or
/// `None` when it climbs out of the repository. A leading `/` means the repository root, as
/// on GitHub.
fn resolve(from: &Path, link: &str) -> Option<PathBuf> {
    let start = if link.starts_with('/') {
        PathBuf::new()
    } else {
        from.to_path_buf()
    };
    let mut parts: Vec<String> = start
        .components()
        .filter_map(|c| match c {
            Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect();
    for piece in link.split('/') {
        match piece {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p.to_string()),
        }
    }
    Some(parts.iter().collect())
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

/// The id mdBook (and, for these headings, GitHub) gives a heading: its text without Markdown
/// markup, lower-cased, spaces as `-`, every character but letters, digits, `-` and `_` dropped.
fn heading_id(heading: &str) -> String {
    // A link in a heading reads as its text.
    let mut text = String::new();
    let mut rest = heading;
    while let Some(open) = rest.find("](") {
        let Some(close) = rest[open..].find(')') else {
            break;
        };
        text.push_str(&rest[..open]);
        rest = &rest[open + close + 1..];
    }
    text.push_str(rest);
    text.chars()
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '_' || c == '-' {
                Some(c.to_ascii_lowercase())
            } else if c.is_whitespace() {
                Some('-')
            } else {
                None
            }
        })
        .collect()
}

/// The ids of a Markdown page's headings (`#` to `######`, outside fenced code), in order; a
/// repeated id gets `-1`, `-2`, … as mdBook numbers it.
fn heading_ids(markdown: &str) -> Vec<String> {
    let mut ids: Vec<String> = Vec::new();
    let mut fenced = false;
    for line in markdown.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fenced = !fenced;
            continue;
        }
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if fenced || hashes == 0 || hashes > 6 || !line[hashes..].starts_with(' ') {
            continue;
        }
        let id = heading_id(line[hashes..].trim());
        let repeats = ids
            .iter()
            .filter(|x| **x == id || x.starts_with(&format!("{id}-")))
            .count();
        ids.push(if repeats == 0 {
            id
        } else {
            format!("{id}-{repeats}")
        });
    }
    ids
}

/// What is wrong with the `#anchor` of a link to the Markdown page `path`, if anything.
fn anchor_problem(path: &Path, target: &str) -> Option<String> {
    let target = target.split_whitespace().next().unwrap_or("");
    let (_, anchor) = target.split_once('#')?;
    if path.extension().is_none_or(|e| e != "md") || anchor.is_empty() {
        return None;
    }
    let text = std::fs::read_to_string(path).ok()?;
    let ids = heading_ids(&text);
    (!ids.iter().any(|id| id == anchor)).then(|| {
        format!(
            "{} has no heading #{anchor} (its headings: {})",
            display(path),
            ids.join(", ")
        )
    })
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
