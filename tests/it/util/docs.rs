//! What the documentation tests share: the repository's files, the Markdown links a page holds
//! and where they lead, and the heading ids mdBook gives.
#![allow(dead_code)]

use std::path::{Component, Path, PathBuf};

pub fn files(path: &Path, out: &mut Vec<PathBuf>) {
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

pub fn display(p: &Path) -> String {
    p.to_string_lossy().replace('\\', "/")
}

/// The targets of the inline (`[text](target)`, `![alt](target)`) and reference-style
/// (`[label]: target`) links of a Markdown text, outside fenced code blocks and code spans.
pub fn link_targets(markdown: &str) -> Vec<(usize, String)> {
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
pub fn local_path(target: &str) -> Option<String> {
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
pub fn resolve(from: &Path, link: &str) -> Option<PathBuf> {
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

/// The id mdBook (and, for these headings, GitHub) gives a heading: its text without Markdown
/// markup, lower-cased, spaces as `-`, every character but letters, digits, `-` and `_` dropped.
pub fn heading_id(heading: &str) -> String {
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
pub fn heading_ids(markdown: &str) -> Vec<String> {
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
pub fn anchor_problem(path: &Path, target: &str) -> Option<String> {
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

/// The code spans of a Markdown text that name a file of the repository, with their line: a
/// span whose first component is one of `top` (the repository's top-level entries) and holds a
/// `/`, or any span naming a `.rs` file (a source file is named by its whole path). Spans that
/// are patterns (`*`, `{`, `<`, `…`) or sit in fenced code blocks are left out; a `:line` after a
/// file is dropped.
pub fn code_span_paths(markdown: &str, top: &[String]) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut fenced = false;
    for (n, line) in markdown.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        for (k, span) in line.split('`').enumerate() {
            let pattern = |c: char| c.is_whitespace() || "*{<…".contains(c);
            if k % 2 == 0 || span.is_empty() || span.contains(pattern) {
                continue;
            }
            let path = span.split(':').next().unwrap_or(span);
            let first = path.split('/').next().unwrap_or(path);
            let in_tree = path.contains('/') && top.iter().any(|t| t == first);
            if in_tree || path.ends_with(".rs") {
                out.push((n + 1, path.to_string()));
            }
        }
    }
    out
}

/// Whether `path` is one the repository's .gitignore keeps out (something a command makes,
/// such as benches/data/): its anchored patterns (`/benches/results*.md`), `*` within a name.
pub fn ignored(path: &str, gitignore: &str) -> bool {
    let path = path.trim_end_matches('/');
    gitignore
        .lines()
        .filter_map(|l| l.trim().strip_prefix('/'))
        .any(|pattern| glob_prefix(pattern, path))
}

/// `pattern` (with `*` for any run of characters but `/`) matches `path` or a folder above it.
fn glob_prefix(pattern: &str, path: &str) -> bool {
    let parts: Vec<&str> = path.split('/').collect();
    let want: Vec<&str> = pattern.split('/').collect();
    want.len() <= parts.len() && want.iter().zip(&parts).all(|(w, p)| glob(w, p))
}

/// One path component against one pattern component, `*` matching any run.
fn glob(pattern: &str, name: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == name,
        Some((head, tail)) => {
            name.len() >= head.len() + tail.len() && name.starts_with(head) && name.ends_with(tail)
        }
    }
}
