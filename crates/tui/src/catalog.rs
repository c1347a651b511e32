//! The experiment files the workbench offers: every `*.toml` in `experiments/` plus any
//! path given on the command line, each read and validated up front so the Experiments
//! screen can show its text and, for a bad file, the engine's message (file, key, fix).

use std::path::{Path, PathBuf};

use bayeslab_engine::config::{self, Plan};

#[derive(Debug, Clone)]
pub struct Entry {
    pub path: PathBuf,
    /// The file's text, or why it could not be read.
    pub text: Result<String, String>,
    /// The validated plan, or the validation error as the user should read it.
    pub plan: Result<Plan, String>,
}

impl Entry {
    pub fn load(path: &Path) -> Entry {
        Entry {
            path: path.to_path_buf(),
            text: std::fs::read_to_string(path)
                .map_err(|e| format!("{}: cannot read the file: {e}", path.display())),
            plan: config::load(path).map_err(|e| e.to_string()),
        }
    }

    /// The experiment's name (the `name` key), or the file stem when it does not validate.
    pub fn name(&self) -> String {
        match &self.plan {
            Ok(p) => p.name.clone(),
            Err(_) => self
                .path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| self.path.display().to_string()),
        }
    }
}

#[derive(Debug, Clone, Default)]
pub struct Catalog {
    pub entries: Vec<Entry>,
    pub selected: usize,
}

impl Catalog {
    /// The TOML files directly in `dir` (sorted by name), plus `extra` when it is not one of
    /// them; `extra` is selected when given, otherwise the quickstart when present.
    pub fn discover(dir: &Path, extra: Option<&Path>) -> Catalog {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
            .map(|rd| {
                rd.filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.extension().is_some_and(|x| x == "toml"))
                    .collect()
            })
            .unwrap_or_default();
        paths.sort();
        let mut selected = paths
            .iter()
            .position(|p| p.file_stem().is_some_and(|s| s == "quickstart"))
            .unwrap_or(0);
        if let Some(extra) = extra {
            let same = |p: &PathBuf| match (p.canonicalize(), extra.canonicalize()) {
                (Ok(a), Ok(b)) => a == b,
                _ => p == extra,
            };
            selected = match paths.iter().position(same) {
                Some(i) => i,
                None => {
                    paths.push(extra.to_path_buf());
                    paths.len() - 1
                }
            };
        }
        Catalog {
            entries: paths.iter().map(|p| Entry::load(p)).collect(),
            selected,
        }
    }

    pub fn current(&self) -> Option<&Entry> {
        self.entries.get(self.selected)
    }

    /// Move the selection by `delta`, staying inside the list.
    pub fn step(&mut self, delta: isize) {
        if self.entries.is_empty() {
            return;
        }
        let last = self.entries.len() - 1;
        self.selected = self.selected.saturating_add_signed(delta).min(last);
    }

    /// Read the selected file again (it may have been edited since) and return it.
    pub fn reload_current(&mut self) -> Option<&Entry> {
        let entry = self.entries.get_mut(self.selected)?;
        *entry = Entry::load(&entry.path);
        Some(entry)
    }
}
